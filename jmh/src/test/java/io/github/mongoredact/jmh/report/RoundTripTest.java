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

import static io.github.mongoredact.jmh.report.MixTest.line;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoundTripTest {
    @TempDir
    Path dir;

    @Test
    void overheadIsPerRoundAgainstNoListenerAndTheTargetIsJudgedOnTheListenersOwnTime() throws IOException {
        List<Path> files = new ArrayList<>();
        // findById: no listener 100 µs, then 110 µs; ours +1 µs (0.5 µs inside), Micrometer +2 µs (1 µs), OTel +10 µs (8 µs)
        for (int r = 1; r <= 2; r++) {
            double base = 90_000 + 10_000 * r;
            files.add(round(r, "NoListener", base, 40_000, 0, 0));
            files.add(round(r, "Ours", base + 1_000, 40_500, 500, 1000));
            files.add(round(r, "MicrometerListener", base + 2_000, 41_000, 1_000, 1000));
            files.add(round(r, "OpenTelemetry", base + 10_000, 48_000, 8_000, 1000));
        }
        Map<String, Map<Integer, RoundTrip.Figures>> figures = RoundTrip.load(files);
        String md = RoundTrip.markdown(figures);
        String ours = line(md, "| findById | Ours |");
        assertTrue(ours.contains("| 106.00µ [101.00µ-111.00µ] | 9,434 | 40,500 | +1.00µ | 0.95 % [0.91 %-1.00 %] | +500 |"), ours);
        assertTrue(ours.endsWith("| 500.0n | 0.47 % [0.45 %-0.50 %] |"), ours);
        String verdict = line(md, "| findById | in the listener: ns/op, share |");
        assertTrue(verdict.endsWith("| met |"), verdict);
        assertTrue(verdict.contains("| 500.0n, 0.47 % (overhead 0.95 %) | 1.00µ, 0.94 % (overhead 1.91 %) |"), verdict);
        assertTrue(!md.contains("| insertOne | in the listener"), "an operation not measured has no verdict: " + md);

        JsonNode json = ResultFiles.MAPPER.readTree(ResultFiles.json(RoundTrip.json(figures), 3));
        JsonNode otel = json.get("results").get(3);
        assertEquals("OpenTelemetry", otel.get("subject").asText());
        assertEquals(10_000, otel.get("overheadNsPerOp").get("median").asDouble(), 1e-9);
        assertEquals(8_000, otel.get("overheadBytesPerOp").get("median").asDouble(), 1e-9);
        assertEquals(2, otel.get("rounds").size());
    }

    @Test
    void oursOverTwoPercentOrAboveAPeerIsMissed() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(round(1, "NoListener", 100_000, 40_000, 0, 0));
        files.add(round(1, "Ours", 104_000, 40_500, 3_000, 1000));
        files.add(round(1, "MicrometerListener", 102_000, 41_000, 1_000, 1000));
        String verdict = line(RoundTrip.markdown(RoundTrip.load(files)), "| findById | in the listener: ns/op, share |");
        assertTrue(verdict.endsWith("| MISSED (over 2 %) (not the smallest) |"), verdict);
        // the same subject twice in one round is refused
        Files.copy(files.get(1), dir.resolve("round-1-Ours2.json"));
        files.add(dir.resolve("round-1-Ours2.json"));
        assertThrows(IllegalArgumentException.class, () -> RoundTrip.load(files));
    }

    @Test
    void theVirtualThreadOperationsAreOperationsOfTheirOwnAgainstNoListenerOnVirtualThreads() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(round(1, "NoListener", 100_000, 40_000, 0, 0, "findById"));
        files.add(round(1, "Ours", 101_000, 41_000, 500, 1000, "findById"));
        files.add(round(1, "NoListener2", 120_000, 45_000, 0, 0, "findByIdOnVirtualThread"));
        files.add(round(1, "Ours2", 130_000, 140_000, 6_000, 1000, "findByIdOnVirtualThread"));
        String md = RoundTrip.markdown(RoundTrip.load(files));
        String ours = line(md, "| findByIdOnVirtualThread | Ours |");
        assertTrue(ours.contains("| +10.00µ | 8.33 % | +95,000 |"), ours);
        assertTrue(line(md, "| findById | Ours |").contains("| +1.00µ | 1.00 % | +1,000 |"), md);
        String verdict = line(md, "| findByIdOnVirtualThread | in the listener: ns/op, share |");
        assertTrue(verdict.endsWith("| MISSED (over 2 %) |"), verdict);
        assertTrue(md.indexOf("| findById | Ours |") < md.indexOf("| findByIdOnVirtualThread | NoListener |"), md);
    }

    /** One subject's round file with findById: ns/op, B/op, and the timed listener's counters. */
    private Path round(final int round, final String subject, final double ns, final double bytes, final double listenerNs,
                       final long operations) throws IOException {
        return round(round, subject, ns, bytes, listenerNs, operations, "findById");
    }

    /**
     * One round file with one operation of a subject; {@code file} names the file ({@code round-<r>-<file>.json}), and a
     * trailing digit in it is dropped from the subject, so that one subject can have two files in a round (two JMH runs).
     */
    private Path round(final int round, final String file, final double ns, final double bytes, final double listenerNs,
                       final long operations, final String operation) throws IOException {
        String subject = file.replaceAll("\\d$", "");
        String result = "{\"benchmark\": \"io.github.mongoredact.jmh.roundtrip." + subject + "Benchmark." + operation + "\", "
                + "\"mode\": \"avgt\", \"primaryMetric\": {\"score\": " + ns + ", \"scoreError\": 0.0, \"scoreUnit\": \"ns/op\", "
                + "\"rawData\": [[" + ns + "]]}, \"secondaryMetrics\": {\"gc.alloc.rate.norm\": {\"score\": " + bytes + "}, "
                + "\"listenerNanos\": {\"score\": " + listenerNs * operations + "}, \"operations\": {\"score\": " + operations
                + "}}}";
        Path path = dir.resolve("round-" + round + "-" + file + ".json");
        Files.write(path, ("[" + result + "]").getBytes(StandardCharsets.UTF_8));
        return path;
    }
}
