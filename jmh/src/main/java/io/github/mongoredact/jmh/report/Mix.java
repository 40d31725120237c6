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
import java.util.TreeSet;
import java.util.function.DoubleFunction;

/**
 * The report of {@code run-mix.sh}: the typical command mix ({@code MixCommands}) measured in interleaved rounds, one JMH
 * result file per subject and round ({@code round-<r>-<name>.json}, all commands in each). Per subject and command: the
 * median over the rounds of ns/op and B/op with [min-max]; the mix's weighted mean; and ours against the floors and the
 * peers, per command and on the weighted mean, with issue 20's limits where they apply.
 *
 * <p>The weights (default {@link #WEIGHTS}, or {@code --weights findById=35,findIndexed=25,...}) are the share of each command
 * among the events of a typical read-mostly service: reads three to one over writes, point reads by {@code _id} the most
 * frequent, a getMore for the one cursor in ten that runs past its first batch. The weighted mean is
 * {@code sum(weight * value) / sum(weight)}, per round; its spread is over the rounds.</p>
 *
 * <pre>
 * java -cp target/benchmarks.jar io.github.mongoredact.jmh.report.Mix report [--markdown f] [--json f]
 *      [--weights findById=35,...] round-*.json
 * </pre>
 */
public final class Mix {
    /** The commands, in the order of the tables. */
    static final List<String> COMMANDS = List.of("findById", "findIndexed", "updateOne", "insertOne", "aggregate", "getMore");
    /** The share of each command among the events, in percent. */
    static final Map<String, Double> WEIGHTS = weights("findById=35,findIndexed=25,updateOne=15,insertOne=10,aggregate=5,"
            + "getMore=10");
    /** The subjects, as {@code Subject.method} and the parameters that pick a variant. */
    static final List<String> ROWS = List.of("OursSpecOnly.mix", "FloorFramingCopy.mix", "FloorForwarded.mix floor=framingCopy",
            "Clone.mix", "OursDefaults.mix", "FloorOnePass.mix", "FloorForwarded.mix floor=onePass", "CodecEncoding.mix",
            "MicrometerSink.mixPair", "MicrometerListener.mixPair");
    /**
     * The comparisons: numerator, denominator, limit. {@code clone}: 2.0x where the command is held as one buffer (reads, and
     * the getMore reply), 1.0x on a plain top level (writes); NaN: shown, not judged.
     */
    static final List<String[]> RATIOS = List.of(
            new String[]{"OursSpecOnly.mix", "FloorFramingCopy.mix", "1.2"},
            new String[]{"OursSpecOnly.mix", "Clone.mix", "clone"},
            new String[]{"OursSpecOnly.mix", "FloorForwarded.mix floor=framingCopy", "NaN"},
            new String[]{"OursDefaults.mix", "FloorOnePass.mix", "1.5"},
            new String[]{"OursDefaults.mix", "CodecEncoding.mix", "0.5"},
            new String[]{"OursDefaults.mix", "FloorForwarded.mix floor=onePass", "NaN"},
            new String[]{"MicrometerSink.mixPair", "MicrometerListener.mixPair", "1.0"});
    private static final String MEAN = "weighted mean";

    private Mix() {
    }

    /**
     * @param args {@code report [--markdown f] [--json f] [--weights c=w,...] file...}
     * @throws IOException when a file can not be read or written
     */
    public static void main(final String[] args) throws IOException {
        List<String> rest = new ArrayList<>();
        Map<String, String> options = Rounds.options(args, rest);
        List<Path> files = new ArrayList<>();
        rest.forEach(f -> files.add(Paths.get(f)));
        if (args.length == 0 || !args[0].equals("report") || files.isEmpty()) {
            System.err.println("usage: Mix report [--markdown f] [--json f] [--weights findById=35,...] round-<r>-<name>.json...");
            System.exit(2);
        }
        Map<String, Double> weights = options.containsKey("weights") ? weights(options.get("weights")) : WEIGHTS;
        List<Rounds.Subject> subjects = Rounds.load(files);
        String markdown = markdown(subjects, weights);
        System.out.print(markdown);
        if (options.containsKey("markdown")) {
            Files.write(Paths.get(options.get("markdown")), markdown.getBytes(StandardCharsets.UTF_8));
        }
        if (options.containsKey("json")) {
            ResultFiles.write(Paths.get(options.get("json")), json(subjects, weights), 3);
        }
    }

    static Map<String, Double> weights(final String text) {
        Map<String, Double> weights = new LinkedHashMap<>();
        for (String pair : text.split(",")) {
            String[] kv = pair.split("=", 2);
            if (!COMMANDS.contains(kv[0].trim())) {
                throw new IllegalArgumentException("no command " + kv[0] + " in the mix: " + COMMANDS);
            }
            weights.put(kv[0].trim(), Double.parseDouble(kv[1]));
        }
        if (!weights.keySet().containsAll(COMMANDS)) {
            throw new IllegalArgumentException("a weight for every command: " + COMMANDS + ", got " + weights.keySet());
        }
        return weights;
    }

    /** One subject's values per command and round, metric 0 = ns/op, 1 = B/op; with the weighted mean per round. */
    static final class Row {
        final String name;
        final Map<String, Rounds.Subject> commands = new LinkedHashMap<>();
        final Map<Integer, double[]> mean = new LinkedHashMap<>();

        Row(final String name, final List<Rounds.Subject> subjects, final Map<String, Double> weights) {
            this.name = name;
            for (String command : COMMANDS) {
                Rounds.Subject s = Rounds.find(subjects, name, Map.of("command", command));
                if (s != null) {
                    commands.put(command, s);
                }
            }
            TreeSet<Integer> rounds = new TreeSet<>();
            commands.values().forEach(s -> rounds.addAll(s.rounds.keySet()));
            for (int r : rounds) {
                double[] sum = new double[2];
                double total = 0;
                boolean complete = commands.size() == COMMANDS.size();
                for (Map.Entry<String, Rounds.Subject> c : commands.entrySet()) {
                    double[] v = c.getValue().rounds.get(r);
                    if (v == null) {
                        complete = false;
                        break;
                    }
                    double w = weights.get(c.getKey());
                    sum[0] += w * v[0];
                    sum[1] += w * v[1];
                    total += w;
                }
                if (complete) {
                    mean.put(r, new double[]{sum[0] / total, sum[1] / total});
                }
            }
        }

        /** @return the values of the command ({@link #MEAN} for the weighted mean) per round, or null */
        Map<Integer, double[]> rounds(final String command) {
            if (command.equals(MEAN)) {
                return mean.isEmpty() ? null : mean;
            }
            Rounds.Subject s = commands.get(command);
            return s == null ? null : s.rounds;
        }

        Spread spread(final String command, final int metric) {
            Map<Integer, double[]> rounds = rounds(command);
            return rounds == null ? null : Spread.of(rounds.values().stream().mapToDouble(v -> v[metric]).toArray());
        }
    }

    /** @return the ratio of the medians and the spread of the per-round ratios of ns/op, or null when not measured */
    static double[] ratio(final Row a, final Row b, final String command) {
        Map<Integer, double[]> ra = a.rounds(command);
        Map<Integer, double[]> rb = b.rounds(command);
        if (ra == null || rb == null) {
            return null;
        }
        List<Double> perRound = new ArrayList<>();
        for (Map.Entry<Integer, double[]> e : ra.entrySet()) {
            double[] other = rb.get(e.getKey());
            if (other != null) {
                perRound.add(e.getValue()[0] / other[0]);
            }
        }
        Spread spread = Spread.of(perRound.stream().mapToDouble(Double::doubleValue).toArray());
        return new double[]{a.spread(command, 0).median / b.spread(command, 0).median, spread.min, spread.max};
    }

    /** @return the limit of a comparison for a command; NaN where none applies (shown ratios, and the mixed clone limit) */
    static double limit(final String limit, final String command) {
        if (limit.equals("clone")) {
            if (command.equals(MEAN)) {
                return Double.NaN;
            }
            return command.equals("updateOne") || command.equals("insertOne") ? 1.0 : 2.0;
        }
        return Double.parseDouble(limit);
    }

    static List<Row> rows(final List<Rounds.Subject> subjects, final Map<String, Double> weights) {
        List<Row> rows = new ArrayList<>();
        for (String name : ROWS) {
            rows.add(new Row(name, subjects, weights));
        }
        return rows;
    }

    static String markdown(final List<Rounds.Subject> subjects, final Map<String, Double> weights) {
        List<Row> rows = rows(subjects, weights);
        List<String> columns = new ArrayList<>(COMMANDS);
        columns.add(MEAN);
        StringBuilder weightText = new StringBuilder();
        for (Map.Entry<String, Double> w : weights.entrySet()) {
            weightText.append(weightText.length() > 0 ? ", " : "").append(w.getKey()).append(' ')
                    .append(String.format(Locale.ROOT, "%.0f", w.getValue()));
        }
        StringBuilder out = new StringBuilder();
        out.append("#### The mix, ns/op: median over the rounds [min-max]\n\nWeights: ").append(weightText).append(".\n\n");
        out.append(table(rows, columns, 0, Report::time));
        out.append("\n#### The mix, B/op: median over the rounds\n\n");
        out.append(table(rows, columns, 1, Rounds::bytes));
        out.append("\n#### Ours against the floors and the peers on the mix, ns/op: ratio of the medians "
                + "[per-round min-max]\n\n");
        List<String[]> lines = new ArrayList<>();
        for (String[] r : RATIOS) {
            Row a = find(rows, r[0]);
            Row b = find(rows, r[1]);
            List<String> line = new ArrayList<>();
            line.add(r[0] + " / " + r[1]);
            line.add(r[2].equals("clone") ? "<= 2.00x one buffer, <= 1.00x plain" : r[2].equals("NaN") ? "(shown)"
                    : String.format(Locale.ROOT, "<= %.2fx", Double.parseDouble(r[2])));
            for (String command : columns) {
                double[] ratio = ratio(a, b, command);
                double limit = limit(r[2], command);
                line.add(ratio == null ? "n/a" : String.format(Locale.ROOT, "%.2fx [%.2fx-%.2fx]%s", ratio[0], ratio[1], ratio[2],
                        Double.isNaN(limit) ? "" : ratio[0] <= limit ? " met" : " MISSED"));
            }
            lines.add(line.toArray(new String[0]));
        }
        List<String> header = new ArrayList<>(List.of("ours / floor or peer", "target"));
        header.addAll(columns);
        out.append(Report.format(header.toArray(new String[0]), lines, true));
        return out.toString();
    }

    private static String table(final List<Row> rows, final List<String> columns, final int metric,
                                final DoubleFunction<String> format) {
        List<String[]> lines = new ArrayList<>();
        for (Row row : rows) {
            List<String> line = new ArrayList<>();
            line.add(row.name);
            for (String command : columns) {
                Spread s = row.spread(command, metric);
                line.add(s == null ? "n/a" : metric == 0 ? s.text(format) : format.apply(s.median));
            }
            lines.add(line.toArray(new String[0]));
        }
        List<String> header = new ArrayList<>(List.of("subject"));
        header.addAll(columns);
        String table = Report.format(header.toArray(new String[0]), lines, true);
        // the subject column is text, the rest numbers: only the first column left-aligned
        return table.replaceFirst("\\| --- \\| --- \\|", "| --- | ---: |");
    }

    private static Row find(final List<Row> rows, final String name) {
        for (Row row : rows) {
            if (row.name.equals(name)) {
                return row;
            }
        }
        throw new IllegalArgumentException("no row " + name);
    }

    /** The report as JSON: per subject and command (and the weighted mean) every round's value, per comparison the ratios. */
    static ObjectNode json(final List<Rounds.Subject> subjects, final Map<String, Double> weights) {
        List<Row> rows = rows(subjects, weights);
        List<String> columns = new ArrayList<>(COMMANDS);
        columns.add(MEAN);
        ObjectNode report = ResultFiles.MAPPER.createObjectNode();
        report.set("weights", ResultFiles.MAPPER.valueToTree(weights));
        ArrayNode list = report.putArray("subjects");
        for (Row row : rows) {
            ObjectNode subject = list.addObject().put("subject", row.name);
            for (String command : columns) {
                Map<Integer, double[]> rounds = row.rounds(command);
                if (rounds != null) {
                    ObjectNode c = subject.putObject(command);
                    c.set("nsPerOp", Rounds.values(rounds, 0));
                    c.set("bytesPerOp", Rounds.values(rounds, 1));
                }
            }
        }
        ArrayNode ratios = report.putArray("ratios");
        for (String[] r : RATIOS) {
            ObjectNode ratio = ratios.addObject().put("numerator", r[0]).put("denominator", r[1]);
            for (String command : columns) {
                double[] v = ratio(find(rows, r[0]), find(rows, r[1]), command);
                if (v != null) {
                    ObjectNode c = ratio.putObject(command).put("ratio", Rounds.number(v[0])).put("perRoundMin", Rounds.number(v[1]))
                            .put("perRoundMax", Rounds.number(v[2]));
                    double limit = limit(r[2], command);
                    if (!Double.isNaN(limit)) {
                        c.put("limit", limit).put("met", v[0] <= limit);
                    }
                }
            }
        }
        return report;
    }
}
