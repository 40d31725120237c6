package io.github.mongoredact.demo;

import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Prints the meters of a {@link MicrometerCommandSink} as a table: per command and collection, the count, failures, mean and
 * max latency, and the bytes sent and received.
 */
final class MetricsTable {
    private final Map<String, Row> rows = new TreeMap<>();

    private MetricsTable() {
    }

    static MetricsTable of(final MeterRegistry registry) {
        MetricsTable table = new MetricsTable();
        for (Meter meter : registry.getMeters()) {
            String name = meter.getId().getName();
            if (MicrometerCommandSink.COMMANDS.equals(name) && meter instanceof Timer) {
                Timer timer = (Timer) meter;
                Row row = table.row(meter);
                row.count += timer.count();
                if ("FAILED".equals(meter.getId().getTag("status"))) {
                    row.failures += timer.count();
                }
                row.totalNanos += timer.totalTime(TimeUnit.NANOSECONDS);
                row.maxNanos = Math.max(row.maxNanos, timer.max(TimeUnit.NANOSECONDS));
            } else if (MicrometerCommandSink.COMMAND_SIZE.equals(name) && meter instanceof DistributionSummary) {
                table.row(meter).commandBytes += ((DistributionSummary) meter).totalAmount();
            } else if (MicrometerCommandSink.REPLY_SIZE.equals(name) && meter instanceof DistributionSummary) {
                table.row(meter).replyBytes += ((DistributionSummary) meter).totalAmount();
            }
        }
        return table;
    }

    private Row row(final Meter meter) {
        String command = String.valueOf(meter.getId().getTag("command"));
        String collection = String.valueOf(meter.getId().getTag("collection"));
        return rows.computeIfAbsent(command + '\0' + collection, k -> new Row(command, collection));
    }

    /** @return the commands counted, all rows */
    long commands() {
        long sum = 0;
        for (Row row : rows.values()) {
            sum += row.count;
        }
        return sum;
    }

    /** @return the failures counted, all rows */
    long failures() {
        long sum = 0;
        for (Row row : rows.values()) {
            sum += row.failures;
        }
        return sum;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    void print(final PrintStream out) {
        String format = "%-16s %-12s %6s %9s %10s %10s %14s %12s%n";
        out.printf(Locale.ROOT, format, "command", "collection", "count", "failures", "mean ms", "max ms", "command bytes",
                "reply bytes");
        for (Row row : rows.values()) {
            double meanMs = row.count == 0 ? 0 : row.totalNanos / 1e6 / row.count;
            out.printf(Locale.ROOT, format, row.command, row.collection, row.count, row.failures,
                    String.format(Locale.ROOT, "%.3f", meanMs), String.format(Locale.ROOT, "%.3f", row.maxNanos / 1e6),
                    String.format(Locale.ROOT, "%.0f", row.commandBytes), String.format(Locale.ROOT, "%.0f", row.replyBytes));
        }
    }

    private static final class Row {
        final String command;
        final String collection;
        long count;
        long failures;
        double totalNanos;
        double maxNanos;
        double commandBytes;
        double replyBytes;

        Row(final String command, final String collection) {
            this.command = command;
            this.collection = collection;
        }
    }
}
