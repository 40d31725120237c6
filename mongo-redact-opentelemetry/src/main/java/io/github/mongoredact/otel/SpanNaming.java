package io.github.mongoredact.otel;

/**
 * How {@link OpenTelemetryCommandSink} names a command span and writes its {@code db.query.summary}.
 *
 * @since 0.6
 */
public enum SpanNaming {
    /**
     * MongoDB's OpenTelemetry specification for the command span: the span is named by the command ({@code find}), and
     * {@code db.query.summary} is the command and the database-qualified collection ({@code find app.users}), or the command
     * and the database where it names no collection ({@code ping admin}). The default.
     */
    DRIVER_SPECIFICATION,
    /**
     * OpenTelemetry's database semantic conventions: {@code db.query.summary} is the command and its targets as the
     * application named them ({@code find users}; {@code ping admin} where it names no collection), an aggregation's
     * pipeline adding every collection its {@code $lookup}, {@code $graphLookup}, {@code $unionWith}, {@code $out} and
     * {@code $merge} stages name where the redacted copy shows them ({@code aggregate orders customers}), at most 255
     * characters, never cut inside a name; the span is named by the summary.
     */
    SEMANTIC_CONVENTIONS
}
