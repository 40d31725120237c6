package io.github.mongoredact.jmh.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.commons.statistics.inference.MannWhitneyUTest;
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
import java.util.Locale;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hand-written report code (legacy) and the one on libraries give the same output from the committed results. */
class LegacyEquivalenceTest {
    private static final Path RESULTS = Paths.get("results");

    @TempDir
    Path dir;

    interface Main {
        void run(String[] args) throws Exception;
    }

    private static String out(final Main main, final String... args) throws Exception {
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

    private static void same(final String... args) throws Exception {
        String old = out(io.github.mongoredact.jmh.report.legacy.Report::main, args);
        String now = out(Report::main, args);
        assertTrue(old.length() > 500, old);
        assertEquals(old, now, String.join(" ", args));
    }

    @Test
    void fullRunReportIsTheSame() throws Exception {
        same("report", "results/full-results.json", "--allocs", "results/full-allocs.json", "--targets", "--markdown");
        same("report", "results/full-results.json", "--allocs", "results/full-allocs.json", "--targets");
        same("report", "results/full-results.json", "--baseline", "started=ToJson", "--markdown");
        same("report", "results/targets-results.json", "--allocs", "results/targets-allocs.json", "--targets", "--markdown",
                "--baseline", "started=OursSpecOnly");
    }

    @Test
    void compareIsTheSame() throws Exception {
        same("compare", "results/full-results.json", "results/targets-results.json", "--old-allocs", "results/full-allocs.json",
                "--new-allocs", "results/targets-allocs.json");
        same("compare", "results/full-results.json", "results/targets-results.json", "--markdown", "--alpha", "0.01");
        same("compare", "results/targets-results.json", "results/full-results.json");
    }

    @Test
    void slimResultsGiveTheSameReports() throws Exception {
        Path slim = dir.resolve("full-slim.json");
        Report.main(new String[]{"slim", "results/full-results.json", slim.toString()});
        String[] report = {"report", null, "--allocs", "results/full-allocs.json", "--targets", "--markdown"};
        report[1] = "results/full-results.json";
        String full = out(io.github.mongoredact.jmh.report.legacy.Report::main, report);
        report[1] = slim.toString();
        assertEquals(full, out(Report::main, report));
        assertEquals(full, out(io.github.mongoredact.jmh.report.legacy.Report::main, report));
        String[] compare = {"compare", slim.toString(), "results/targets-results.json"};
        assertEquals(out(io.github.mongoredact.jmh.report.legacy.Report::main, "compare", "results/full-results.json",
                "results/targets-results.json"), out(Report::main, compare));
        System.err.println("slim: " + Files.size(slim) + " B, " + Files.readAllLines(slim).size() + " lines; raw "
                + Files.size(Paths.get("results/full-results.json")) + " B");
    }

    @Test
    void roundsReportIsTheSame() throws Exception {
        List<String> files = roundFiles(dir.resolve("rounds"));
        List<String> oldArgs = new ArrayList<>(List.of("report", "--markdown", dir.resolve("old.md").toString(), "--json",
                dir.resolve("old.json").toString()));
        oldArgs.addAll(files);
        List<String> newArgs = new ArrayList<>(List.of("report", "--markdown", dir.resolve("new.md").toString(), "--json",
                dir.resolve("new.json").toString()));
        newArgs.addAll(files);
        String old = out(io.github.mongoredact.jmh.report.legacy.Rounds::main, oldArgs.toArray(new String[0]));
        String now = out(Rounds::main, newArgs.toArray(new String[0]));
        assertEquals(old, now);
        assertEquals(read(dir.resolve("old.md")), read(dir.resolve("new.md")));
        // the committed Markdown of that run, rendered again from its every-round values (kept to 4 decimals: a spread such
        // as 152.0009 to 152.0011 became 152.0000 to 152.0000, shown as "152" where the run showed "152 [152-152]")
        String sameEnds = " \\[([^\\]-]+)-\\1\\]";
        assertEquals(read(RESULTS.resolve("targets-rounds-e2641dd.md")).replaceAll(sameEnds, ""),
                read(dir.resolve("new.md")).replaceAll(sameEnds, ""));
        // JSON: the same text but for the layout
        assertEquals(read(dir.resolve("old.json")).replaceAll("\\s", ""), read(dir.resolve("new.json")).replaceAll("\\s", ""));

        List<String> merge = new ArrayList<>(List.of("merge", dir.resolve("old-merged.json").toString()));
        merge.addAll(files);
        io.github.mongoredact.jmh.report.legacy.Rounds.main(merge.toArray(new String[0]));
        merge.set(1, dir.resolve("new-merged.json").toString());
        Rounds.main(merge.toArray(new String[0]));
        JsonNode oldMerged = ResultFiles.MAPPER.readTree(dir.resolve("old-merged.json").toFile());
        assertEquals(22 * 4, oldMerged.size()); // 22 subjects and parameter sets, 4 rounds
        assertEquals(oldMerged, ResultFiles.MAPPER.readTree(dir.resolve("new-merged.json").toFile()));
    }

    @Test
    void rankTestGivesTheSamePValues() {
        Random random = new Random(19);
        int compared = 0;
        for (int i = 0; i < 4000; i++) {
            double[] a = sample(random, 2 + random.nextInt(24), random.nextBoolean());
            double[] b = sample(random, 2 + random.nextInt(24), random.nextBoolean());
            double old = io.github.mongoredact.jmh.report.legacy.MannWhitney.pValue(a, b);
            double now = MannWhitneyUTest.withDefaults().test(a, b).getPValue();
            assertEquals(String.format(Locale.ROOT, "%.3f", old), String.format(Locale.ROOT, "%.3f", now),
                    () -> java.util.Arrays.toString(a) + " " + java.util.Arrays.toString(b));
            compared++;
        }
        assertEquals(4000, compared);
    }

    /** Integers with ties, or reals without, shifted by a random amount between the two samples. */
    private static double[] sample(final Random random, final int n, final boolean ties) {
        double shift = random.nextInt(3);
        return random.doubles(n).map(v -> ties ? Math.floor(v * 8) + shift : v + shift / 4).toArray();
    }

    /** One JMH result file per round and subject, made from the every-round values of the committed report. */
    private static List<String> roundFiles(final Path into) throws Exception {
        Files.createDirectories(into);
        JsonNode report = ResultFiles.MAPPER.readTree(RESULTS.resolve("targets-rounds-e2641dd.json").toFile());
        java.util.Map<String, ArrayNode> files = new java.util.TreeMap<>();
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
        for (java.util.Map.Entry<String, ArrayNode> e : files.entrySet()) {
            Path file = into.resolve(e.getKey());
            ResultFiles.MAPPER.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), e.getValue());
            paths.add(file.toString());
        }
        return paths;
    }

    private static String read(final Path file) throws Exception {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.collect(Collectors.joining("\n"));
        }
    }
}
