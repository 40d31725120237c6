package io.github.mongoredact.jmh;

import com.mongodb.event.CommandListener;
import io.github.mongoredact.jmh.support.TracingSdk;
import io.opentelemetry.instrumentation.mongo.v3_1.MongoTelemetry;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
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
 * OpenTelemetry's MongoDB library instrumentation ({@code opentelemetry-mongo-3.1}) with its sanitized statement on (the
 * default), on an SDK tracer that samples every span and ends each through a {@link SimpleSpanProcessor} into an exporter
 * that keeps the last span: one started + succeeded pair per operation, as {@link OursDefaultsBenchmark#startedSucceeded}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
// the OpenTelemetry listener and the SDK are still getting faster after 3 s: 6 s of warm-up, then 8 s measured
@Warmup(iterations = 6, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 8, time = 1, timeUnit = TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class OpenTelemetryBenchmark {
    private TracingSdk tracing;
    private CommandListener listener;

    /** Builds the SDK and the instrumentation's listener. */
    @Setup
    public void setUp() {
        tracing = new TracingSdk();
        listener = MongoTelemetry.create(tracing.sdk).createCommandListener();
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

    /** Every operation must have ended a span that carries the sanitized statement. */
    @TearDown
    public void tearDown() {
        tracing.checkTextAndClose("{\"insert\": ", true);
    }
}
