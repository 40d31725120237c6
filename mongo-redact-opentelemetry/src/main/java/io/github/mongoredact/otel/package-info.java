/**
 * The OpenTelemetry sinks: {@link io.github.mongoredact.otel.OpenTelemetryCommandSink} makes one span of kind CLIENT per
 * command, with the attributes of MongoDB's OpenTelemetry specification and of OpenTelemetry's database semantic
 * conventions, the server's query shape and an optional parametrized {@code db.query.text} rendered from the redacted copy;
 * {@link io.github.mongoredact.otel.OpenTelemetryMetricsSink} records the conventions' database client metrics;
 * {@link io.github.mongoredact.otel.TracingContextProvider} carries the caller's trace context into the reactive driver's
 * commands. The OpenTelemetry API is optional.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 *
 * @since 0.3
 */
@NonNullApi
package io.github.mongoredact.otel;

import com.mongodb.lang.NonNullApi;
