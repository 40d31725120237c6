package io.github.mongoredact.jmh.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.math.BigDecimal;
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
 * Per subject: the median over the rounds of ns/op and B/op with their [min-max]; per target ratio ({@link Targets#ISSUE_20},
 * or {@link Targets#ISSUE_11} with {@code --targets issue11}): the ratio of the medians, the spread of the per-round ratios,
 * and whether the target holds. Written as Markdown and as JSON.
 *
 * <pre>
 * java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Rounds order --seed 11 --round 2 A B C   # shuffled names
 * java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Rounds report --markdown r.md --json r.json round-*.json
 *      [--targets issue20|issue11|issue31]
 * java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Rounds merge round-1.json round-1-*.json  # one JMH file
 * </pre>
 */
public final class Rounds {
    private static final Pattern ROUND_FILE = Pattern.compile("round-(\\d+)-[^/\\\\]*\\.json$");
    /** The order of the subjects in the table: the issue's, peers and floors next to ours. */
    static final List<String> ORDER = Arrays.asList("Clone", "FloorFramingCopy", "FloorForwarded", "OursSpecOnly", "FloorOnePass",
            "FloorTwoPass", "OursDefaults", "CodecEncoding", "CopyOf", "MicrometerListener", "MicrometerSink");

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

    /**
     * @param args {@code order --seed S --round R name...}, {@code merge out.json file...}, or
     *             {@code report [--markdown file] [--json file] [--targets issue20|issue11|issue31] file...}
     * @throws IOException when a file can not be read or written
     */
    public static void main(final String[] args) throws IOException {
        List<String> rest = new ArrayList<>();
        Map<String, String> options = options(args, rest);
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
            ResultFiles.write(Paths.get(rest.get(0)), merge(files), 1);
        } else if (args.length > 0 && args[0].equals("report") && !rest.isEmpty()) {
            List<Path> files = new ArrayList<>();
            for (String f : rest) {
                files.add(Paths.get(f));
            }
            List<Subject> subjects = load(files);
            Targets.Set targets = targets(options.getOrDefault("targets", "issue20"));
            String markdown = markdown(subjects, targets);
            System.out.print(markdown);
            if (options.containsKey("markdown")) {
                Files.write(Paths.get(options.get("markdown")), markdown.getBytes(StandardCharsets.UTF_8));
            }
            if (options.containsKey("json")) {
                ResultFiles.write(Paths.get(options.get("json")), json(subjects, targets), 2);
            }
        } else {
            System.err.println("usage: Rounds order --seed S --round R name...");
            System.err.println("       Rounds merge out.json jmh-result.json...");
            System.err.println("       Rounds report [--markdown f] [--json f] [--targets issue20|issue11|issue31] "
                    + "round-<r>-<name>.json...");
            System.exit(2);
        }
    }

    /**
     * @param args a command, then options ({@code --name value}) and other arguments in any order
     * @param rest receives the other arguments, in order
     * @return the options by name
     */
    static Map<String, String> options(final String[] args, final List<String> rest) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            if (args[i].startsWith("--") && i + 1 < args.length) {
                options.put(args[i].substring(2), args[++i]);
            } else {
                rest.add(args[i]);
            }
        }
        return options;
    }

    static Targets.Set targets(final String name) {
        switch (name) {
            case "issue20":
                return Targets.ISSUE_20;
            case "issue11":
                return Targets.ISSUE_11;
            case "issue31":
                return Targets.ISSUE_31;
            default:
                throw new IllegalArgumentException("--targets " + name + " (issue20, issue11 or issue31)");
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
     * @return one JMH result file with the results of all, in order and in full (for {@code AllocationCount} and
     *         {@code Report})
     * @throws IllegalArgumentException when a file is not a JSON array
     */
    static ArrayNode merge(final List<Path> files) throws IOException {
        ArrayNode all = ResultFiles.MAPPER.createArrayNode();
        for (Path file : files) {
            JsonNode results = ResultFiles.MAPPER.readTree(file.toFile());
            if (!results.isArray()) {
                throw new IllegalArgumentException("not a JMH result array: " + file);
            }
            all.addAll((ArrayNode) results);
        }
        return all;
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
                .thenComparingInt(s -> "kib".equals(s.params.get("docSize")) ? 1 : 0)
                .thenComparingInt(s -> Integer.parseInt(s.params.getOrDefault("count", "0")))
                .thenComparingInt(s -> "bytebuf".equals(s.params.get("shape")) ? 1 : 0)
                .thenComparingInt(s -> ORDER.contains(s.subject) ? ORDER.indexOf(s.subject) : ORDER.size())
                .thenComparing(Subject::name));
        return list;
    }

    /**
     * @param side {@code Subject.method}, then the parameters that pick one variant ({@code key=value}, space-separated)
     * @param at the parameters both sides of a target are measured at; absent {@code docSize} and {@code shape} mean
     *           {@code small} and {@code plain}
     * @return the subject, or null when not measured
     */
    static Subject find(final List<Subject> subjects, final String side, final Map<String, String> at) {
        String[] parts = side.split(" ");
        Map<String, String> want = new LinkedHashMap<>();
        want.put("shape", "plain");
        want.put("docSize", "small");
        want.putAll(at);
        for (int i = 1; i < parts.length; i++) {
            String[] kv = parts[i].split("=", 2);
            want.put(kv[0], kv[1]);
        }
        for (Subject s : subjects) {
            if (parts[0].equals(s.subject + "." + s.method) && matches(s.params, want)) {
                return s;
            }
        }
        return null;
    }

    private static boolean matches(final Map<String, String> params, final Map<String, String> want) {
        for (Map.Entry<String, String> w : want.entrySet()) {
            String value = params.get(w.getKey());
            boolean defaulted = value == null && (w.getKey().equals("shape") || w.getKey().equals("docSize"));
            if (!defaulted && !w.getValue().equals(value)) {
                return false;
            }
            if (defaulted && !w.getValue().equals(w.getKey().equals("shape") ? "plain" : "small")) {
                return false;
            }
        }
        return true;
    }

    /** A target's figures: the ratio of the medians and the spread of the per-round ratios; null when not measured. */
    static double[] ratio(final List<Subject> subjects, final Targets.Ratio target) {
        Subject a = find(subjects, target.numerator, target.at);
        Subject b = find(subjects, target.denominator, target.at);
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

    static String markdown(final List<Subject> subjects, final Targets.Set targets) {
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
        out.append("\n#### ").append(targets.title).append(": ratio of the medians, per-round ratios [min-max]\n\n");
        lines = new ArrayList<>();
        for (Targets.Ratio t : targets.ratios) {
            double[] r = ratio(subjects, t);
            lines.add(new String[]{t.numerator + " / " + t.denominator, targets.sizes ? t.size() : t.count(), t.rule(),
                    r == null ? "n/a" : String.format(Locale.ROOT, "%.2fx", r[0]),
                    r == null ? "" : String.format(Locale.ROOT, "[%.2fx-%.2fx]", r[1], r[2]),
                    r == null ? "not measured" : Double.isNaN(t.limit) ? "shown" : r[0] <= t.limit ? "met" : "MISSED"});
        }
        String[] header = {"numerator / denominator", targets.sizes ? "size" : "count", "target", "ratio of medians",
                "per-round ratios", "result"};
        out.append(Report.format(header, lines, true));
        return out.toString();
    }

    static String bytes(final double b) {
        return Double.isNaN(b) ? "?" : String.format(Locale.ROOT, "%,.0f", b);
    }

    /** The report as JSON: per subject every round's value besides the spread, per target the figures of the table. */
    static ObjectNode json(final List<Subject> subjects, final Targets.Set targets) {
        ObjectNode report = ResultFiles.MAPPER.createObjectNode();
        ArrayNode list = report.putArray("subjects");
        for (Subject s : subjects) {
            ObjectNode subject = list.addObject().put("subject", s.subject).put("method", s.method);
            subject.set("params", ResultFiles.MAPPER.valueToTree(s.params));
            s.rounds.keySet().forEach(subject.putArray("rounds")::add);
            subject.set("nsPerOp", values(s.rounds, 0));
            subject.set("bytesPerOp", values(s.rounds, 1));
        }
        ArrayNode judged = report.putArray("targets");
        for (Targets.Ratio t : targets.ratios) {
            ObjectNode target = judged.addObject().put("numerator", t.numerator).put("denominator", t.denominator)
                    .put("metric", t.bytes ? "B/op" : "ns/op").put("count", Integer.parseInt(t.count()));
            for (String key : new String[]{"docSize", "shape"}) {
                if (t.at.containsKey(key)) {
                    target.put(key, t.at.get(key));
                }
            }
            if (!Double.isNaN(t.limit)) {
                target.put("limit", t.limit);
            }
            double[] r = ratio(subjects, t);
            if (r != null) {
                target.put("ratio", number(r[0])).put("perRoundMin", number(r[1])).put("perRoundMax", number(r[2]));
                if (!Double.isNaN(t.limit)) {
                    target.put("met", r[0] <= t.limit);
                }
            }
        }
        return report;
    }

    /** @return the median, minimum, maximum and every round's value of one metric (0: ns/op, 1: B/op), in round order */
    static ObjectNode values(final Map<Integer, double[]> rounds, final int metric) {
        Spread spread = Spread.of(rounds.values().stream().mapToDouble(v -> v[metric]).toArray());
        ObjectNode node = ResultFiles.MAPPER.createObjectNode().put("median", number(spread.median))
                .put("min", number(spread.min)).put("max", number(spread.max));
        ArrayNode values = node.putArray("values");
        rounds.values().forEach(v -> values.add(number(v[metric])));
        return node;
    }

    /** @return the value to 4 decimals, null for NaN */
    static BigDecimal number(final double v) {
        return Double.isNaN(v) ? null : new BigDecimal(String.format(Locale.ROOT, "%.4f", v));
    }
}
