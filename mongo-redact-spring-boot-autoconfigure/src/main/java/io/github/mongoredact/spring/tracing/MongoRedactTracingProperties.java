package io.github.mongoredact.spring.tracing;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code mongo-redact.tracing.*} configuration properties: the OpenTelemetry command spans, or the driver's own tracing
 * made safe. Every setter checks its value, so that a bad value fails the application's start with Spring Boot's report
 * naming the property.
 *
 * <p>Lifetime and threading: bound once by Spring Boot at start-up, then read; not thread-safe while it is being bound.</p>
 *
 * @since 0.3
 */
@ConfigurationProperties(prefix = "mongo-redact.tracing")
public class MongoRedactTracingProperties {

    /**
     * Whether to trace commands: with an OpenTelemetry bean, one span per command from the redacted events; with the driver's
     * own tracing turned on (driver 5.7+), that tracing made safe instead. Never both, and nothing beside another command
     * tracing instrumentation already on the client.
     */
    private boolean enabled = true;

    /**
     * The most characters of db.query.text (the redacted command as relaxed JSON, cut with " ..."); 0 leaves the attribute
     * out. When not set: the environment variable OTEL_JAVA_INSTRUMENTATION_MONGODB_QUERY_TEXT_MAX_LENGTH, else 0.
     */
    private Integer queryTextMaxLength;

    /** @return whether to trace commands: spans from the redacted events, or the driver's own tracing (5.7+) made safe */
    public boolean isEnabled() {
        return enabled;
    }

    /** @param enabled whether to trace commands: spans from the redacted events, or the driver's own tracing (5.7+) made safe */
    public void setEnabled(final boolean enabled) {
        this.enabled = enabled;
    }

    /** @return the most characters of db.query.text (the redacted command as relaxed JSON); 0 leaves the attribute out */
    public Integer getQueryTextMaxLength() {
        return queryTextMaxLength;
    }

    /**
     * @param queryTextMaxLength 0 (off) or more
     * @throws IllegalArgumentException if negative
     */
    /** @param queryTextMaxLength the most characters of db.query.text (the redacted command as relaxed JSON); 0 leaves the attribute out */
    public void setQueryTextMaxLength(final Integer queryTextMaxLength) {
        if (queryTextMaxLength != null && queryTextMaxLength < 0) {
            throw new IllegalArgumentException("mongo-redact.tracing.query-text-max-length must be 0 (off) or more, was "
                    + queryTextMaxLength);
        }
        this.queryTextMaxLength = queryTextMaxLength;
    }

    @Override
    public String toString() {
        return "MongoRedactTracingProperties{enabled=" + enabled + ", queryTextMaxLength=" + queryTextMaxLength + "}";
    }
}
