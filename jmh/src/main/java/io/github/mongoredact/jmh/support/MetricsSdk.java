package io.github.mongoredact.jmh.support;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.CollectionRegistration;
import io.opentelemetry.sdk.metrics.export.MetricReader;

import java.util.Collection;

/**
 * The OpenTelemetry metrics benchmarks' SDK: a meter provider with a reader that collects only when asked (after the trial),
 * so that each measurement pays the SDK's recording and no export. A provider without a reader would hand out no-op
 * instruments.
 */
public final class MetricsSdk {
    private final Reader reader = new Reader();
    /** The meter provider. */
    public final SdkMeterProvider provider = SdkMeterProvider.builder().registerMetricReader(reader).build();
    /** The SDK. */
    public final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setMeterProvider(provider).build();

    /** @return the metrics recorded so far (cumulative) */
    public Collection<MetricData> collect() {
        return reader.registration.collectAllMetrics();
    }

    /** Closes the provider. */
    public void close() {
        provider.close();
    }

    /** A reader that collects on demand. */
    private static final class Reader implements MetricReader {
        private volatile CollectionRegistration registration = CollectionRegistration.noop();

        @Override
        public void register(final CollectionRegistration collectionRegistration) {
            this.registration = collectionRegistration;
        }

        @Override
        public AggregationTemporality getAggregationTemporality(final InstrumentType instrumentType) {
            return AggregationTemporality.CUMULATIVE;
        }

        @Override
        public CompletableResultCode forceFlush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
