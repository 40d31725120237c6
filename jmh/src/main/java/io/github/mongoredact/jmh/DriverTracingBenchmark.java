package io.github.mongoredact.jmh;

import com.mongodb.observability.ObservabilitySettings;
import com.mongodb.observability.micrometer.MongodbObservation;
import com.mongodb.observability.micrometer.MongodbObservationContext;
import com.mongodb.internal.observability.micrometer.Span;
import com.mongodb.internal.observability.micrometer.TracingManager;
import io.github.mongoredact.jmh.support.TracingSdk;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
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

import static io.github.mongoredact.jmh.support.Checks.check;

/**
 * The driver's own tracing (5.14, Micrometer Observation) with the command payload on at 32 KiB, into Micrometer Tracing's
 * OpenTelemetry bridge on the same SDK set-up as {@link OpenTelemetryBenchmark} ({@link TracingSdk}): per operation, what the driver does for one
 * command (it has no listener to call): its command span made through its tracing manager, the domain fields set, the query
 * text rendered from the command, the scope opened and closed, the span ended. The command is the started event's, so the
 * driver's own hydration of it for tracing is not counted.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
// the OpenTelemetry listener and the SDK are still getting faster after 3 s: 6 s of warm-up, then 8 s measured
@Warmup(iterations = 6, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 8, time = 1, timeUnit = TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class DriverTracingBenchmark {
    private TracingSdk tracing;
    private TracingManager manager;

    /** Builds the SDK, the tracing handler, the registry and the driver's tracing manager. */
    @Setup
    public void setUp() {
        tracing = new TracingSdk();
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(new OtelTracer(
                tracing.sdk.getTracer("micrometer"), new OtelCurrentTraceContext(), event -> { })));
        manager = new TracingManager(ObservabilitySettings.micrometerBuilder().observationRegistry(registry)
                .enableCommandPayloadTracing(true).maxQueryTextLength(OursOpenTelemetryBenchmark.QUERY_TEXT_MAX_LENGTH)
                .build());
        check(manager.isCommandPayloadEnabled(), "payload tracing is on");
    }

    /**
     * @param input the started event, whose command the span renders
     * @return the span ended
     */
    @Benchmark
    public SpanData startedSucceeded(final PairInput input) {
        Span span = manager.addSpan(MongodbObservation.MONGODB_COMMAND, input.started.getCommandName(), null);
        MongodbObservationContext context = span.getMongodbObservationContext();
        context.setCommandName(input.started.getCommandName());
        context.setDatabaseName(input.started.getDatabaseName());
        context.setCollectionName("users");
        context.setServerAddress(input.started.getConnectionDescription().getServerAddress());
        context.setConnectionId(input.started.getConnectionDescription().getConnectionId());
        span.setQueryText(input.started.getCommand());
        span.openScope();
        span.closeScope();
        span.end();
        return tracing.exporter.last;
    }

    /** Every operation must have ended a span that carries the command's text. */
    @TearDown
    public void tearDown() {
        tracing.checkTextAndClose("{\"insert\": ", false);
    }
}
