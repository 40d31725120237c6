package io.github.mongoredact.jmh.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportTest {
    @TempDir
    Path dir;

    private Path jmh(final String name, final double clone, final double ours, final double oursBytes) throws IOException {
        String json = "[" + result("io.x.CloneBenchmark.started", clone, 1000) + ","
                + result("io.x.OursSpecOnlyBenchmark.started", ours, oursBytes) + "]";
        Path file = dir.resolve(name);
        Files.write(file, json.getBytes(StandardCharsets.UTF_8));
        return file;
    }

    private static String result(final String benchmark, final double ns, final double bytes) {
        return "{\"benchmark\": \"" + benchmark + "\", \"mode\": \"avgt\", \"params\": {\"count\": \"1000\", "
                + "\"docSize\": \"small\", \"shape\": \"plain\"}, \"primaryMetric\": {\"score\": " + ns + ", \"scoreError\": "
                + ns / 10 + ", \"scoreUnit\": \"us/op\", \"rawData\": [[" + ns + "," + (ns * 1.01) + "," + (ns * 0.99) + ","
                + (ns * 1.02) + "," + (ns * 0.98) + "]]}, \"secondaryMetrics\": {\"gc.alloc.rate.norm\": {\"score\": " + bytes
                + ", \"rawData\": [[" + bytes + "," + bytes + "," + bytes + "," + (bytes + 1) + "," + bytes + "]]}}}";
    }

    @Test
    void tableHasRatiosToTheBaselineInNanoseconds() throws IOException {
        List<Report.Row> rows = Report.load(jmh("a.json", 20, 40, 500), null);
        assertEquals(40_000.0, rows.get(0).ns, 1e-9); // us/op converted; ours sorted before the baseline
        assertEquals("OursSpecOnly", rows.get(0).subject);
        String table = Report.table(rows, Collections.emptyMap(), false);
        assertTrue(table.contains("ns vs Clone"), table);
        assertTrue(table.contains("2.00x") && table.contains("0.50x"), table);
    }

    @Test
    void compareMarksSignificantChangesAndTildesTheRest() throws IOException {
        List<Report.Row> before = Report.load(jmh("before.json", 20, 40, 500), null);
        List<Report.Row> after = Report.load(jmh("after.json", 20, 20, 500), null);
        String out = Report.compare(before, after, 0.05, false);
        String ours = line(out, "OursSpecOnly.started");
        assertTrue(ours.contains("-50.00% (p=0.008 n=5+5)"), ours);
        assertTrue(ours.contains("~ (p="), ours); // B/op identical
        String clone = line(out, "Clone.started");
        assertTrue(clone.contains("~ (p=1.000 n=5+5)"), clone);
    }

    @Test
    void targetsNameTheMiss() throws IOException {
        List<Report.Row> rows = Report.load(jmh("t.json", 20, 40, 500), null);
        String targets = Targets.check(rows, false);
        assertTrue(line(targets, "ns/op <= 1.0x").contains("MISSED") && targets.contains("missed by 100.0%"), targets);
        assertTrue(line(targets, "B/op <= 0.7x").contains("met"), targets);
    }

    @Test
    void chartHasALinePerSubjectInItsColor() throws IOException {
        String json = "[" + result("io.x.CloneBenchmark.started", 20, 1000).replace("1000", "1") + ","
                + result("io.x.CloneBenchmark.started", 20, 100_000) + ","
                + result("io.x.OursSpecOnlyBenchmark.started", 40, 300).replace("1000", "1") + ","
                + result("io.x.OursSpecOnlyBenchmark.started", 40, 50_000) + "]";
        Path file = dir.resolve("c.json");
        Files.write(file, json.getBytes(StandardCharsets.UTF_8));
        Map<String, String> charts = Chart.charts(Report.load(file, null));
        assertEquals(List.of("started"), List.copyOf(charts.keySet()));
        String svg = charts.get("started");
        assertTrue(svg.contains("<svg") && svg.contains(">started: B/op by count (log scale)<")
                && svg.contains(">docSize=small shape=plain<") && svg.contains(">OursSpecOnly<") && svg.contains(">Clone<"), svg);
        // one segment from count 1 to count 1000 per subject, in the subject's color
        assertEquals(1, count(svg, "<line[^>]*stroke:rgb\\(31,119,180\\)"), svg); // OursSpecOnly
        assertEquals(1, count(svg, "<line[^>]*stroke:rgb\\(127,127,127\\)"), svg); // Clone
        assertEquals(svg, Chart.charts(Report.load(file, null)).get("started"), "the same SVG for the same figures");
    }

    @Test
    void completeMeansAllocsOnlyWhereTheyWereCounted() throws IOException {
        // one result with ns/op and B/op, one (a virtual-thread case) without allocs/op, one with no B/op
        String json = "[" + result("io.x.threads.OursDefaultsBenchmark.pairOnPlatformThread", 1, 500) + ","
                + result("io.x.threads.OursDefaultsBenchmark.pairOnVirtualThread", 2, 98_000) + ","
                + result("io.x.threads.NoListenerBenchmark.pairOnPlatformThread", 1, 0)
                        .replaceAll(", \"secondaryMetrics.*", "}")
                + "]";
        Path file = dir.resolve("v.json");
        Files.write(file, json.getBytes(StandardCharsets.UTF_8));
        Path allocs = dir.resolve("allocs.json");
        Files.write(allocs, ("[{\"benchmark\": \"io.x.threads.OursDefaultsBenchmark.pairOnPlatformThread\", \"params\": "
                + "{\"count\": \"1000\", \"docSize\": \"small\", \"shape\": \"plain\"}, \"allocsPerOp\": 6.0}]")
                .getBytes(StandardCharsets.UTF_8));
        List<String> without = Report.incomplete(Report.load(file, null), false);
        assertEquals(1, without.size(), without.toString());
        assertTrue(without.get(0).contains("NoListenerBenchmark.pairOnPlatformThread") && without.get(0).contains("B/op=NaN"),
                without.toString());
        List<String> with = Report.incomplete(Report.load(file, allocs), true);
        assertEquals(2, with.size(), with.toString());
        assertTrue(with.toString().contains("pairOnVirtualThread {count=1000, docSize=small, shape=plain} ns/op=2000.0"
                + " B/op=98000.0 allocs/op=NaN"), with.toString());
    }

    private static long count(final String text, final String regex) {
        return java.util.regex.Pattern.compile(regex).matcher(text).results().count();
    }

    private static String line(final String text, final String containing) {
        for (String line : text.split("\n")) {
            if (line.contains(containing)) {
                return line;
            }
        }
        throw new AssertionError("no line with " + containing + " in\n" + text);
    }
}
