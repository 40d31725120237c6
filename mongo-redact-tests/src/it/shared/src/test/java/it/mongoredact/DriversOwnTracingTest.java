package it.mongoredact;

import com.mongodb.client.MongoClient;
import io.github.mongoredact.observation.DriverTracing;
import io.github.mongoredact.spring.tracing.TracingSwitch;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;

import static it.mongoredact.Workloads.PLANTED_EMAIL;
import static it.mongoredact.Workloads.PLANTED_NAME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An application that turns the driver's own tracing on (driver 5.7+; run on 5.14 by the boot-4.0 project's execution that
 * swaps the driver in): the auto-configuration makes it safe (payload off, the redacted text, scrubbed errors) and adds no
 * span of its own beside it.
 */
class DriversOwnTracingTest {

    /**
     * The application's tracing handler: observations to OpenTelemetry spans the way Micrometer Tracing's default handler makes
     * them (the error recorded as an exception event with the status at {@code onError}, the key values set at the stop),
     * registered after mongo-redact's error handler by bean order.
     */
    @Configuration(proxyBeanMethods = false)
    static class TracingHandlerConfiguration {
        @Bean
        ObservationHandler<Observation.Context> tracingHandler(final OpenTelemetrySdk openTelemetry) {
            Tracer tracer = openTelemetry.getTracer("tracing-handler");
            return new ObservationHandler<>() {
                @Override
                public void onStart(final Observation.Context context) {
                    var parent = context.getParentObservation();
                    Span parentSpan = parent == null ? null : parent.getContextView().get(Span.class);
                    context.put(Span.class, tracer.spanBuilder(context.getContextualName() != null
                            ? context.getContextualName() : context.getName())
                            .setParent(parentSpan == null ? Context.root() : Context.root().with(parentSpan)).startSpan());
                }

                @Override
                public void onError(final Observation.Context context) {
                    Span span = context.get(Span.class);
                    span.recordException(context.getError());
                    span.setStatus(StatusCode.ERROR, String.valueOf(context.getError().getMessage()));
                }

                @Override
                public void onStop(final Observation.Context context) {
                    Span span = context.get(Span.class);
                    for (KeyValue keyValue : context.getAllKeyValues()) {
                        span.setAttribute(keyValue.getKey(), keyValue.getValue());
                    }
                    span.end();
                }

                @Override
                public boolean supportsContext(final Observation.Context context) {
                    return true;
                }
            };
        }
    }

    @Test
    void theDriversOwnSpansCarryTheRedactedTextAndNoValue() {
        assertTrue(DriverTracing.isSupported(), "runs on a driver with its own tracing");
        try (RunningApp app = RunningApp.sync(List.of(TracingTest.OpenTelemetryConfiguration.class,
                TracingHandlerConfiguration.class, TracingLine.DriversOwnTracingConfiguration.class),
                "mongo-redact.tracing.query-text-max-length=500")) {
            Workloads.sync(app.bean(MongoClient.class));
            assertEquals(TracingSwitch.Mode.DRIVER, app.bean(TracingSwitch.class).getMode());
            List<SpanData> spans = app.bean(InMemorySpanExporter.class).getFinishedSpanItems();
            assertTrue(TracingTest.ours(app).isEmpty(), "never both");
            SpanData operation = spans.stream().filter(span -> span.getName().equals("find test.users")).findFirst()
                    .orElseThrow(() -> new AssertionError(spans.toString()));
            SpanData find = spans.stream().filter(span -> span.getName().equals("find")).findFirst().orElseThrow();
            assertEquals(operation.getSpanId(), find.getParentSpanId());
            String text = find.getAttributes().get(AttributeKey.stringKey("db.query.text"));
            assertTrue(text != null && text.contains("?string"), "the redacted text: " + text);
            for (SpanData span : spans) {
                String all = span.getAttributes().toString() + span.getEvents() + span.getStatus();
                assertFalse(all.contains(PLANTED_EMAIL) || all.contains(PLANTED_NAME), span.getName() + ": " + all);
            }
            assertTrue(spans.stream().anyMatch(span -> !span.getEvents().isEmpty()), "the duplicate key's scrubbed event");
        }
    }
}
