package io.github.mongoredact.jmh.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The project's targets and their checks, informational: no report fails on a target (CI asserts no timing).
 *
 * <ul>
 *     <li>{@link #check}: the per-event targets of issue 5, on the rows of one run ({@code Report --targets});</li>
 *     <li>{@link #ISSUE_11}, {@link #ISSUE_20} and {@link #ISSUE_31}: the ratios the interleaved runs of {@code run-targets.sh}
 *     judge ({@code Rounds report}), each a {@link Ratio} of two subjects at one size.</li>
 * </ul>
 */
final class Targets {
    /** The extra bytes allowed over the output size, per started event. */
    static final int OVERHEAD_BYTES = 128;
    static final int MAX_ALLOCS = 4;

    /** The sizes of issue 20: 1, 10, 100 and 1000 small documents, 1 and 100 documents of 1 KiB. */
    static final List<String[]> ISSUE_20_SIZES = List.of(new String[]{"1", "small"}, new String[]{"10", "small"},
            new String[]{"100", "small"}, new String[]{"1000", "small"}, new String[]{"1", "kib"}, new String[]{"100", "kib"});

    /** Issue 11's targets, at 1000 (and 1) small documents on the plain top level. */
    static final Set ISSUE_11 = new Set("Targets of issue 11", false, List.of(
            new Ratio("OursDefaults.started", "FloorOnePass.started", false, at("1000"), 1.5),
            new Ratio("OursDefaults.started", "CodecEncoding.started", false, at("1000"), 0.5),
            new Ratio("OursSpecOnly.started", "FloorFramingCopy.started", false, at("1000"), 1.2),
            new Ratio("OursSpecOnly.started", "Clone.started", true, at("1000"), 0.4),
            new Ratio("MicrometerSink.metricsPair", "MicrometerListener.metricsPair", false, at("1"), 1.0),
            new Ratio("MicrometerSink.metricsPair", "MicrometerListener.metricsPair", false, at("1000"), 1.0),
            new Ratio("MicrometerSink.metricsPair", "MicrometerListener.metricsPair", true, at("1"), 0.25),
            new Ratio("MicrometerSink.metricsPair", "MicrometerListener.metricsPair", true, at("1000"), 0.25)));

    /**
     * Issue 20's targets, at every size of {@link #ISSUE_20_SIZES} on the plain top level (as the driver hands over an
     * insert), and {@code specOnly()} against {@code clone()} also where the command is held as one buffer
     * ({@code shape=bytebuf}, where {@code clone()} is a plain byte copy); then, shown and not judged, ours against the floors
     * with what the event API forces (the fixed part per event), and those floors against each target's denominator (the
     * lowest ratio a listener that hands on an owned copy can reach there); then issue 11's B/op targets, which issue 20
     * keeps.
     */
    static final Set ISSUE_20 = new Set("Targets of issue 20", true, issue20());

    /**
     * Issue 31's targets, at every size of {@link #ISSUE_20_SIZES} on the plain top level: ours against the floors with what the
     * driver's event API forces ({@code FloorForwarded}: the bare floor's array in the owned {@code RawBsonDocument} and a new
     * event forwarded), the metrics pair against Micrometer's listener; then issue 11's B/op targets.
     */
    static final Set ISSUE_31 = new Set("Targets of issue 31", true, issue31());

    private Targets() {
    }

    private static List<Ratio> issue31() {
        String[][] judged = {
                {"OursDefaults.started", "FloorForwarded.started floor=onePass", "plain", "1.5"},
                {"OursSpecOnly.started", "FloorForwarded.started floor=framingCopy", "plain", "1.2"},
                {"MicrometerSink.metricsPair", "MicrometerListener.metricsPair", null, "1.0"},
        };
        return atEverySize(judged);
    }

    private static List<Ratio> issue20() {
        String[][] judged = {
                {"OursDefaults.started", "FloorOnePass.started", "plain", "1.5"},
                {"OursDefaults.started", "CodecEncoding.started", "plain", "0.5"},
                {"OursSpecOnly.started", "FloorFramingCopy.started", "plain", "1.2"},
                {"OursSpecOnly.started", "Clone.started", "plain", "1.0"},
                {"OursSpecOnly.started", "Clone.started", "bytebuf", "2.0"},
                {"MicrometerSink.metricsPair", "MicrometerListener.metricsPair", null, "1.0"},
                {"OursDefaults.started", "FloorForwarded.started floor=onePass", "plain", "NaN"},
                {"OursSpecOnly.started", "FloorForwarded.started floor=framingCopy", "plain", "NaN"},
                // where a target lies against the floor with the forced objects: a listener that hands on an owned copy at
                // all reaches no lower ratio than these (minus what its own copy costs beyond the prototype's)
                {"FloorForwarded.started floor=onePass", "FloorOnePass.started", "plain", "NaN"},
                {"FloorForwarded.started floor=onePass", "CodecEncoding.started", "plain", "NaN"},
                {"FloorForwarded.started floor=framingCopy", "FloorFramingCopy.started", "plain", "NaN"},
                {"FloorForwarded.started floor=framingCopy", "Clone.started", "plain", "NaN"},
        };
        return atEverySize(judged);
    }

    /**
     * @param judged per target: numerator, denominator, shape (null: any), limit (NaN: shown)
     * @return each target at every size of {@link #ISSUE_20_SIZES}, then issue 11's B/op targets
     */
    private static List<Ratio> atEverySize(final String[][] judged) {
        List<Ratio> list = new ArrayList<>();
        for (String[] t : judged) {
            for (String[] size : ISSUE_20_SIZES) {
                Map<String, String> at = new LinkedHashMap<>();
                at.put("count", size[0]);
                at.put("docSize", size[1]);
                if (t[2] != null) {
                    at.put("shape", t[2]);
                }
                list.add(new Ratio(t[0], t[1], false, at, Double.parseDouble(t[3])));
            }
        }
        for (Ratio kept : ISSUE_11.ratios) {
            if (kept.bytes) {
                list.add(kept);
            }
        }
        return list;
    }

    private static Map<String, String> at(final String count) {
        Map<String, String> at = new LinkedHashMap<>();
        at.put("count", count);
        return at;
    }

    /**
     * A target: {@code numerator / denominator} of ns/op or B/op, both measured at the parameters {@code at}, at most
     * {@code limit}; a NaN limit shows the ratio without judging it. A side names {@code Subject.method}, then the parameters
     * that pick one of its variants ({@code FloorForwarded.started floor=onePass}). Where {@code at} names no
     * {@code docSize} or {@code shape}, the subjects' must be {@code small} and {@code plain} (or absent).
     */
    static final class Ratio {
        final String numerator;
        final String denominator;
        final boolean bytes;
        final Map<String, String> at;
        final double limit;

        Ratio(final String numerator, final String denominator, final boolean bytes, final Map<String, String> at,
              final double limit) {
            this.numerator = numerator;
            this.denominator = denominator;
            this.bytes = bytes;
            this.at = at;
            this.limit = limit;
        }

        String count() {
            return at.get("count");
        }

        /** @return where it is measured, as the table says it: the count, then the document size and the shape if named */
        String size() {
            StringBuilder sb = new StringBuilder(count());
            if (at.containsKey("docSize")) {
                sb.append(' ').append(at.get("docSize"));
            }
            if ("bytebuf".equals(at.get("shape"))) {
                sb.append(", one buffer");
            }
            return sb.toString();
        }

        /** @return the rule, such as {@code ns/op <= 1.50x}, or {@code ns/op (shown)} */
        String rule() {
            return (bytes ? "B/op" : "ns/op") + (Double.isNaN(limit) ? " (shown)"
                    : " <= " + String.format(Locale.ROOT, "%.2fx", limit));
        }
    }

    /** A list of targets with the title of its table; {@code sizes}: whether its table names the document size. */
    static final class Set {
        final String title;
        final boolean sizes;
        final List<Ratio> ratios;

        Set(final String title, final boolean sizes, final List<Ratio> ratios) {
            this.title = title;
            this.sizes = sizes;
            this.ratios = ratios;
        }
    }

    static String check(final List<Report.Row> rows, final boolean markdown) {
        List<String[]> lines = new ArrayList<>();
        // 1. ours, started event, every size and both shapes: allocs/op <= 4 and B/op <= output + 128
        for (Report.Row r : rows) {
            if ((r.subject.equals("OursSpecOnly") || r.subject.equals("OursDefaults")) && r.method.equals("started")) {
                String name = r.subject + ".started " + Report.paramsText(r.params);
                if (!Double.isNaN(r.allocs)) {
                    lines.add(line(name, "allocs/op <= " + MAX_ALLOCS, r.allocs <= MAX_ALLOCS + 0.05,
                            Report.allocs(r.allocs)));
                }
                if (r.outputBytes >= 0 && !Double.isNaN(r.bytes)) {
                    double limit = r.outputBytes + OVERHEAD_BYTES;
                    lines.add(line(name, "B/op <= output + " + OVERHEAD_BYTES, r.bytes <= limit,
                            String.format(Locale.ROOT, "%.0f B/op = output %d B + %.0f (counted by the agent: + %.0f)",
                                    r.bytes, r.outputBytes, r.bytes - r.outputBytes, r.countedBytes - r.outputBytes)));
                }
            }
        }
        // 2. at 1000 small documents, driver-shaped (plain) input
        String at = "count=1000 docSize=small shape=plain";
        Report.Row spec = find(rows, "OursSpecOnly", "started", "1000", "small", "plain");
        Report.Row defaults = find(rows, "OursDefaults", "started", "1000", "small", "plain");
        Report.Row clone = find(rows, "Clone", "started", "1000", "small", "plain");
        Report.Row json = find(rows, "ToJson", "started", "1000", "small", "plain");
        Report.Row pair = find(rows, "OursDefaults", "startedSucceeded", "1000", null, "plain");
        Report.Row otel = find(rows, "OpenTelemetry", "startedSucceeded", "1000", null, "plain");
        ratioLine(lines, "OursSpecOnly vs Clone, started " + at, "B/op <= 0.7x", spec, clone, true, 0.7);
        ratioLine(lines, "OursSpecOnly vs Clone, started " + at, "ns/op <= 1.0x", spec, clone, false, 1.0);
        ratioLine(lines, "OursDefaults vs ToJson, started " + at, "B/op <= 0.2x", defaults, json, true, 0.2);
        ratioLine(lines, "OursDefaults vs OpenTelemetry, started+succeeded count=1000 shape=plain", "B/op <= 0.2x", pair, otel,
                true, 0.2);
        ratioLine(lines, "OursDefaults vs OpenTelemetry, started+succeeded count=1000 shape=plain", "ns/op <= 0.5x", pair, otel,
                false, 0.5);
        // 3. metrics path
        for (Report.Row r : rows) {
            if (r.subject.equals("MicrometerSink") && r.method.equals("metricsPair")) {
                Report.Row micrometer = find(rows, "MicrometerListener", "metricsPair", r.params.get("count"), null, null);
                ratioLine(lines, "MicrometerSink vs MicrometerListener, pair " + Report.paramsText(r.params), "B/op <= 0.1x", r,
                        micrometer, true, 0.1);
            }
        }
        String[] header = {"target", "rule", "result", "figures"};
        return (markdown ? "#### Targets\n\n" : "targets\n") + Report.format(header, lines, markdown);
    }

    private static void ratioLine(final List<String[]> lines, final String name, final String rule, final Report.Row ours,
                                  final Report.Row theirs, final boolean bytes, final double limit) {
        if (ours == null || theirs == null) {
            lines.add(new String[]{name, rule, "n/a", "not measured in this run"});
            return;
        }
        double a = bytes ? ours.bytes : ours.ns;
        double b = bytes ? theirs.bytes : theirs.ns;
        double ratio = a / b;
        String figures = bytes ? String.format(Locale.ROOT, "%s vs %s B/op = %.3fx", Report.bytes(a), Report.bytes(b), ratio)
                : String.format(Locale.ROOT, "%s vs %s ns/op = %.3fx", Report.time(a), Report.time(b), ratio);
        if (ratio > limit) {
            figures += String.format(Locale.ROOT, " (missed by %.1f%%)", (ratio / limit - 1) * 100);
        }
        lines.add(line(name, rule, ratio <= limit, figures));
    }

    private static String[] line(final String name, final String rule, final boolean met, final String figures) {
        return new String[]{name, rule, met ? "met" : "MISSED", figures};
    }

    static Report.Row find(final List<Report.Row> rows, final String subject, final String method, final String count,
                           final String docSize, final String shape) {
        for (Report.Row r : rows) {
            Map<String, String> p = r.params;
            if (r.subject.equals(subject) && r.method.equals(method) && (count == null || count.equals(p.get("count")))
                    && (docSize == null || docSize.equals(p.get("docSize")))
                    && (shape == null || shape.equals(p.get("shape")))) {
                return r;
            }
        }
        return null;
    }
}
