package io.github.mongoredact.demo;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoServerException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.event.CommandListener;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.github.mongoredact.ListenerCounters;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.log.CommandLogSink;
import io.github.mongoredact.micrometer.ListenerCountersMetrics;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The demo: runs a customer workload through the MongoDB Java driver with the {@link RedactingCommandListener} registered on
 * {@link MongoClientSettings}, its log sink writing through SLF4J and its metrics sink recording in Micrometer, then prints
 * the metrics as a table and a summary. Against the embedded in-memory server by default, or a real deployment with
 * {@code --uri}. Run it with {@code mvn -q -Pdemo} (options: {@code -Dexec.args="--policy none"}).
 */
public final class Demo {
    /** The logger the demo's log sink writes to. */
    static final String LOGGER_NAME = "io.github.mongoredact.demo.command";

    private Demo() {
    }

    /**
     * Runs the demo and exits with its exit code: 0 done, 1 the workload failed, 2 bad options.
     *
     * @param args the command line, see {@code --help}
     */
    public static void main(final String[] args) {
        logToStandardOutput();
        int code = run(args, System.out);
        System.out.flush();
        System.exit(code);
    }

    /** The demo runs with slf4j-simple: lines on standard output, without the thread name; others' logs quiet. */
    static void logToStandardOutput() {
        setIfAbsent("org.slf4j.simpleLogger.logFile", "System.out");
        setIfAbsent("org.slf4j.simpleLogger.showThreadName", "false");
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        setIfAbsent("org.slf4j.simpleLogger.log.de.bwaldvogel", "off"); // the server logs the commands it rejects
    }

    /**
     * Runs the demo. The command log goes through SLF4J (the demo's logger is set to DEBUG unless configured); everything
     * else is printed to {@code out}.
     *
     * @param args the command line, see {@code --help}
     * @param out where to print
     * @return the exit code: 0 done, 1 the workload failed, 2 bad options
     */
    public static int run(final String[] args, final PrintStream out) {
        DemoOptions options;
        try {
            options = DemoOptions.parse(args);
        } catch (DemoOptions.BadOptionException e) {
            out.println("mongo-redact demo: " + e.getMessage());
            out.println("Run with --help to see the options.");
            return 2;
        }
        if (options.help()) {
            out.println(DemoOptions.USAGE);
            return 0;
        }
        setIfAbsent("org.slf4j.simpleLogger.log." + LOGGER_NAME, "debug");

        MongoServer server = null;
        MongoClient client = null;
        SpanTree spans = null;
        try {
            String uri = options.uri();
            String where;
            if (uri == null) {
                server = new MongoServer(new MemoryBackend());
                server.bind("127.0.0.1", 0);
                int port = server.getLocalAddress().getPort();
                uri = "mongodb://127.0.0.1:" + port;
                where = "the embedded in-memory server (mongo-java-server) at 127.0.0.1:" + port;
            } else {
                where = "the deployment at " + new ConnectionString(uri).getHosts(); // never the credentials
            }

            // the query text is the redacted command: none under 'none', whose values it would print
            spans = new SpanTree("none".equals(options.policyName()) ? 0 : 160);
            // What an application does: sinks, the listener, and the listener on MongoClientSettings.
            MongoClientSettings.Builder settings = MongoClientSettings.builder()
                    .applyConnectionString(new ConnectionString(uri))
                    .applyToLoggerSettings(logger -> logger.maxDocumentLength(600));
            CommandLogSink logSink = CommandLogSink.builder()
                    .loggerName(LOGGER_NAME)
                    .loggerSettings(settings.build()) // cut documents where the driver's own log would
                    .errorLevel(CommandLogSink.Level.WARN) // failures and write errors stand out
                    .build();
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            // the size summaries are opt-in: the demo's table shows command and reply bytes
            MicrometerCommandSink metricsSink = MicrometerCommandSink.builder(registry).sizeSummaries(true).build();

            // The demo measures the listener's allocations by wrapping it and its sinks.
            AllocationMeter meter = AllocationMeter.createOrNull();
            RedactingCommandListener listener = RedactingCommandListener.builder()
                    .policy(options.policy())
                    .addSink(meter == null ? logSink : meter.wrap(logSink))
                    .addSink(meter == null ? metricsSink : meter.wrap(metricsSink))
                    .addSink(meter == null ? spans.sink : meter.wrap(spans.sink))
                    .build();
            new ListenerCountersMetrics(listener.getCounters()).bindTo(registry);
            CommandListener registered = meter == null ? listener : meter.wrap(listener);

            settings.addCommandListener(registered);

            out.println("mongo-redact demo: policy '" + options.policyName() + "', against " + where + ".");
            out.println("The command log is written by CommandLogSink through SLF4J (logger " + LOGGER_NAME + ", DEBUG;"
                    + " errors at WARN),");
            out.println("in the driver's own format; the driver's org.mongodb.driver.protocol.command logger stays off.");
            out.println();
            out.flush();

            client = MongoClients.create(settings.build());
            MongoClient workloadClient = client;
            SpanTree tree = spans;
            tree.inRootSpan("demo workload", () -> new Workload(workloadClient, out).run());
            client.close();
            client = null;

            out.println();
            out.println("Metrics (Micrometer " + MicrometerCommandSink.COMMANDS + ", per command and collection):");
            MetricsTable table = MetricsTable.of(registry);
            table.print(out);
            out.println();
            spans.print(out);
            out.println();
            out.println(summary(options, table, listener.getCounters(), meter));
            out.flush();
            return 0;
        } catch (RuntimeException e) {
            out.println();
            out.println("mongo-redact demo failed: " + describe(e));
            return 1;
        } finally {
            try {
                if (client != null) {
                    client.close();
                }
            } finally {
                if (spans != null) {
                    spans.close();
                }
                if (server != null) {
                    server.shutdownNow();
                }
            }
        }
    }

    private static String summary(final DemoOptions options, final MetricsTable table, final ListenerCounters counters,
                                  final AllocationMeter meter) {
        StringBuilder summary = new StringBuilder();
        summary.append("Summary: ").append(table.commands()).append(" commands (").append(table.failures())
                .append(" with errors) went through the redacting listener under the '").append(options.policyName())
                .append("' policy. It replaced ").append(counters.getValuesRedacted())
                .append(" values with placeholders (ListenerCounters.getValuesRedacted()) and forwarded ")
                .append(counters.getEventsForwarded()).append(" events, with ").append(counters.getRedactionFailures())
                .append(" redaction failures and ").append(counters.getSinkFailures()).append(" sink failures.");
        if (meter == null || meter.events() == 0) {
            summary.append(" This JVM can not count allocated bytes per thread, so no allocation figure is given.");
            return summary.toString();
        }
        int events = meter.events();
        long total = meter.total();
        long sinks = meter.sinks();
        summary.append(String.format(Locale.ROOT, " Allocation, measured in this run with"
                        + " ThreadMXBean.getThreadAllocatedBytes around each of the %d callbacks: the listener itself"
                        + " (copying and redacting) allocated %d bytes per event on average (median %d), for %d bytes per"
                        + " event of redacted documents handed to the sinks; the log, metrics and span sinks allocated %d bytes"
                        + " per event more, mostly the log lines' text. These figures include each code path's first use in"
                        + " this JVM; the JMH benchmarks in jmh/ measure the steady state.",
                events, (total - sinks) / events, meter.median(), meter.copied() / events, sinks / events));
        return summary.toString();
    }

    /** A failure in one line, without server messages (they quote the values). */
    private static String describe(final RuntimeException e) {
        if (e instanceof MongoServerException) {
            MongoServerException server = (MongoServerException) e;
            return e.getClass().getName() + " code " + server.getCode()
                    + (server.getErrorCodeName() == null ? "" : " (" + server.getErrorCodeName() + ")");
        }
        return e.getClass().getName() + ": " + e.getMessage();
    }

    private static void setIfAbsent(final String key, final String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
