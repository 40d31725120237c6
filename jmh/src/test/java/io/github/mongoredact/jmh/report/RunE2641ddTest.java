package io.github.mongoredact.jmh.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The reports of the target run at {@code e2641dd} (jmh/results/targets-rounds-e2641dd.*), made again from every round's
 * values kept in its {@code report.json} (in this test's resources, so that a later run kept in jmh/results changes nothing
 * here): the JMH result file of each round and subject is rebuilt, then {@code Rounds} and {@code Report} run as
 * {@code run-targets.sh} runs them. The expected files are what the hand-written report code, which the libraries replaced,
 * wrote from the same files.
 */
class RunE2641ddTest {
    static final Path RUN = Paths.get("src/test/resources/io/github/mongoredact/jmh/report/e2641dd");

    @TempDir
    Path dir;

    @Test
    void roundsReportIsTheExpectedMarkdownAndJson() throws Exception {
        List<String> args = new ArrayList<>(List.of("report", "--markdown", dir.resolve("report.md").toString(), "--json",
                dir.resolve("report.json").toString(), "--targets", "issue11"));
        args.addAll(roundFiles(dir));
        String printed = out(Rounds::main, args.toArray(new String[0]));
        assertEquals(read(RUN.resolve("expected-rounds.md")), printed);
        assertEquals(printed, read(dir.resolve("report.md")));
        // the JSON as the old code wrote it, but for the layout (Jackson's: one subject or target a line)
        assertEquals(read(RUN.resolve("expected-rounds.json")).replaceAll("\\s", ""),
                read(dir.resolve("report.json")).replaceAll("\\s", ""));
    }

    @Test
    void roundOneReportIsTheExpectedMarkdown() throws Exception {
        List<String> files = new ArrayList<>();
        files.add("merge");
        files.add(dir.resolve("round1.json").toString());
        for (String file : roundFiles(dir)) {
            if (file.contains("round-1-")) {
                files.add(file);
            }
        }
        Rounds.main(files.toArray(new String[0]));
        assertEquals(read(RUN.resolve("expected-round1.md")), out(Report::main, "report", dir.resolve("round1.json").toString(),
                "--targets", "--markdown"));
        assertEquals(read(RUN.resolve("expected-round1.txt")), out(Report::main, "report", dir.resolve("round1.json").toString(),
                "--targets", "--baseline", "started=CodecEncoding"));
    }

    interface Main {
        void run(String[] args) throws Exception;
    }

    static String out(final Main main, final String... args) throws Exception {
        PrintStream saved = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            main.run(args);
        } finally {
            System.setOut(saved);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    static String read(final Path file) throws Exception {
        return Files.readString(file);
    }

    /** One JMH result file per round and subject ({@code round-<r>-<Subject>.json}), from the run's every-round values. */
    static List<String> roundFiles(final Path into) throws Exception {
        JsonNode report = ResultFiles.MAPPER.readTree(RUN.resolve("report.json").toFile());
        Map<String, ArrayNode> files = new TreeMap<>();
        for (JsonNode s : report.get("subjects")) {
            for (int i = 0; i < s.get("rounds").size(); i++) {
                String name = "round-" + s.get("rounds").get(i).asInt() + "-" + s.get("subject").asText() + ".json";
                ObjectNode r = files.computeIfAbsent(name, k -> ResultFiles.MAPPER.createArrayNode()).addObject();
                r.put("benchmark", "io.github.mongoredact.jmh." + s.get("subject").asText() + "Benchmark."
                        + s.get("method").asText());
                r.put("mode", "avgt");
                r.set("params", s.get("params"));
                double ns = s.get("nsPerOp").get("values").get(i).asDouble();
                r.putObject("primaryMetric").put("score", ns).put("scoreError", "NaN").put("scoreUnit", "ns/op")
                        .putArray("rawData").addArray().add(ns);
                double bytes = s.get("bytesPerOp").get("values").get(i).asDouble();
                r.putObject("secondaryMetrics").putObject(ResultFiles.NORM).put("score", bytes).put("scoreUnit", "B/op")
                        .putArray("rawData").addArray().add(bytes);
            }
        }
        List<String> paths = new ArrayList<>();
        for (Map.Entry<String, ArrayNode> e : files.entrySet()) {
            Path file = into.resolve(e.getKey());
            ResultFiles.MAPPER.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), e.getValue());
            paths.add(file.toString());
        }
        return paths;
    }
}
