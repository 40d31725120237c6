package io.github.mongoredact.jmh;

import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.jmh.support.MetricsSdk;
import io.github.mongoredact.otel.OpenTelemetryMetricsSink;
import io.opentelemetry.sdk.metrics.data.MetricData;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

import static io.github.mongoredact.jmh.support.Checks.check;
import static io.github.mongoredact.jmh.support.Checks.noFailures;

/**
 * Ours on OpenTelemetry's metrics: the redacting listener with our {@link OpenTelemetryMetricsSink} alone downstream (no
 * document copied) recording {@code db.client.operation.duration} into an SDK meter provider: one started + succeeded pair
 * per op, as {@link MicrometerSinkBenchmark} and {@link MicrometerListenerBenchmark} on Micrometer.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class OpenTelemetryMetricsSinkBenchmark {
    private MetricsSdk metrics;
    private OpenTelemetryMetricsSink sink;
    private RedactingCommandListener listener;

    /** Builds the SDK, the sink and the listener. */
    @Setup
    public void setUp() {
        metrics = new MetricsSdk();
        sink = OpenTelemetryMetricsSink.builder(metrics.sdk).build();
        listener = RedactingCommandListener.builder().addSink(sink).build();
    }

    /**
     * @param input the two events
     * @return the listener
     */
    @Benchmark
    public RedactingCommandListener metricsPair(final MetricsInput input) {
        listener.commandStarted(input.started);
        listener.commandSucceeded(input.succeeded);
        return listener;
    }

    /**
     * The started + succeeded pair of a command of the typical mix.
     *
     * @param input the command's two events
     * @return the listener
     */
    @Benchmark
    public RedactingCommandListener mixPair(final MixInput input) {
        listener.commandStarted(input.started);
        listener.commandSucceeded(input.succeeded);
        return listener;
    }

    /** The duration histogram must have counted the operations. */
    @TearDown
    public void tearDown() {
        noFailures(listener);
        check(sink.getFailures() == 0, "sink failures: " + sink.getFailures());
        long count = 0;
        for (MetricData metric : metrics.collect()) {
            if (metric.getName().equals(OpenTelemetryMetricsSink.OPERATION_DURATION)) {
                count += metric.getHistogramData().getPoints().stream().mapToLong(p -> p.getCount()).sum();
            }
        }
        check(count > 0, "no command recorded");
        metrics.close();
    }
}
