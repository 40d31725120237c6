package io.github.mongoredact.jmh;

import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.jmh.support.TracingSdk;
import io.github.mongoredact.otel.OpenTelemetryCommandSink;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

import static io.github.mongoredact.jmh.support.Checks.check;

/**
 * The floor of any command-span instrumentation on the tracing benchmarks' SDK set-up ({@link TracingSdk}): the SDK alone
 * making and ending the span that {@link OursOpenTelemetryBenchmark} makes, with the same name, kind, parent, timestamps and
 * attributes (the query text included), all computed before the measurement. No redaction, no rendering, no lookup: what is
 * left of a subject's time above this is the subject's own work.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
// the OpenTelemetry listener and the SDK are still getting faster after 3 s: 6 s of warm-up, then 8 s measured
@Warmup(iterations = 6, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 8, time = 1, timeUnit = TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class SpanFloorBenchmark {
    /** {@code bytebuf} or {@code plain}, as in {@link PairInput}. */
    @Param({"bytebuf", "plain"})
    public String shape;
    /** The number of documents in the sequence, as in {@link PairInput}. */
    @Param({"0", "1", "5", "10", "100", "1000"})
    public int count;

    private TracingSdk tracing;
    private Tracer tracer;
    private String name;
    private Attributes attributes;
    private long start;
    private long end;

    /** Sends the pair of {@link PairInput} once through this library's sink and keeps the span it exported. */
    @Setup
    public void setUp() {
        PairInput input = new PairInput();
        input.shape = shape;
        input.count = count;
        input.setUp();
        TracingSdk reference = new TracingSdk();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addSink(OpenTelemetryCommandSink.builder(reference.sdk)
                        .queryTextMaxLength(OursOpenTelemetryBenchmark.QUERY_TEXT_MAX_LENGTH).build())
                .build();
        listener.commandStarted(input.started);
        listener.commandSucceeded(input.succeeded);
        SpanData span = reference.exporter.last;
        check(span != null, "the sink exported no span to copy");
        reference.provider.close();
        name = span.getName();
        attributes = span.getAttributes();
        start = span.getStartEpochNanos();
        end = span.getEndEpochNanos();
        tracing = new TracingSdk();
        tracer = tracing.sdk.getTracer("io.github.mongoredact.jmh");
    }

    /** @return the span ended */
    @Benchmark
    public SpanData startedSucceeded() {
        tracer.spanBuilder(name).setSpanKind(SpanKind.CLIENT).setParent(Context.current())
                .setStartTimestamp(start, TimeUnit.NANOSECONDS).setAllAttributes(attributes).startSpan()
                .end(end, TimeUnit.NANOSECONDS);
        return tracing.exporter.last;
    }

    /** Every operation must have ended a span that carries the parametrized text. */
    @TearDown
    public void tearDown() {
        tracing.checkTextAndClose("{\"insert\": ", true);
    }
}
