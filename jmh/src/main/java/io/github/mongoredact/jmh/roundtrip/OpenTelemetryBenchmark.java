package io.github.mongoredact.jmh.roundtrip;

import com.mongodb.event.CommandListener;
import io.opentelemetry.context.Context;
import io.opentelemetry.instrumentation.mongo.v3_1.MongoTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;

import static io.github.mongoredact.jmh.support.Checks.check;

/**
 * The round trip with OpenTelemetry's MongoDB listener ({@code opentelemetry-mongo-3.1} 2.31.1-alpha, sanitized statement on,
 * the default) on an SDK tracer that samples every span and ends each through a {@link SimpleSpanProcessor} into the SDK's
 * no-op exporter: a span made, filled and handed to an exporter per command, and nothing written anywhere.
 */
public class OpenTelemetryBenchmark extends RoundTripBenchmark {
    private SdkTracerProvider tracerProvider;
    private EndedSpans ended;

    @Override
    protected CommandListener listener() {
        ended = new EndedSpans();
        tracerProvider = SdkTracerProvider.builder()
                .setSampler(Sampler.alwaysOn())
                .addSpanProcessor(SimpleSpanProcessor.create(SpanExporter.composite()))
                .addSpanProcessor(ended)
                .build();
        return MongoTelemetry.create(OpenTelemetrySdk.builder().setTracerProvider(tracerProvider).build())
                .createCommandListener();
    }

    @Override
    protected void checkSubject() {
        try {
            checkRoundTrip();
            check(ended.count > 0, "no span ended");
        } finally {
            tracerProvider.close();
        }
    }

    /** Counts the spans that end, on the driver's thread. */
    static final class EndedSpans implements SpanProcessor {
        long count;

        @Override
        public void onStart(final Context parentContext, final ReadWriteSpan span) {
        }

        @Override
        public boolean isStartRequired() {
            return false;
        }

        @Override
        public void onEnd(final ReadableSpan span) {
            count++;
        }

        @Override
        public boolean isEndRequired() {
            return true;
        }
    }
}
