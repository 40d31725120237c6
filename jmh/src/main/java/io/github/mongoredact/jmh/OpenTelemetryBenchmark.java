package io.github.mongoredact.jmh;

import com.mongodb.event.CommandListener;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.instrumentation.mongo.v3_1.MongoTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
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

import java.util.Collection;

import static io.github.mongoredact.jmh.support.Checks.check;

/**
 * OpenTelemetry's MongoDB library instrumentation ({@code opentelemetry-mongo-3.1}) with its sanitized statement on (the
 * default), on an SDK tracer that samples every span and ends each through a {@link SimpleSpanProcessor} into an exporter
 * that keeps the last span: one started + succeeded pair per operation, as {@link OursDefaultsBenchmark#startedSucceeded}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class OpenTelemetryBenchmark {
    private static final AttributeKey<String> STATEMENT = AttributeKey.stringKey("db.statement");
    private static final AttributeKey<String> QUERY_TEXT = AttributeKey.stringKey("db.query.text");

    private SdkTracerProvider tracerProvider;
    private CommandListener listener;
    private LastSpanExporter exporter;

    /** Builds the SDK and the instrumentation's listener. */
    @Setup
    public void setUp() {
        exporter = new LastSpanExporter();
        tracerProvider = SdkTracerProvider.builder()
                .setSampler(Sampler.alwaysOn())
                .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                .build();
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(tracerProvider).build();
        listener = MongoTelemetry.create(sdk).createCommandListener();
    }

    /**
     * @param input the two events
     * @return the span ended by the succeeded event
     */
    @Benchmark
    public SpanData startedSucceeded(final PairInput input) {
        listener.commandStarted(input.started);
        listener.commandSucceeded(input.succeeded);
        return exporter.last;
    }

    /** Every operation must have ended a span that carries the sanitized statement. */
    @TearDown
    public void tearDown() {
        check(exporter.exported > 0, "no span exported");
        SpanData last = exporter.last;
        String statement = last.getAttributes().get(QUERY_TEXT);
        if (statement == null) {
            statement = last.getAttributes().get(STATEMENT);
        }
        check(statement != null && statement.contains("?"), "no sanitized statement on the span: " + last.getAttributes());
        tracerProvider.close();
    }

    /** Keeps the last span; counts them. */
    static final class LastSpanExporter implements SpanExporter {
        SpanData last;
        long exported;

        @Override
        public CompletableResultCode export(final Collection<SpanData> spans) {
            for (SpanData span : spans) {
                last = span;
                exported++;
            }
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
