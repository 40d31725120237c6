package io.github.mongoredact.jmh.report;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoundsTest {
    private static final String PLAIN = "\"count\": \"1000\", \"docSize\": \"small\", \"shape\": \"plain\"";

    @TempDir
    Path dir;

    @Test
    void medianOfAnOddCountIsTheMiddleValue() {
        Spread s = Spread.of(new double[]{5, 1, 3});
        assertArrayEquals(new double[]{3, 1, 5, 3}, new double[]{s.median, s.min, s.max, s.n});
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwoAndNaNIsLeftOut() {
        Spread s = Spread.of(new double[]{260, Double.NaN, 350, 250, 270});
        assertArrayEquals(new double[]{265, 250, 350, 4}, new double[]{s.median, s.min, s.max, s.n});
        assertEquals("265 [250-350]", s.text(v -> String.format("%.0f", v)));
        assertEquals(0, Spread.of(new double[]{Double.NaN}).n);
        assertEquals("?", Spread.of(new double[0]).text(String::valueOf));
    }

    @Test
    void orderIsAFixedShufflePerRoundThatDiffersBetweenRounds() {
        List<String> names = Arrays.asList("A", "B", "C", "D", "E", "F", "G", "H");
        assertEquals(Rounds.order(names, 11, 1), Rounds.order(names, 11, 1));
        assertEquals(new HashSet<>(names), new HashSet<>(Rounds.order(names, 11, 2)));
        assertNotEquals(Rounds.order(names, 11, 1), Rounds.order(names, 11, 2));
        assertNotEquals(Rounds.order(names, 11, 1), Rounds.order(names, 12, 1));
    }

    @Test
    void targetRatioIsTheRatioOfTheMediansWithThePerRoundSpread() throws IOException {
        List<Rounds.Subject> subjects = Rounds.load(fourRounds());
        Targets.Ratio defaultsVsFloor = Targets.ISSUE_11.ratios.get(0);
        double[] r = Rounds.ratio(subjects, defaultsVsFloor);
        assertEquals(265.0 / 61.0, r[0], 1e-9);
        assertEquals(250.0 / 62.0, r[1], 1e-9);
        assertEquals(350.0 / 70.0, r[2], 1e-9);
        assertEquals(4, r[3]);
        assertNull(Rounds.ratio(subjects, Targets.ISSUE_11.ratios.get(1)), "the driver's encoding was not measured");
    }

    @Test
    void issue31JudgesOursAgainstTheForwardedFloorsAtEverySize() {
        List<Targets.Ratio> ratios = Targets.ISSUE_31.ratios;
        // three judged targets at the six sizes, then issue 11's three B/op targets
        assertEquals(3 * Targets.ISSUE_20_SIZES.size() + 3, ratios.size());
        Targets.Ratio first = ratios.get(0);
        assertEquals("OursDefaults.started", first.numerator);
        assertEquals("FloorForwarded.started floor=onePass", first.denominator);
        assertEquals(1.5, first.limit);
        assertEquals("1 small", first.size());
        Targets.Ratio specOnly = ratios.get(Targets.ISSUE_20_SIZES.size());
        assertEquals("FloorForwarded.started floor=framingCopy", specOnly.denominator);
        assertEquals(1.2, specOnly.limit);
        Targets.Ratio metrics = ratios.get(2 * Targets.ISSUE_20_SIZES.size() + 5);
        assertEquals("100 kib", metrics.size());
        assertEquals("ns/op <= 1.00x", metrics.rule());
        assertTrue(ratios.get(ratios.size() - 1).bytes);
    }

    @Test
    void markdownListsMediansWithSpreadAndJudgesTheTargets() throws IOException {
        String md = Rounds.markdown(Rounds.load(fourRounds()), Targets.ISSUE_11);
        assertTrue(md.contains("median over 4 rounds"), md);
        String ours = line(md, "| OursDefaults | started |");
        assertTrue(ours.contains("265.00µ [250.00µ-350.00µ]") && ours.contains("82,116 [82,100-82,120]"), ours);
        String floor = line(md, "| OursDefaults.started / FloorOnePass.started |");
        assertTrue(floor.contains("4.34x") && floor.contains("[4.03x-5.00x]") && floor.endsWith("MISSED |"), floor);
        assertTrue(line(md, "| OursDefaults.started / CodecEncoding.started |").endsWith("not measured |"), md);
        // the floor sorts before ours, as in the issue's table
        assertTrue(md.indexOf("| FloorOnePass | started |") < md.indexOf("| OursDefaults | started |"), md);
    }

    @Test
    void jsonCarriesEveryRoundAndTheTargets() throws IOException {
        String text = ResultFiles.json(Rounds.json(Rounds.load(fourRounds()), Targets.ISSUE_11), 2);
        JsonNode json = ResultFiles.MAPPER.readTree(text);
        JsonNode subjects = json.get("subjects");
        assertEquals(2, subjects.size());
        assertEquals("FloorOnePass", subjects.get(0).get("subject").asText());
        // one subject a line; ns, from ms/op, to 4 decimals
        assertTrue(line(text, "\"FloorOnePass\"").contains("\"nsPerOp\": { \"median\": 61000.0000, \"min\": 58000.0000, "
                + "\"max\": 70000.0000, \"values\": [ 60000.0000, 62000.0000, 70000.0000, 58000.0000 ] }"), text);
        JsonNode target = json.get("targets").get(0);
        assertFalse(target.get("met").asBoolean());
        assertEquals(1.5, target.get("limit").asDouble(), 1e-9);
        assertEquals(1000, target.get("count").asInt());
        assertTrue(json.get("targets").get(1).path("ratio").isMissingNode(), "the driver's encoding was not measured");
    }

    @Test
    void aRoundWithTwoResultsForOneSubjectIsRefused() throws IOException {
        List<Path> files = fourRounds();
        files.add(write("round-1-again.json", result("OursDefaultsBenchmark.started", 1, 1)));
        assertThrows(IllegalArgumentException.class, () -> Rounds.load(files));
    }

    @Test
    void mergeMakesOneResultFileOfMany() throws IOException {
        List<Path> files = fourRounds();
        Path empty = dir.resolve("empty.json");
        Files.write(empty, "[ ]".getBytes(StandardCharsets.UTF_8));
        files.add(1, empty);
        Path file = dir.resolve("merged.json");
        ResultFiles.write(file, Rounds.merge(files), 1);
        JsonNode merged = ResultFiles.MAPPER.readTree(file.toFile());
        assertEquals(8, merged.size());
        assertEquals("io.x.FloorOnePassBenchmark.started", merged.get(1).get("benchmark").asText());
        assertEquals(8, Report.load(file, null).size());
        Path notAnArray = write("round-9-x.json", result("OursDefaultsBenchmark.started", 1, 1));
        Files.write(notAnArray, "{}".getBytes(StandardCharsets.UTF_8));
        assertThrows(IllegalArgumentException.class, () -> Rounds.merge(List.of(notAnArray)));
    }

    @Test
    void issue20JudgesEverySizeEveryShapeItNamesAndShowsTheForwardedFloors() throws IOException {
        assertEquals(12 * Targets.ISSUE_20_SIZES.size() + 3, Targets.ISSUE_20.ratios.size());
        List<Path> files = new ArrayList<>();
        for (int r = 1; r <= 2; r++) {
            String kibOneBuffer = "\"count\": \"100\", \"docSize\": \"kib\", \"shape\": \"bytebuf\"";
            String kibPlain = "\"count\": \"100\", \"docSize\": \"kib\", \"shape\": \"plain\"";
            files.add(write("round-" + r + "-OursSpecOnly-kib-bytebuf.json",
                    result("OursSpecOnlyBenchmark.started", kibOneBuffer, 30 + r, 103_000)));
            files.add(write("round-" + r + "-Clone-kib-bytebuf.json",
                    result("CloneBenchmark.started", kibOneBuffer, 10, 103_000)));
            files.add(write("round-" + r + "-OursSpecOnly-kib.json",
                    result("OursSpecOnlyBenchmark.started", kibPlain, 50, 103_000)));
            files.add(write("round-" + r + "-Clone-kib.json", result("CloneBenchmark.started", kibPlain, 100, 113_000)));
            String framing = "\"floor\": \"framingCopy\", " + kibPlain;
            String onePass = "\"floor\": \"onePass\", " + kibPlain;
            files.add(write("round-" + r + "-FloorForwarded-kib.json", result("FloorForwardedBenchmark.started", framing, 40,
                    103_000) + ", " + result("FloorForwardedBenchmark.started", onePass, 400, 80_000)));
        }
        List<Rounds.Subject> subjects = Rounds.load(files);
        String md = Rounds.markdown(subjects, Targets.ISSUE_20);
        String oneBuffer = line(md, "| OursSpecOnly.started / Clone.started | 100 kib, one buffer |");
        assertTrue(oneBuffer.contains("| ns/op <= 2.00x | 3.15x | [3.10x-3.20x] | MISSED |"), oneBuffer);
        String plain = line(md, "| OursSpecOnly.started / Clone.started | 100 kib |");
        assertTrue(plain.contains("| ns/op <= 1.00x | 0.50x | [0.50x-0.50x] | met |"), plain);
        String shown = line(md, "| OursSpecOnly.started / FloorForwarded.started floor=framingCopy | 100 kib |");
        assertTrue(shown.contains("| ns/op (shown) | 1.25x | [1.25x-1.25x] | shown |"), shown);
        // where the target lies against the floor with the forced objects: that floor over the target's denominator
        String floor = line(md, "| FloorForwarded.started floor=framingCopy / Clone.started | 100 kib |");
        assertTrue(floor.contains("| ns/op (shown) | 0.40x | [0.40x-0.40x] | shown |"), floor);
        assertTrue(line(md, "| OursSpecOnly.started / Clone.started | 1 small |").endsWith("| not measured |"), md);
        assertTrue(md.contains("#### Targets of issue 20: ratio"), md);
        JsonNode json = ResultFiles.MAPPER.readTree(ResultFiles.json(Rounds.json(subjects, Targets.ISSUE_20), 2));
        for (JsonNode t : json.get("targets")) {
            if (t.get("denominator").asText().equals("FloorForwarded.started floor=framingCopy")
                    && t.get("docSize").asText().equals("kib") && t.get("count").asInt() == 100) {
                assertTrue(t.path("limit").isMissingNode() && t.path("met").isMissingNode(), t.toString());
                assertEquals(1.25, t.get("ratio").asDouble(), 1e-9);
                return;
            }
        }
        throw new AssertionError("no shown target in " + json);
    }

    private List<Path> fourRounds() throws IOException {
        double[] ours = {260, 250, 350, 270};
        double[] oursBytes = {82_116, 82_100, 82_120, 82_116};
        double[] floor = {60, 62, 70, 58};
        List<Path> files = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            files.add(write("round-" + (r + 1) + "-OursDefaults.json",
                    result("OursDefaultsBenchmark.started", ours[r], oursBytes[r])));
            files.add(write("round-" + (r + 1) + "-FloorOnePass.json",
                    result("FloorOnePassBenchmark.started", floor[r], 81_977)));
        }
        return files;
    }

    private Path write(final String name, final String result) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, ("[" + result + "]").getBytes(StandardCharsets.UTF_8));
        return file;
    }

    private static String result(final String benchmark, final double us, final double bytes) {
        return result(benchmark, PLAIN, us, bytes);
    }

    private static String result(final String benchmark, final String params, final double us, final double bytes) {
        return "{\"benchmark\": \"io.x." + benchmark + "\", \"mode\": \"avgt\", \"params\": {" + params + "}, "
                + "\"primaryMetric\": {\"score\": " + us / 1000 + ", \"scoreError\": 0.0, \"scoreUnit\": \"ms/op\", "
                + "\"rawData\": [[" + us / 1000 + "]]}, \"secondaryMetrics\": {\"gc.alloc.rate.norm\": {\"score\": " + bytes
                + ", \"rawData\": [[" + bytes + "]]}}}";
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
