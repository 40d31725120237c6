package io.github.mongoredact.demo;

import io.github.mongoredact.otel.OpenTelemetryCommandSink;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The demo's traces: an OpenTelemetry SDK that keeps the spans in memory, this library's {@link OpenTelemetryCommandSink} on
 * the demo's listener (with {@code db.query.text}), the workload run inside one span of the application's, and the spans
 * printed as a tree: name, duration, summary, status and the parametrized text. An application exports the same spans with
 * OTLP instead (see docs/tracing.md).
 */
final class SpanTree implements AutoCloseable {
    private static final AttributeKey<String> SUMMARY = AttributeKey.stringKey("db.query.summary");
    private static final AttributeKey<String> TEXT = AttributeKey.stringKey("db.query.text");
    private static final AttributeKey<String> STATUS_CODE = AttributeKey.stringKey("db.response.status_code");

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final SdkTracerProvider provider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    private final OpenTelemetrySdk openTelemetry = OpenTelemetrySdk.builder().setTracerProvider(provider).build();
    /** The sink the demo adds to its listener. */
    final OpenTelemetryCommandSink sink;

    SpanTree(final int queryTextMaxLength) {
        sink = OpenTelemetryCommandSink.builder(openTelemetry).queryTextMaxLength(queryTextMaxLength).build();
    }

    /** Runs the work inside a span of the application's: the command spans become its children. */
    void inRootSpan(final String name, final Runnable work) {
        Span root = openTelemetry.getTracer("mongo-redact-demo").spanBuilder(name).startSpan();
        try (Scope ignored = root.makeCurrent()) {
            work.run();
        } finally {
            root.end();
        }
    }

    /** Prints the finished spans as a tree, children in the order they started. */
    void print(final PrintStream out) {
        List<SpanData> spans = new ArrayList<>(exporter.getFinishedSpanItems());
        spans.sort(Comparator.comparingLong(SpanData::getStartEpochNanos));
        out.println("Spans (OpenTelemetryCommandSink, " + spans.size() + " spans; a backend gets them through OTLP):");
        for (SpanData span : spans) {
            if (!span.getParentSpanContext().isValid()) {
                print(out, span, spans, "");
            }
        }
    }

    private static void print(final PrintStream out, final SpanData span, final List<SpanData> spans, final String indent) {
        StringBuilder line = new StringBuilder(indent).append(span.getName()).append(String.format(Locale.ROOT, "  %.3f ms",
                (span.getEndEpochNanos() - span.getStartEpochNanos()) / 1_000_000.0));
        String summary = span.getAttributes().get(SUMMARY);
        if (summary != null) {
            line.append("  [").append(summary).append(']');
        }
        if (span.getStatus().getStatusCode() == StatusCode.ERROR) {
            line.append("  ERROR ").append(span.getAttributes().get(STATUS_CODE)).append(' ')
                    .append(span.getStatus().getDescription());
        }
        String text = span.getAttributes().get(TEXT);
        if (text != null) {
            line.append("  ").append(text);
        }
        out.println(line);
        for (SpanData child : spans) {
            if (child.getParentSpanId().equals(span.getSpanId())) {
                print(out, child, spans, indent + "  ");
            }
        }
    }

    @Override
    public void close() {
        provider.close();
    }
}
