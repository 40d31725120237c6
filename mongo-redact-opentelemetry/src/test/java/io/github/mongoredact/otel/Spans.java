package io.github.mongoredact.otel;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** An OpenTelemetry SDK that keeps the finished spans in memory, and what tests read of them. */
public final class Spans implements AutoCloseable {
    public final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    public final SdkTracerProvider provider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    public final OpenTelemetrySdk openTelemetry = OpenTelemetrySdk.builder().setTracerProvider(provider).build();

    public List<SpanData> finished() {
        return exporter.getFinishedSpanItems();
    }

    /** @return the finished command spans (kind CLIENT, of this library's tracer) */
    public List<SpanData> commands() {
        return finished().stream().filter(span -> span.getKind() == SpanKind.CLIENT
                && OpenTelemetryCommandSink.INSTRUMENTATION_NAME.equals(span.getInstrumentationScopeInfo().getName()))
                .collect(Collectors.toList());
    }

    public List<SpanData> named(final String name) {
        return commands().stream().filter(span -> span.getName().equals(name)).collect(Collectors.toList());
    }

    public static String text(final SpanData span) {
        return span.getAttributes().get(AttributeKey.stringKey("db.query.text"));
    }

    /** @return every text a span carries: name, status description, each attribute and each event's attributes */
    public static List<String> allTexts(final SpanData span) {
        List<String> texts = new ArrayList<>();
        texts.add(span.getName());
        texts.add(span.getStatus().getDescription());
        addAll(texts, span.getAttributes());
        for (EventData event : span.getEvents()) {
            texts.add(event.getName());
            addAll(texts, event.getAttributes());
        }
        return texts;
    }

    private static void addAll(final List<String> texts, final Attributes attributes) {
        for (Map.Entry<AttributeKey<?>, Object> entry : attributes.asMap().entrySet()) {
            texts.add(entry.getKey().getKey() + "=" + entry.getValue());
        }
    }

    @Override
    public void close() {
        provider.close();
    }
}
