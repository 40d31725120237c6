package it.mongoredact;

import com.mongodb.client.MongoClient;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.spring.tracing.TracingSwitch;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;
import java.util.stream.Collectors;

import static it.mongoredact.Workloads.COMMANDS;
import static it.mongoredact.Workloads.PLANTED_EMAIL;
import static it.mongoredact.Workloads.PLANTED_NAME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** mongo-redact.tracing.*: the OpenTelemetry sink with an OpenTelemetry bean, never beside another command tracing. */
@ExtendWith(OutputCaptureExtension.class)
class TracingTest {
    static final String SCOPE = "io.github.mongoredact";

    /** The application's OpenTelemetry, exporting to memory. */
    @Configuration(proxyBeanMethods = false)
    static class OpenTelemetryConfiguration {
        @Bean
        InMemorySpanExporter spanExporter() {
            return InMemorySpanExporter.create();
        }

        @Bean(destroyMethod = "close")
        OpenTelemetrySdk openTelemetry(final InMemorySpanExporter exporter) {
            return OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
        }
    }

    static List<SpanData> ours(final RunningApp app) {
        return app.bean(InMemorySpanExporter.class).getFinishedSpanItems().stream()
                .filter(span -> span.getInstrumentationScopeInfo().getName().equals(SCOPE)).collect(Collectors.toList());
    }

    @Test
    void withAnOpenTelemetryBeanEachCommandGetsOneSpanWithTheRedactedText() {
        try (RunningApp app = RunningApp.sync(List.of(OpenTelemetryConfiguration.class),
                "mongo-redact.tracing.query-text-max-length=500")) {
            assertTrue(app.bean(OpenTelemetry.class) != null);
            Workloads.sync(app.bean(MongoClient.class));
            assertEquals(TracingSwitch.Mode.SINK, app.bean(TracingSwitch.class).getMode());
            assertTrue(app.bean(RedactingCommandListener.class).getSinks().contains(app.bean(TracingSwitch.class)));
            List<SpanData> spans = ours(app);
            assertEquals(COMMANDS, spans.size(), spans.stream().map(SpanData::getName).collect(Collectors.toList()).toString());
            SpanData find = spans.stream().filter(span -> span.getName().equals("find")).findFirst().orElseThrow();
            String text = find.getAttributes().get(AttributeKey.stringKey("db.query.text"));
            assertTrue(text.startsWith("{\"find\": \"users\"") && text.contains("?string"), text);
            for (SpanData span : app.bean(InMemorySpanExporter.class).getFinishedSpanItems()) {
                String all = span.getAttributes().toString() + span.getEvents() + span.getStatus();
                assertFalse(all.contains(PLANTED_EMAIL) || all.contains(PLANTED_NAME), span.getName() + ": " + all);
            }
        }
    }

    @Test
    void turnedOffThereIsNoSpan() {
        try (RunningApp app = RunningApp.sync(List.of(OpenTelemetryConfiguration.class), "mongo-redact.tracing.enabled=false")) {
            Workloads.sync(app.bean(MongoClient.class));
            assertTrue(app.context.getBeansOfType(TracingSwitch.class).isEmpty());
            assertTrue(ours(app).isEmpty());
        }
    }

    @Test
    void noSecondSpanBesideSpringDatasObservationListener(final CapturedOutput output) {
        try (RunningApp app = RunningApp.sync(List.of(OpenTelemetryConfiguration.class,
                TracingLine.SpringDataObservationConfiguration.class))) {
            Workloads.sync(app.bean(MongoClient.class));
            assertEquals(TracingSwitch.Mode.OFF, app.bean(TracingSwitch.class).getMode());
            assertTrue(ours(app).isEmpty(), "no span of ours beside the observation listener");
        }
        assertTrue(output.getAll().contains("already traces each command"), "said why");
    }

    @Test
    void aNegativeQueryTextLengthFailsTheStartNamingTheProperty(final CapturedOutput output) {
        int before = output.getAll().length();
        assertThrows(RuntimeException.class, () -> RunningApp.sync(List.of(OpenTelemetryConfiguration.class),
                "mongo-redact.tracing.query-text-max-length=-1").close());
        String report = output.getAll().substring(before);
        assertTrue(report.contains("Property: mongo-redact.tracing.query-text-max-length"), report);
    }
}
