package io.github.mongoredact.jmh.report.legacy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Checks the figures against the project's targets and says, for each, whether it is met and by how much. Informational: the
 * report never fails on a target (CI asserts no timing).
 */
final class Targets {
    /** The extra bytes allowed over the output size, per started event. */
    static final int OVERHEAD_BYTES = 128;
    static final int MAX_ALLOCS = 4;

    private Targets() {
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
