package io.github.mongoredact.jmh.report;

import org.apache.commons.statistics.inference.MannWhitneyUTest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns JMH's JSON results (run with {@code -prof gc}) and the allocs/op file of {@code AllocationCount} into a benchstat-style
 * report: ns/op, B/op, allocs/op and the ratio to a baseline subject per benchmark and size; SVG charts of B/op against the
 * sequence size; a check of the targets; and a before/after comparison with a Mann-Whitney U test (Apache Commons
 * Statistics). {@code slim} keeps of a result file what these read, for a run kept in the repository.
 * {@code --require-complete} fails the report (exit 1) when a result lacks ns/op or B/op, or allocs/op where {@code --allocs}
 * was given (a run on virtual threads, whose allocs/op the agent does not count, is reported without it).
 *
 * <pre>
 * java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Report report results.json [--allocs allocs.json]
 *      [--svg-dir dir] [--markdown] [--targets] [--baseline method=Subject]... [--require-complete]
 * java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Report compare old.json new.json
 *      [--old-allocs a.json] [--new-allocs b.json] [--alpha 0.05]
 * java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Report slim results.json slim.json
 * </pre>
 */
public final class Report {
    /** The order subjects are listed in, and the default baselines (first present wins). */
    static final List<String> SUBJECT_ORDER = Arrays.asList("OursSpecOnly", "OursDefaults", "FloorFramingCopy", "FloorOnePass",
            "FloorTwoPass", "CodecEncoding", "CopyOf", "Clone", "RawCodec", "ToJson", "OpenTelemetry",
            "MicrometerSink", "MicrometerListener", "DriverNoListener", "DriverOursSpecOnly",
            "DriverOursDefaults", "DriverClone", "DriverToJson");
    static final List<String> DEFAULT_BASELINES = Arrays.asList("Clone", "OpenTelemetry", "MicrometerListener",
            "DriverNoListener");
    /** The parameters that are the x axis (sequence or batch size). */
    static final List<String> SIZE_PARAMS = Arrays.asList("count", "batch");

    private Report() {
    }

    /** One benchmark at one parameter set. */
    static final class Row {
        final String benchmark;
        final String subject;
        final String method;
        final Map<String, String> params;
        final double ns;
        final double nsError;
        final double[] nsSamples;
        double bytes = Double.NaN;
        double[] bytesSamples = new double[0];
        double allocs = Double.NaN;
        double countedBytes = Double.NaN;
        long outputBytes = -1;

        Row(final ResultFiles.Jmh result) {
            benchmark = result.benchmark;
            String[] parts = benchmark.split("\\.");
            method = parts[parts.length - 1];
            String type = parts[parts.length - 2];
            subject = type.endsWith("Benchmark") ? type.substring(0, type.length() - "Benchmark".length()) : type;
            params = result.params == null ? new LinkedHashMap<>() : result.params;
            double scale = toNanos(result.primaryMetric.scoreUnit);
            ns = result.primaryMetric.score * scale;
            nsError = result.primaryMetric.scoreError * scale;
            nsSamples = samples(result.primaryMetric, scale);
            ResultFiles.Metric norm = result.secondaryMetrics == null ? null : result.secondaryMetrics.get(ResultFiles.NORM);
            if (norm != null) {
                bytes = norm.score;
                bytesSamples = samples(norm, 1);
            }
        }

        String key() {
            return benchmark + " " + params;
        }

        String size() {
            return params.getOrDefault(sizeName(), "");
        }

        /** The parameters other than the size, as text. */
        String group() {
            StringBuilder sb = new StringBuilder();
            for (Map.Entry<String, String> e : params.entrySet()) {
                if (!SIZE_PARAMS.contains(e.getKey())) {
                    sb.append(sb.length() > 0 ? " " : "").append(e.getKey()).append('=').append(e.getValue());
                }
            }
            return sb.toString();
        }

        String sizeName() {
            for (String p : SIZE_PARAMS) {
                if (params.containsKey(p)) {
                    return p;
                }
            }
            return "";
        }
    }

    /**
     * @param args see the class comment
     * @throws IOException when a file can not be read or written
     */
    public static void main(final String[] args) throws IOException {
        if (args.length < 2) {
            usage();
            return;
        }
        Map<String, List<String>> options = new LinkedHashMap<>();
        List<String> files = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].startsWith("--")) {
                String name = args[i].substring(2);
                boolean flag = name.equals("markdown") || name.equals("targets") || name.equals("require-complete");
                options.computeIfAbsent(name, k -> new ArrayList<>()).add(flag ? "true" : args[++i]);
            } else {
                files.add(args[i]);
            }
        }
        if (args[0].equals("report") && files.size() == 1) {
            List<Row> rows = load(Paths.get(files.get(0)), path(options, "allocs"));
            Map<String, String> baselines = new LinkedHashMap<>();
            for (String b : options.getOrDefault("baseline", new ArrayList<>())) {
                String[] kv = b.split("=", 2);
                baselines.put(kv[0], kv[1]);
            }
            boolean markdown = options.containsKey("markdown");
            if (rows.isEmpty()) {
                System.err.println("no benchmark result in " + files.get(0));
                System.exit(1);
            }
            System.out.print(table(rows, baselines, markdown));
            if (options.containsKey("targets")) {
                System.out.println();
                System.out.print(Targets.check(rows, markdown));
            }
            if (options.containsKey("svg-dir")) {
                Path dir = Paths.get(options.get("svg-dir").get(0));
                Files.createDirectories(dir);
                for (Map.Entry<String, String> chart : Chart.charts(rows).entrySet()) {
                    Path file = dir.resolve("bytes-" + chart.getKey() + ".svg");
                    Files.write(file, chart.getValue().getBytes(StandardCharsets.UTF_8));
                    System.out.println("wrote " + file);
                }
            }
            if (options.containsKey("require-complete")) {
                boolean allocs = options.containsKey("allocs");
                List<String> incomplete = incomplete(rows, allocs);
                incomplete.forEach(System.err::println);
                if (!incomplete.isEmpty()) {
                    System.exit(1);
                }
                System.out.println(rows.size() + " benchmark results, each with ns/op, B/op"
                        + (allocs ? " and allocs/op" : " (allocs/op not counted in this run)"));
            }
        } else if (args[0].equals("slim") && files.size() == 2) {
            ResultFiles.write(Paths.get(files.get(1)), slim(ResultFiles.readJmh(Paths.get(files.get(0)))), 1);
        } else if (args[0].equals("compare") && files.size() == 2) {
            double alpha = options.containsKey("alpha") ? Double.parseDouble(options.get("alpha").get(0)) : 0.05;
            List<Row> before = load(Paths.get(files.get(0)), path(options, "old-allocs"));
            List<Row> after = load(Paths.get(files.get(1)), path(options, "new-allocs"));
            System.out.print(compare(before, after, alpha, options.containsKey("markdown")));
        } else {
            usage();
        }
    }

    /**
     * @param rows the results
     * @param allocs whether allocs/op was counted for this run ({@code --allocs}): then it is required too
     * @return a line for each result that lacks ns/op or B/op, or allocs/op where it was counted
     */
    static List<String> incomplete(final List<Row> rows, final boolean allocs) {
        List<String> incomplete = new ArrayList<>();
        for (Row r : rows) {
            if (Double.isNaN(r.ns) || Double.isNaN(r.bytes) || (allocs && Double.isNaN(r.allocs))) {
                incomplete.add("incomplete: " + r.key() + " ns/op=" + r.ns + " B/op=" + r.bytes
                        + (allocs ? " allocs/op=" + r.allocs : ""));
            }
        }
        return incomplete;
    }

    private static Path path(final Map<String, List<String>> options, final String name) {
        return options.containsKey(name) ? Paths.get(options.get(name).get(0)) : null;
    }

    private static void usage() {
        System.err.println("usage: Report report <jmh.json> [--allocs allocs.json] [--svg-dir dir] [--markdown] [--targets]"
                + " [--baseline method=Subject]...");
        System.err.println("       Report compare <old.json> <new.json> [--old-allocs a.json] [--new-allocs b.json]"
                + " [--alpha 0.05] [--markdown]");
        System.err.println("       Report slim <jmh.json> <out.json>      (only what the reports read, one result a line)");
        System.exit(2);
    }

    /** Reads a JMH result file and, if given, the allocs/op file made from it. */
    static List<Row> load(final Path jmh, final Path allocs) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (ResultFiles.Jmh result : ResultFiles.readJmh(jmh)) {
            rows.add(new Row(result));
        }
        if (allocs != null) {
            Map<String, Row> byKey = new LinkedHashMap<>();
            for (Row row : rows) {
                byKey.put(row.key(), row);
            }
            for (ResultFiles.Allocs a : ResultFiles.readAllocs(allocs)) {
                Row row = byKey.get(a.benchmark + " " + a.params);
                if (row != null) {
                    row.allocs = a.allocsPerOp;
                    row.countedBytes = a.instrumentedBytesPerOp;
                    row.outputBytes = a.outputBytes;
                }
            }
        }
        rows.sort(ORDER);
        return rows;
    }

    /**
     * @return the results with only what the reports read (score, error, unit and iterations of ns/op and B/op), for a run
     *         kept in the repository
     */
    static List<ResultFiles.Jmh> slim(final List<ResultFiles.Jmh> results) {
        for (ResultFiles.Jmh r : results) {
            if (r.secondaryMetrics != null) {
                r.secondaryMetrics.keySet().retainAll(List.of(ResultFiles.NORM));
            }
        }
        return results;
    }

    static final Comparator<Row> ORDER = Comparator.<Row, String>comparing(r -> r.method)
            .thenComparing(Row::group)
            .thenComparingDouble(r -> r.size().isEmpty() ? 0 : Double.parseDouble(r.size()))
            .thenComparingInt(r -> subjectIndex(r.subject));

    static int subjectIndex(final String subject) {
        int i = SUBJECT_ORDER.indexOf(subject);
        return i < 0 ? SUBJECT_ORDER.size() : i;
    }

    private static double toNanos(final String unit) {
        switch (unit) {
            case "ns/op": return 1;
            case "us/op": return 1e3;
            case "ms/op": return 1e6;
            case "s/op": return 1e9;
            default: throw new IllegalArgumentException("unsupported unit " + unit + " (run in AverageTime mode)");
        }
    }

    private static double[] samples(final ResultFiles.Metric metric, final double scale) {
        return metric.rawData == null ? new double[0]
                : Arrays.stream(metric.rawData).flatMapToDouble(Arrays::stream).map(v -> v * scale).toArray();
    }

    /** The report table: one section per method and parameter group, one line per size and subject. */
    static String table(final List<Row> rows, final Map<String, String> baselines, final boolean markdown) {
        StringBuilder out = new StringBuilder();
        Map<String, List<Row>> sections = new LinkedHashMap<>();
        for (Row row : rows) {
            sections.computeIfAbsent(row.method + (row.group().isEmpty() ? "" : " " + row.group()), k -> new ArrayList<>())
                    .add(row);
        }
        for (Map.Entry<String, List<Row>> section : sections.entrySet()) {
            List<Row> list = section.getValue();
            String baseline = baselineOf(list, baselines);
            Map<String, Row> base = new LinkedHashMap<>();
            for (Row r : list) {
                if (r.subject.equals(baseline)) {
                    base.put(r.size(), r);
                }
            }
            String sizeName = list.get(0).sizeName();
            String[] header = {sizeName.isEmpty() ? "-" : sizeName, "subject", "ns/op", "±", "B/op", "allocs/op",
                    "ns vs " + (baseline == null ? "-" : baseline), "B vs " + (baseline == null ? "-" : baseline)};
            List<String[]> lines = new ArrayList<>();
            for (Row r : list) {
                Row b = base.get(r.size());
                lines.add(new String[]{r.size().isEmpty() ? "-" : r.size(), r.subject, time(r.ns), percent(r.nsError, r.ns),
                        bytes(r.bytes), allocs(r.allocs), b == null ? "" : ratio(r.ns, b.ns),
                        b == null ? "" : ratio(r.bytes, b.bytes)});
            }
            out.append(markdown ? "\n#### " : "\n").append(section.getKey()).append('\n');
            if (markdown) {
                out.append('\n');
            }
            out.append(format(header, lines, markdown));
        }
        return out.toString();
    }

    static String baselineOf(final List<Row> rows, final Map<String, String> baselines) {
        String method = rows.get(0).method;
        if (baselines.containsKey(method)) {
            return baselines.get(method);
        }
        for (String candidate : DEFAULT_BASELINES) {
            for (Row r : rows) {
                if (r.subject.equals(candidate)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    /** Aligned columns, or a Markdown table. */
    static String format(final String[] header, final List<String[]> lines, final boolean markdown) {
        StringBuilder out = new StringBuilder();
        if (markdown) {
            out.append("| ").append(String.join(" | ", header)).append(" |\n|");
            for (int i = 0; i < header.length; i++) {
                out.append(i < 2 ? " --- |" : " ---: |");
            }
            out.append('\n');
            for (String[] line : lines) {
                out.append("| ").append(String.join(" | ", line)).append(" |\n");
            }
            return out.toString();
        }
        int[] width = new int[header.length];
        for (int i = 0; i < header.length; i++) {
            width[i] = header[i].length();
        }
        for (String[] line : lines) {
            for (int i = 0; i < line.length; i++) {
                width[i] = Math.max(width[i], line[i].length());
            }
        }
        List<String[]> all = new ArrayList<>();
        all.add(header);
        all.addAll(lines);
        for (String[] line : all) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < line.length; i++) {
                String cell = line[i];
                if (i < 2) {
                    sb.append(String.format("%-" + width[i] + "s", cell));
                } else {
                    sb.append(String.format("%" + width[i] + "s", cell));
                }
                sb.append("  ");
            }
            out.append(sb.toString().replaceAll("\\s+$", "")).append('\n');
        }
        return out.toString();
    }

    /** Before / after, per benchmark and parameters present in both, with a Mann-Whitney U test over the iterations. */
    static String compare(final List<Row> before, final List<Row> after, final double alpha, final boolean markdown) {
        Map<String, Row> old = new LinkedHashMap<>();
        for (Row r : before) {
            old.put(r.key(), r);
        }
        List<String[]> lines = new ArrayList<>();
        for (Row now : after) {
            Row was = old.get(now.key());
            if (was == null) {
                continue;
            }
            String name = now.subject + "." + now.method + (now.params.isEmpty() ? "" : " " + paramsText(now.params));
            lines.add(new String[]{name, time(was.ns), time(now.ns), delta(was.nsSamples, now.nsSamples, was.ns, now.ns, alpha),
                    bytes(was.bytes), bytes(now.bytes), delta(was.bytesSamples, now.bytesSamples, was.bytes, now.bytes, alpha),
                    allocs(was.allocs), allocs(now.allocs), allocsDelta(was.allocs, now.allocs)});
        }
        String[] header = {"name", "old ns/op", "new ns/op", "delta", "old B/op", "new B/op", "delta", "old allocs/op",
                "new allocs/op", "delta"};
        return format(header, lines, markdown) + "\nalpha=" + alpha + "; '~' marks a difference that is not significant"
                + " (two-sided Mann-Whitney U over the measurement iterations) or below 0.05 %; allocs/op is deterministic, no test.\n";
    }

    static String paramsText(final Map<String, String> params) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : new TreeMap<>(params).entrySet()) {
            sb.append(sb.length() > 0 ? " " : "").append(e.getKey()).append('=').append(e.getValue());
        }
        return sb.toString();
    }

    static String delta(final double[] a, final double[] b, final double meanA, final double meanB, final double alpha) {
        if (Double.isNaN(meanA) || Double.isNaN(meanB) || a.length == 0 || b.length == 0) {
            return "?";
        }
        double p = pValue(a, b);
        String n = String.format(Locale.ROOT, "(p=%.3f n=%d+%d)", p, a.length, b.length);
        // like benchstat's ~, and also for changes too small to matter (B/op that differ in the fifth digit)
        if (p >= alpha || Math.abs(meanB - meanA) < Math.abs(meanA) * 0.0005) {
            return "~ " + n;
        }
        return String.format(Locale.ROOT, "%+.2f%% %s", (meanB - meanA) / meanA * 100, n);
    }

    /**
     * @return the two-sided p-value of the Mann-Whitney U test: exact below 50 values a sample when no value is tied, else the
     *         normal approximation with tie and continuity corrections; 1 when every value is tied
     */
    static double pValue(final double[] a, final double[] b) {
        double p = MannWhitneyUTest.withDefaults().test(a, b).getPValue();
        return Double.isNaN(p) ? 1 : p;
    }

    static String allocsDelta(final double a, final double b) {
        if (Double.isNaN(a) || Double.isNaN(b)) {
            return "?";
        }
        if (Math.abs(a - b) < 0.05) {
            return "~";
        }
        return a == 0 ? "+inf" : String.format(Locale.ROOT, "%+.2f%%", (b - a) / a * 100);
    }

    static String time(final double ns) {
        if (Double.isNaN(ns)) {
            return "?";
        }
        if (ns < 1e3) {
            return String.format(Locale.ROOT, "%.1fn", ns);
        } else if (ns < 1e6) {
            return String.format(Locale.ROOT, "%.2fµ", ns / 1e3);
        } else if (ns < 1e9) {
            return String.format(Locale.ROOT, "%.2fm", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.2f", ns / 1e9);
    }

    static String bytes(final double b) {
        if (Double.isNaN(b)) {
            return "?";
        }
        if (b < 10_000) {
            return String.format(Locale.ROOT, "%.0f", b);
        } else if (b < 10_000 * 1024.0) {
            return String.format(Locale.ROOT, "%.1fKi", b / 1024);
        }
        return String.format(Locale.ROOT, "%.1fMi", b / 1024 / 1024);
    }

    static String allocs(final double a) {
        if (Double.isNaN(a)) {
            return "?";
        }
        return a == Math.rint(a) || a >= 100 ? String.format(Locale.ROOT, "%.0f", a) : String.format(Locale.ROOT, "%.1f", a);
    }

    static String percent(final double error, final double score) {
        if (Double.isNaN(error) || score == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "%.0f%%", error / score * 100);
    }

    static String ratio(final double value, final double base) {
        if (Double.isNaN(value) || Double.isNaN(base) || base == 0) {
            return "?";
        }
        return String.format(Locale.ROOT, "%.2fx", value / base);
    }
}
