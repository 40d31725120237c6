package io.github.mongoredact.otel;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** An OpenTelemetry SDK whose metrics are read in memory, and what tests read of them. */
public final class Metrics implements AutoCloseable {
    public final InMemoryMetricReader reader = InMemoryMetricReader.create();
    public final SdkMeterProvider provider = SdkMeterProvider.builder().registerMetricReader(reader).build();
    public final OpenTelemetrySdk openTelemetry = OpenTelemetrySdk.builder().setMeterProvider(provider).build();
    private final List<MetricData> collected = new ArrayList<>();

    /** @return every metric collected so far (cumulative: the last collection holds the totals) */
    public List<MetricData> collect() {
        Collection<MetricData> now = reader.collectAllMetrics();
        collected.clear();
        collected.addAll(now);
        return collected;
    }

    /** @return the histogram points of the named metric in the last collection */
    public List<HistogramPointData> points(final String name) {
        List<HistogramPointData> points = new ArrayList<>();
        for (MetricData metric : collected) {
            if (metric.getName().equals(name)) {
                points.addAll(metric.getHistogramData().getPoints());
            }
        }
        return points;
    }

    /** @return the point of the named metric with exactly these attributes, or null */
    public HistogramPointData point(final String name, final Attributes attributes) {
        for (HistogramPointData point : points(name)) {
            if (point.getAttributes().equals(attributes)) {
                return point;
            }
        }
        return null;
    }

    /** @return every text the metrics carry: each metric's name and each point's attributes as key=value */
    public List<String> allTexts() {
        List<String> texts = new ArrayList<>();
        for (MetricData metric : collected) {
            texts.add(metric.getName());
            for (io.opentelemetry.sdk.metrics.data.PointData point : metric.getData().getPoints()) {
                point.getAttributes().forEach((key, value) -> texts.add(key.getKey() + "=" + value));
            }
        }
        return texts;
    }

    @Override
    public void close() {
        provider.close();
    }
}
