package io.github.mongoredact.jmh.report;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MixTest {
    @TempDir
    Path dir;

    @Test
    void weightedMeanIsPerRoundOverEveryCommandAndTheRatiosCarryTheirLimits() throws IOException {
        List<Path> files = new ArrayList<>();
        for (int r = 1; r <= 2; r++) {
            // ours: 100 ns on every command but getMore (1000 ns); the framing floor 50 ns everywhere; clone 80 ns, round 2 +20
            files.add(round(r, "OursSpecOnly", "OursSpecOnlyBenchmark.mix", null, 100, 1000));
            files.add(round(r, "FloorFramingCopy", "mix.FloorFramingCopyBenchmark.mix", null, 50, 50));
            files.add(round(r, "Clone", "CloneBenchmark.mix", null, 60 + 20 * r, 60 + 20 * r));
        }
        List<Rounds.Subject> subjects = Rounds.load(files);
        String md = Mix.markdown(subjects, Mix.WEIGHTS);
        // weights 35, 25, 15, 10, 5, 10: the weighted mean of ours is 0.9 * 100 + 0.1 * 1000 = 190
        String ours = line(md, "| OursSpecOnly.mix |");
        assertTrue(ours.endsWith("| 1.00µ | 190.0n |"), ours);
        String framing = line(md, "| OursSpecOnly.mix / FloorFramingCopy.mix |");
        assertTrue(framing.contains("| <= 1.20x | 2.00x [2.00x-2.00x] MISSED |"), framing);
        assertTrue(framing.endsWith("| 20.00x [20.00x-20.00x] MISSED | 3.80x [3.80x-3.80x] MISSED |"), framing);
        String clone = line(md, "| OursSpecOnly.mix / Clone.mix |");
        // one buffer (findById) 2.00x allowed, plain (updateOne) 1.00x; the weighted mean is shown, not judged
        assertTrue(clone.contains("| 1.11x [1.00x-1.25x] met | 1.11x [1.00x-1.25x] met | 1.11x [1.00x-1.25x] MISSED |"), clone);
        assertTrue(clone.endsWith("| 2.11x [1.90x-2.38x] |"), clone);
        assertTrue(line(md, "| MicrometerSink.mixPair / MicrometerListener.mixPair |").contains("n/a"), md);
        assertTrue(md.contains("Weights: findById 35, findIndexed 25, updateOne 15, insertOne 10, aggregate 5, getMore 10."), md);

        JsonNode json = ResultFiles.MAPPER.readTree(ResultFiles.json(Mix.json(subjects, Mix.WEIGHTS), 3));
        JsonNode mean = json.get("subjects").get(0).get("weighted mean").get("nsPerOp");
        assertEquals(190.0, mean.get("median").asDouble(), 1e-9);
        JsonNode cloneRatio = json.get("ratios").get(1);
        assertEquals(2.0, cloneRatio.get("findById").get("limit").asDouble(), 1e-9);
        assertEquals(1.0, cloneRatio.get("insertOne").get("limit").asDouble(), 1e-9);
        assertTrue(cloneRatio.get("weighted mean").path("limit").isMissingNode());
    }

    @Test
    void weightsNameEveryCommandOfTheMix() {
        assertEquals(Map.of("findById", 1.0, "findIndexed", 1.0, "updateOne", 1.0, "insertOne", 1.0, "aggregate", 1.0,
                "getMore", 2.0), Mix.weights("findById=1,findIndexed=1,updateOne=1,insertOne=1,aggregate=1,getMore=2"));
        assertThrows(IllegalArgumentException.class, () -> Mix.weights("findById=1"));
        assertThrows(IllegalArgumentException.class, () -> Mix.weights("count=1"));
    }

    /** One subject's round file with every command: {@code ns} on each, {@code getMore} on getMore. */
    private Path round(final int round, final String name, final String benchmark, final String extra, final double ns,
                       final double getMore) throws IOException {
        List<String> results = new ArrayList<>();
        for (String command : Mix.COMMANDS) {
            double v = command.equals("getMore") ? getMore : ns;
            results.add("{\"benchmark\": \"io.github.mongoredact.jmh." + benchmark + "\", \"mode\": \"avgt\", "
                    + "\"params\": {\"command\": \"" + command + "\"" + (extra == null ? "" : ", " + extra) + "}, "
                    + "\"primaryMetric\": {\"score\": " + v + ", \"scoreError\": 0.0, \"scoreUnit\": \"ns/op\", \"rawData\": [["
                    + v + "]]}, \"secondaryMetrics\": {\"gc.alloc.rate.norm\": {\"score\": 100, \"rawData\": [[100]]}}}");
        }
        Path file = dir.resolve("round-" + round + "-" + name + ".json");
        Files.write(file, ("[" + String.join(",\n", results) + "]").getBytes(StandardCharsets.UTF_8));
        return file;
    }

    static String line(final String text, final String containing) {
        for (String line : text.split("\n")) {
            if (line.contains(containing)) {
                return line;
            }
        }
        throw new AssertionError("no line with " + containing + " in\n" + text);
    }
}
