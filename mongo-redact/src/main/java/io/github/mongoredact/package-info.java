/**
 * The API of mongo-redact: {@link io.github.mongoredact.RedactingCommandListener}, the {@code CommandListener} to register on
 * the driver; {@link io.github.mongoredact.RedactionPolicy} with its {@link io.github.mongoredact.FieldRule}s, deciding what
 * leaves; {@link io.github.mongoredact.CommandSink}, the consumer of its owned, correlated events
 * ({@link io.github.mongoredact.StartedCommand}, {@link io.github.mongoredact.CompletedCommand}). The sinks themselves live in
 * {@code .log}, {@code .handoff} and {@code .micrometer}.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}),
 * as in the driver.</p>
 *
 * @since 0.1
 */
@NonNullApi
package io.github.mongoredact;

import com.mongodb.lang.NonNullApi;
