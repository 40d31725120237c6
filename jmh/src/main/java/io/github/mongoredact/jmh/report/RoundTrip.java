package io.github.mongoredact.jmh.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The report of {@code run-roundtrip.sh}: the real driver against the embedded server, per operation and listener, measured
 * in interleaved rounds (one JMH result file per subject and round, {@code round-<r>-<Subject>.json}, every operation in
 * each; the {@code ...OnVirtualThread} operations are the same on a fresh virtual thread each, an operation of their own
 * here, against no listener on virtual threads). Per operation and subject: ns/op and its throughput, B/op, each the median over the rounds with [min-max]; the
 * overhead against no listener (per round: the difference of ns/op and of B/op, and the difference as a share of the round
 * trip without a listener), and the listener's own time per operation (the {@code listenerNanos / operations} counters of the
 * timed listener) as a share of the round trip with it. Then issue 20's target per operation: ours the smallest of those that
 * do a job (metrics or text), under 2 % of the round trip.
 *
 * <pre>
 * java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.RoundTrip report [--markdown f] [--json f] round-*.json
 * </pre>
 */
public final class RoundTrip {
    /** The operations, in the order of the tables: on the benchmark's thread, then on a fresh virtual thread each. */
    static final List<String> OPERATIONS = List.of("insertOne", "findById", "insertMany", "insertOneOnVirtualThread",
            "findByIdOnVirtualThread");
    /** The subjects, baseline first; those after it do a job (metrics, text). */
    static final List<String> SUBJECTS = List.of("NoListener", "Ours", "MicrometerListener", "OpenTelemetry");
    /** The baseline. */
    static final String NONE = "NoListener";
    /** Issue 20's limit on ours, as a share of the round trip. */
    static final double MAX_SHARE = 0.02;
    private static final Pattern ROUND_FILE = Pattern.compile("round-(\\d+)-[^/\\\\]*\\.json$");

    private RoundTrip() {
    }

    /** One round's figures of one subject and operation: ns/op, B/op, the listener's own ns/op. */
    static final class Figures {
        final double ns;
        final double bytes;
        final double listenerNs;

        Figures(final double ns, final double bytes, final double listenerNs) {
            this.ns = ns;
            this.bytes = bytes;
            this.listenerNs = listenerNs;
        }
    }

    /**
     * @param args {@code report [--markdown f] [--json f] file...}
     * @throws IOException when a file can not be read or written
     */
    public static void main(final String[] args) throws IOException {
        List<String> rest = new ArrayList<>();
        Map<String, String> options = Rounds.options(args, rest);
        List<Path> files = new ArrayList<>();
        rest.forEach(f -> files.add(Paths.get(f)));
        if (args.length == 0 || !args[0].equals("report") || files.isEmpty()) {
            System.err.println("usage: RoundTrip report [--markdown f] [--json f] round-<r>-<Subject>.json...");
            System.exit(2);
        }
        Map<String, Map<Integer, Figures>> figures = load(files);
        String markdown = markdown(figures);
        System.out.print(markdown);
        if (options.containsKey("markdown")) {
            Files.write(Paths.get(options.get("markdown")), markdown.getBytes(StandardCharsets.UTF_8));
        }
        if (options.containsKey("json")) {
            ResultFiles.write(Paths.get(options.get("json")), json(figures), 3);
        }
    }

    /** @return per {@code Subject.operation}, the figures of each round */
    static Map<String, Map<Integer, Figures>> load(final List<Path> files) throws IOException {
        Map<String, Map<Integer, Figures>> all = new TreeMap<>();
        for (Path file : files) {
            Matcher m = ROUND_FILE.matcher(file.getFileName().toString());
            if (!m.find()) {
                throw new IllegalArgumentException("not a round file (round-<r>-<name>.json): " + file);
            }
            int round = Integer.parseInt(m.group(1));
            for (ResultFiles.Jmh result : ResultFiles.readJmh(file)) {
                Report.Row row = new Report.Row(result);
                double listenerNanos = aux(result, "listenerNanos");
                double operations = aux(result, "operations");
                Figures f = new Figures(row.ns, row.bytes, operations > 0 ? listenerNanos / operations : Double.NaN);
                if (all.computeIfAbsent(row.subject + "." + row.method, k -> new TreeMap<>()).put(round, f) != null) {
                    throw new IllegalArgumentException("two results for " + row.subject + "." + row.method + " in round " + round);
                }
            }
        }
        return all;
    }

    private static double aux(final ResultFiles.Jmh result, final String name) {
        ResultFiles.Metric metric = result.secondaryMetrics == null ? null : result.secondaryMetrics.get(name);
        return metric == null ? Double.NaN : metric.score;
    }

    /** A subject's figures for one operation against the baseline's, per round. */
    static final class Against {
        final Spread ns;
        final Spread bytes;
        final Spread listenerNs;
        final Spread listenerShare;
        final Spread overheadNs;
        final Spread overheadShare;
        final Spread overheadBytes;

        Against(final Map<Integer, Figures> subject, final Map<Integer, Figures> none) {
            List<double[]> rows = new ArrayList<>();
            for (Map.Entry<Integer, Figures> e : subject.entrySet()) {
                Figures f = e.getValue();
                Figures base = none == null ? null : none.get(e.getKey());
                rows.add(new double[]{f.ns, f.bytes, f.listenerNs, f.listenerNs / f.ns,
                        base == null ? Double.NaN : f.ns - base.ns,
                        base == null ? Double.NaN : (f.ns - base.ns) / base.ns,
                        base == null ? Double.NaN : f.bytes - base.bytes});
            }
            ns = column(rows, 0);
            bytes = column(rows, 1);
            listenerNs = column(rows, 2);
            listenerShare = column(rows, 3);
            overheadNs = column(rows, 4);
            overheadShare = column(rows, 5);
            overheadBytes = column(rows, 6);
        }

        private static Spread column(final List<double[]> rows, final int i) {
            return Spread.of(rows.stream().mapToDouble(r -> r[i]).toArray());
        }
    }

    static String markdown(final Map<String, Map<Integer, Figures>> figures) {
        StringBuilder out = new StringBuilder();
        out.append("#### The round trip: median over the rounds [min-max]\n\n");
        List<String[]> lines = new ArrayList<>();
        List<String[]> verdicts = new ArrayList<>();
        for (String op : OPERATIONS) {
            Map<Integer, Figures> none = figures.get(NONE + "." + op);
            Map<String, Against> measured = new LinkedHashMap<>();
            for (String subject : SUBJECTS) {
                Map<Integer, Figures> f = figures.get(subject + "." + op);
                if (f == null) {
                    continue;
                }
                Against a = new Against(f, none);
                measured.put(subject, a);
                boolean base = subject.equals(NONE);
                lines.add(new String[]{op, subject, a.ns.text(Report::time),
                        String.format(Locale.ROOT, "%,.0f", 1e9 / a.ns.median), a.bytes.text(Rounds::bytes),
                        base ? "" : a.overheadNs.text(RoundTrip::signedTime), base ? "" : a.overheadShare.text(RoundTrip::percent),
                        base ? "" : a.overheadBytes.text(RoundTrip::signedBytes),
                        base ? "" : a.listenerNs.text(Report::time), base ? "" : a.listenerShare.text(RoundTrip::percent)});
            }
            if (!measured.isEmpty()) {
                verdicts.add(verdict(op, measured));
            }
        }
        out.append(Report.format(new String[]{"operation", "subject", "ns/op", "ops/s", "B/op", "overhead ns/op",
                "overhead share", "overhead B/op", "in the listener ns/op", "in the listener share"}, lines, true));
        out.append("\n#### Issue 20's target: ours the smallest of those that do a job, under ")
                .append(String.format(Locale.ROOT, "%.0f", MAX_SHARE * 100)).append(" % of the round trip\n\n");
        out.append(Report.format(new String[]{"operation", "measure", "ours", "Micrometer's listener", "OpenTelemetry's listener",
                "result"}, verdicts, true));
        return out.toString();
    }

    /**
     * The verdict on one operation, judged on the listener's own time (the difference of two round trips is within their
     * noise); the overhead against no listener is shown beside it.
     */
    static String[] verdict(final String op, final Map<String, Against> measured) {
        Against ours = measured.get("Ours");
        Against micrometer = measured.get("MicrometerListener");
        Against otel = measured.get("OpenTelemetry");
        if (ours == null) {
            return new String[]{op, "in the listener, share", "n/a", "", "", "not measured"};
        }
        double share = ours.listenerShare.median;
        boolean smallest = (micrometer == null || ours.listenerNs.median <= micrometer.listenerNs.median)
                && (otel == null || ours.listenerNs.median <= otel.listenerNs.median);
        String result = share <= MAX_SHARE && smallest ? "met" : "MISSED" + (share > MAX_SHARE ? " (over 2 %)" : "")
                + (smallest ? "" : " (not the smallest)");
        return new String[]{op, "in the listener: ns/op, share", cell(ours), cell(micrometer), cell(otel), result};
    }

    private static String cell(final Against a) {
        return a == null ? "n/a" : Report.time(a.listenerNs.median) + ", " + percent(a.listenerShare.median)
                + " (overhead " + percent(a.overheadShare.median) + ")";
    }

    static String percent(final double share) {
        return Double.isNaN(share) ? "?" : String.format(Locale.ROOT, "%.2f %%", share * 100);
    }

    static String signedTime(final double ns) {
        return Double.isNaN(ns) ? "?" : (ns < 0 ? "-" : "+") + Report.time(Math.abs(ns));
    }

    static String signedBytes(final double b) {
        return Double.isNaN(b) ? "?" : String.format(Locale.ROOT, "%+,.0f", b);
    }

    /** The report as JSON: per operation and subject every round's figures, and the overheads' medians and spreads. */
    static ObjectNode json(final Map<String, Map<Integer, Figures>> figures) {
        ObjectNode report = ResultFiles.MAPPER.createObjectNode();
        ArrayNode list = report.putArray("results");
        for (String op : OPERATIONS) {
            Map<Integer, Figures> none = figures.get(NONE + "." + op);
            for (String subject : SUBJECTS) {
                Map<Integer, Figures> f = figures.get(subject + "." + op);
                if (f == null) {
                    continue;
                }
                Against a = new Against(f, none);
                ObjectNode node = list.addObject().put("operation", op).put("subject", subject);
                ArrayNode rounds = node.putArray("rounds");
                f.forEach((r, v) -> rounds.addObject().put("round", r).put("nsPerOp", Rounds.number(v.ns))
                        .put("bytesPerOp", Rounds.number(v.bytes)).put("listenerNsPerOp", Rounds.number(v.listenerNs)));
                spread(node, "nsPerOp", a.ns);
                spread(node, "bytesPerOp", a.bytes);
                spread(node, "listenerNsPerOp", a.listenerNs);
                spread(node, "listenerShare", a.listenerShare);
                spread(node, "overheadNsPerOp", a.overheadNs);
                spread(node, "overheadShare", a.overheadShare);
                spread(node, "overheadBytesPerOp", a.overheadBytes);
            }
        }
        return report;
    }

    private static void spread(final ObjectNode node, final String name, final Spread s) {
        if (s.n > 0) {
            node.putObject(name).put("median", Rounds.number(s.median)).put("min", Rounds.number(s.min))
                    .put("max", Rounds.number(s.max));
        }
    }
}
