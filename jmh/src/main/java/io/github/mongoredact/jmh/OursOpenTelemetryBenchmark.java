package io.github.mongoredact.jmh;

import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.jmh.support.TracingSdk;
import io.github.mongoredact.otel.OpenTelemetryCommandSink;
import io.opentelemetry.sdk.trace.data.SpanData;
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

/**
 * This library's {@link OpenTelemetryCommandSink} behind the redacting listener under {@code defaults()}, with
 * {@code db.query.text} on at 32 KiB, on the same SDK set-up as {@link OpenTelemetryBenchmark} (every span sampled, ended
 * through a {@code SimpleSpanProcessor} into an exporter that keeps the last span): one started + succeeded pair per
 * operation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
// the OpenTelemetry listener and the SDK are still getting faster after 3 s: 6 s of warm-up, then 8 s measured
@Warmup(iterations = 6, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 8, time = 1, timeUnit = TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class OursOpenTelemetryBenchmark {
    /** The query text's limit of the comparison: 32 KiB, as OpenTelemetry's listener cuts its statement. */
    static final int QUERY_TEXT_MAX_LENGTH = 32 * 1024;
    private TracingSdk tracing;
    private RedactingCommandListener listener;

    /** Builds the SDK, the sink and the listener. */
    @Setup
    public void setUp() {
        tracing = new TracingSdk();
        listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addSink(OpenTelemetryCommandSink.builder(tracing.sdk).queryTextMaxLength(QUERY_TEXT_MAX_LENGTH).build())
                .build();
    }

    /**
     * @param input the two events
     * @return the span ended by the succeeded event
     */
    @Benchmark
    public SpanData startedSucceeded(final PairInput input) {
        listener.commandStarted(input.started);
        listener.commandSucceeded(input.succeeded);
        return tracing.exporter.last;
    }

    /** Every operation must have ended a span that carries the parametrized text. */
    @TearDown
    public void tearDown() {
        tracing.checkTextAndClose("{\"insert\": ", true);
    }
}
