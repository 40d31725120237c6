package io.github.mongoredact.jmh.support;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;

import java.util.Collection;

import static io.github.mongoredact.jmh.support.Checks.check;

/**
 * The tracing benchmarks' one SDK set-up: every span sampled and ended through a {@link SimpleSpanProcessor} into an exporter
 * that keeps the last span (a no-op exporter otherwise), so that each subject pays the same SDK.
 */
public final class TracingSdk {
    private static final AttributeKey<String> STATEMENT = AttributeKey.stringKey("db.statement");
    private static final AttributeKey<String> QUERY_TEXT = AttributeKey.stringKey("db.query.text");

    /** The exporter. */
    public final LastSpanExporter exporter = new LastSpanExporter();
    /** The tracer provider. */
    public final SdkTracerProvider provider = SdkTracerProvider.builder().setSampler(Sampler.alwaysOn())
            .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    /** The SDK. */
    public final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(provider).build();

    /**
     * Checks that spans were exported, the last one with a text that starts with {@code prefix}, then closes the SDK.
     *
     * @param prefix how the last span's {@code db.query.text} (or {@code db.statement}) starts
     * @param parametrized whether the values of the text must be placeholders ({@code ?}), or must not
     */
    public void checkTextAndClose(final String prefix, final boolean parametrized) {
        check(exporter.exported > 0, "no span exported");
        SpanData last = exporter.last;
        String text = last.getAttributes().get(QUERY_TEXT);
        if (text == null) {
            text = last.getAttributes().get(STATEMENT);
        }
        // without documents (0 of them) a parametrized text may have no value left to replace
        boolean placeholders = text != null && (text.contains("?") || (parametrized && !text.contains("\"documents\"")));
        check(text != null && text.startsWith(prefix) && placeholders == parametrized, "no text starting with " + prefix
                + (parametrized ? ", with placeholders," : ", verbatim,") + " on the span: " + last.getAttributes());
        provider.close();
    }

    /** Keeps the last span; counts them. */
    public static final class LastSpanExporter implements SpanExporter {
        /** The last span exported. */
        public SpanData last;
        /** How many spans were exported. */
        public long exported;

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
