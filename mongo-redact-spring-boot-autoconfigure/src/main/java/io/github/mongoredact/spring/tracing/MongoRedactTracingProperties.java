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

    /**
     * How command spans are named and db.query.summary is written: driver-specification (the command's name; "find
     * app.users") or semantic-conventions (the summary, "find users", with every collection an aggregation's pipeline names).
     */
    private SpanNaming spanNaming = SpanNaming.DRIVER_SPECIFICATION;

    /**
     * Whether the spans of a find, aggregate, count or distinct carry db.mongodb.query_shape and db.mongodb.query_shape_hash,
     * MongoDB's own query shape and hash, where the redacted copy has the same shape. Off by default: it has every such
     * command copied and shaped, sampled or not (several microseconds each).
     */
    private boolean queryShape;

    /** The forms of span names and summaries, as {@code io.github.mongoredact.otel.SpanNaming} names them. */
    public enum SpanNaming {
        /** MongoDB's OpenTelemetry specification: the span named by the command. */
        DRIVER_SPECIFICATION,
        /** OpenTelemetry's database semantic conventions: the span named by the summary. */
        SEMANTIC_CONVENTIONS
    }

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

    /** @return how command spans are named and db.query.summary is written */
    public SpanNaming getSpanNaming() {
        return spanNaming;
    }

    /** @param spanNaming how command spans are named and db.query.summary is written */
    public void setSpanNaming(final SpanNaming spanNaming) {
        if (spanNaming == null) {
            throw new IllegalArgumentException("mongo-redact.tracing.span-naming can not be empty");
        }
        this.spanNaming = spanNaming;
    }

    /** @return whether the spans carry MongoDB's query shape and its hash */
    public boolean isQueryShape() {
        return queryShape;
    }

    /** @param queryShape whether the spans carry MongoDB's query shape and its hash */
    public void setQueryShape(final boolean queryShape) {
        this.queryShape = queryShape;
    }

    @Override
    public String toString() {
        return "MongoRedactTracingProperties{enabled=" + enabled + ", queryTextMaxLength=" + queryTextMaxLength
                + ", spanNaming=" + spanNaming + ", queryShape=" + queryShape + "}";
    }
}
