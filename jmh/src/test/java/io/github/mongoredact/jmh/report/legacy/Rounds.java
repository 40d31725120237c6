package io.github.mongoredact.jmh.report.legacy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The report of {@code run-targets.sh}: subjects measured in interleaved rounds (each round runs every subject once, in its
 * own fork, in a shuffled order), read from one JMH result file per subject and round named {@code round-<r>-<name>.json}.
 * Per subject: the median over the rounds of ns/op and B/op with their [min-max]; per target ratio of issue 11: the ratio of
 * the medians, the spread of the per-round ratios, and whether the target holds. Written as Markdown and as JSON.
 *
 * <pre>
 * java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Rounds order --seed 11 --round 2 A B C   # shuffled names
 * java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Rounds report --markdown r.md --json r.json round-*.json
 * java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Rounds merge round-1.json round-1-*.json  # one JMH file
 * </pre>
 */
public final class Rounds {
    private static final Pattern ROUND_FILE = Pattern.compile("round-(\\d+)-[^/\\\\]*\\.json$");
    /** The order of the subjects in the table: the issue's, peers and floors next to ours. */
    static final List<String> ORDER = Arrays.asList("Clone", "FloorFramingCopy", "OursSpecOnly", "FloorOnePass", "FloorTwoPass",
            "OursDefaults", "CodecEncoding", "CopyOf", "MicrometerListener", "MicrometerSink");

    private Rounds() {
    }

    /** One subject at one parameter set, with its score in each round that measured it. */
    static final class Subject {
        final String subject;
        final String method;
        final Map<String, String> params;
        final Map<Integer, double[]> rounds = new TreeMap<>();

        Subject(final Report.Row row) {
            subject = row.subject;
            method = row.method;
            params = new TreeMap<>(row.params);
        }

        String name() {
            return subject + "." + method + (params.isEmpty() ? "" : " " + Report.paramsText(params));
        }

        Spread ns() {
            return Spread.of(rounds.values().stream().mapToDouble(v -> v[0]).toArray());
        }

        Spread bytes() {
            return Spread.of(rounds.values().stream().mapToDouble(v -> v[1]).toArray());
        }
    }

    /** A target of issue 11: {@code numerator / denominator} of one metric at one document count, at most {@code limit}. */
    static final class Target {
        final String numerator;
        final String denominator;
        final boolean bytes;
        final String count;
        final double limit;

        Target(final String numerator, final String denominator, final boolean bytes, final String count, final double limit) {
            this.numerator = numerator;
            this.denominator = denominator;
            this.bytes = bytes;
            this.count = count;
            this.limit = limit;
        }
    }

    /** The targets, each named {@code Subject.method}; counts are the sequence's documents. */
    static final List<Target> TARGETS = Arrays.asList(
            new Target("OursDefaults.started", "FloorOnePass.started", false, "1000", 1.5),
            new Target("OursDefaults.started", "CodecEncoding.started", false, "1000", 0.5),
            new Target("OursSpecOnly.started", "FloorFramingCopy.started", false, "1000", 1.2),
            new Target("OursSpecOnly.started", "Clone.started", true, "1000", 0.4),
            new Target("MicrometerSink.metricsPair", "MicrometerListener.metricsPair", false, "1", 1.0),
            new Target("MicrometerSink.metricsPair", "MicrometerListener.metricsPair", false, "1000", 1.0),
            new Target("MicrometerSink.metricsPair", "MicrometerListener.metricsPair", true, "1", 0.25),
            new Target("MicrometerSink.metricsPair", "MicrometerListener.metricsPair", true, "1000", 0.25));

    /**
     * @param args {@code order --seed S --round R name...} or {@code report [--markdown file] [--json file] file...}
     * @throws IOException when a file can not be read or written
     */
    public static void main(final String[] args) throws IOException {
        Map<String, String> options = new LinkedHashMap<>();
        List<String> rest = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].startsWith("--")) {
                options.put(args[i].substring(2), args[++i]);
            } else {
                rest.add(args[i]);
            }
        }
        if (args.length > 0 && args[0].equals("order")) {
            for (String name : order(rest, Long.parseLong(options.getOrDefault("seed", "11")),
                    Integer.parseInt(options.getOrDefault("round", "1")))) {
                System.out.println(name);
            }
        } else if (args.length > 0 && args[0].equals("merge") && rest.size() >= 2) {
            List<Path> files = new ArrayList<>();
            for (String f : rest.subList(1, rest.size())) {
                files.add(Paths.get(f));
            }
            Files.write(Paths.get(rest.get(0)), merge(files).getBytes(StandardCharsets.UTF_8));
        } else if (args.length > 0 && args[0].equals("report") && !rest.isEmpty()) {
            List<Path> files = new ArrayList<>();
            for (String f : rest) {
                files.add(Paths.get(f));
            }
            List<Subject> subjects = load(files);
            String markdown = markdown(subjects);
            System.out.print(markdown);
            if (options.containsKey("markdown")) {
                Files.write(Paths.get(options.get("markdown")), markdown.getBytes(StandardCharsets.UTF_8));
            }
            if (options.containsKey("json")) {
                Files.write(Paths.get(options.get("json")), json(subjects).getBytes(StandardCharsets.UTF_8));
            }
        } else {
            System.err.println("usage: Rounds order --seed S --round R name...");
            System.err.println("       Rounds merge out.json jmh-result.json...");
            System.err.println("       Rounds report [--markdown f] [--json f] round-<r>-<name>.json...");
            System.exit(2);
        }
    }

    /**
     * @return the names in the order of round {@code round}: a shuffle fixed by the seed and the round, different per round
     */
    static List<String> order(final List<String> names, final long seed, final int round) {
        List<String> order = new ArrayList<>(names);
        Collections.shuffle(order, new Random(seed * 1_000_003L + round));
        return order;
    }

    /**
     * @param files JMH result files (JSON arrays)
     * @return one JMH result file with the results of all, in order (for {@code AllocationCount} and {@code Report})
     * @throws IllegalArgumentException when a file is not a JSON array
     */
    static String merge(final List<Path> files) throws IOException {
        StringBuilder out = new StringBuilder("[\n");
        for (Path file : files) {
            String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).trim();
            if (!(Json.parse(text) instanceof List)) {
                throw new IllegalArgumentException("not a JMH result array: " + file);
            }
            String inner = text.substring(1, text.length() - 1).trim();
            if (!inner.isEmpty()) {
                out.append(out.length() > 2 ? ",\n" : "").append(inner);
            }
        }
        return out.append("\n]\n").toString();
    }

    /** Reads the round files; the round of each is the number in its name ({@code round-<r>-...json}). */
    static List<Subject> load(final List<Path> files) throws IOException {
        Map<String, Subject> subjects = new LinkedHashMap<>();
        for (Path file : files) {
            Matcher m = ROUND_FILE.matcher(file.getFileName().toString());
            if (!m.find()) {
                throw new IllegalArgumentException("not a round file (round-<r>-<name>.json): " + file);
            }
            int round = Integer.parseInt(m.group(1));
            for (Report.Row row : Report.load(file, null)) {
                Subject s = subjects.computeIfAbsent(new Subject(row).name(), k -> new Subject(row));
                if (s.rounds.put(round, new double[]{row.ns, row.bytes}) != null) {
                    throw new IllegalArgumentException("two results for " + s.name() + " in round " + round);
                }
            }
        }
        List<Subject> list = new ArrayList<>(subjects.values());
        list.sort(Comparator.<Subject, String>comparing(s -> s.method)
                .thenComparingInt(s -> Integer.parseInt(s.params.getOrDefault("count", "0")))
                .thenComparingInt(s -> ORDER.contains(s.subject) ? ORDER.indexOf(s.subject) : ORDER.size())
                .thenComparing(Subject::name));
        return list;
    }

    /** The subject of {@code name} ({@code Subject.method}) at {@code count} documents of the plain, small input, or null. */
    static Subject find(final List<Subject> subjects, final String name, final String count) {
        for (Subject s : subjects) {
            if (name.equals(s.subject + "." + s.method) && count.equals(s.params.get("count"))
                    && "plain".equals(s.params.getOrDefault("shape", "plain"))
                    && "small".equals(s.params.getOrDefault("docSize", "small"))) {
                return s;
            }
        }
        return null;
    }

    /** A target's figures: the ratio of the medians and the spread of the per-round ratios; null when not measured. */
    static double[] ratio(final List<Subject> subjects, final Target target) {
        Subject a = find(subjects, target.numerator, target.count);
        Subject b = find(subjects, target.denominator, target.count);
        if (a == null || b == null) {
            return null;
        }
        int metric = target.bytes ? 1 : 0;
        List<Double> perRound = new ArrayList<>();
        for (Map.Entry<Integer, double[]> e : a.rounds.entrySet()) {
            double[] other = b.rounds.get(e.getKey());
            if (other != null) {
                perRound.add(e.getValue()[metric] / other[metric]);
            }
        }
        Spread spread = Spread.of(perRound.stream().mapToDouble(Double::doubleValue).toArray());
        double ratio = target.bytes ? a.bytes().median / b.bytes().median : a.ns().median / b.ns().median;
        return new double[]{ratio, spread.min, spread.max, spread.n};
    }

    static String markdown(final List<Subject> subjects) {
        int rounds = 0;
        for (Subject s : subjects) {
            rounds = Math.max(rounds, s.rounds.size());
        }
        StringBuilder out = new StringBuilder();
        out.append("#### Subjects: median over ").append(rounds).append(" rounds [min-max]\n\n");
        List<String[]> lines = new ArrayList<>();
        for (Subject s : subjects) {
            lines.add(new String[]{s.subject, s.method, Report.paramsText(s.params), s.ns().text(Report::time),
                    s.bytes().text(Rounds::bytes), String.valueOf(s.rounds.size())});
        }
        out.append(Report.format(new String[]{"subject", "method", "params", "ns/op", "B/op", "rounds"}, lines, true));
        out.append("\n#### Targets of issue 11: ratio of the medians, per-round ratios [min-max]\n\n");
        lines = new ArrayList<>();
        for (Target t : TARGETS) {
            double[] r = ratio(subjects, t);
            String rule = (t.bytes ? "B/op" : "ns/op") + " <= " + String.format(Locale.ROOT, "%.2fx", t.limit);
            lines.add(new String[]{t.numerator + " / " + t.denominator, t.count, rule,
                    r == null ? "n/a" : String.format(Locale.ROOT, "%.2fx", r[0]),
                    r == null ? "" : String.format(Locale.ROOT, "[%.2fx-%.2fx]", r[1], r[2]),
                    r == null ? "not measured" : r[0] <= t.limit ? "met" : "MISSED"});
        }
        String[] header = {"numerator / denominator", "count", "target", "ratio of medians", "per-round ratios", "result"};
        out.append(Report.format(header, lines, true));
        return out.toString();
    }

    static String bytes(final double b) {
        return Double.isNaN(b) ? "?" : String.format(Locale.ROOT, "%,.0f", b);
    }

    static String json(final List<Subject> subjects) {
        StringBuilder out = new StringBuilder("{\n  \"subjects\": [\n");
        for (int i = 0; i < subjects.size(); i++) {
            Subject s = subjects.get(i);
            out.append("    {\"subject\": ").append(Json.quote(s.subject)).append(", \"method\": ").append(Json.quote(s.method))
                    .append(", \"params\": {");
            int p = 0;
            for (Map.Entry<String, String> e : s.params.entrySet()) {
                out.append(p++ > 0 ? ", " : "").append(Json.quote(e.getKey())).append(": ").append(Json.quote(e.getValue()));
            }
            out.append("}, \"rounds\": ").append(s.rounds.keySet()).append(", \"nsPerOp\": ").append(json(s.ns(), s, 0))
                    .append(", \"bytesPerOp\": ").append(json(s.bytes(), s, 1)).append('}')
                    .append(i + 1 < subjects.size() ? ",\n" : "\n");
        }
        out.append("  ],\n  \"targets\": [\n");
        for (int i = 0; i < TARGETS.size(); i++) {
            Target t = TARGETS.get(i);
            double[] r = ratio(subjects, t);
            out.append("    {\"numerator\": ").append(Json.quote(t.numerator)).append(", \"denominator\": ")
                    .append(Json.quote(t.denominator)).append(", \"metric\": ").append(Json.quote(t.bytes ? "B/op" : "ns/op"))
                    .append(", \"count\": ").append(t.count).append(", \"limit\": ").append(t.limit);
            if (r != null) {
                out.append(", \"ratio\": ").append(number(r[0])).append(", \"perRoundMin\": ").append(number(r[1]))
                        .append(", \"perRoundMax\": ").append(number(r[2])).append(", \"met\": ").append(r[0] <= t.limit);
            }
            out.append('}').append(i + 1 < TARGETS.size() ? ",\n" : "\n");
        }
        return out.append("  ]\n}\n").toString();
    }

    private static String json(final Spread spread, final Subject s, final int metric) {
        StringBuilder values = new StringBuilder("[");
        for (double[] v : s.rounds.values()) {
            values.append(values.length() > 1 ? ", " : "").append(number(v[metric]));
        }
        return "{\"median\": " + number(spread.median) + ", \"min\": " + number(spread.min) + ", \"max\": " + number(spread.max)
                + ", \"values\": " + values.append(']') + "}";
    }

    private static String number(final double v) {
        return Double.isNaN(v) ? "null" : String.format(Locale.ROOT, "%.4f", v);
    }
}
