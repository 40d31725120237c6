package io.github.mongoredact.spring.tracing;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code mongo-redact.opentelemetry-metrics.*} configuration properties: OpenTelemetry's database client metrics
 * ({@code db.client.operation.duration}, and opt-in {@code db.client.response.returned_rows}) through the application's
 * {@code OpenTelemetry} bean, where mongo-redact-opentelemetry is on the class path.
 *
 * <p>Lifetime and threading: bound once by Spring Boot at start-up, then read; not thread-safe while it is being bound.</p>
 *
 * @since 0.6
 */
@ConfigurationProperties(prefix = "mongo-redact.opentelemetry-metrics")
public class MongoRedactOpenTelemetryMetricsProperties {

    /** Whether to record db.client.operation.duration through the application's OpenTelemetry bean. */
    private boolean enabled = true;

    /**
     * Whether to record db.client.response.returned_rows, the documents of each cursor reply's batch: it has every reply
     * copied and redacted, whose batch is counted.
     */
    private boolean returnedRows;

    /** @return whether to record the OpenTelemetry database client metrics */
    public boolean isEnabled() {
        return enabled;
    }

    /** @param enabled whether to record the OpenTelemetry database client metrics */
    public void setEnabled(final boolean enabled) {
        this.enabled = enabled;
    }

    /** @return whether to record db.client.response.returned_rows */
    public boolean isReturnedRows() {
        return returnedRows;
    }

    /** @param returnedRows whether to record db.client.response.returned_rows */
    public void setReturnedRows(final boolean returnedRows) {
        this.returnedRows = returnedRows;
    }

    @Override
    public String toString() {
        return "MongoRedactOpenTelemetryMetricsProperties{enabled=" + enabled + ", returnedRows=" + returnedRows + "}";
    }
}
