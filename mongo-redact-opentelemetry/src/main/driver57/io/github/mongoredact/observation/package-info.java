/**
 * The MongoDB Java driver's own tracing (driver 5.7 and later, through Micrometer Observation), made safe:
 * {@link io.github.mongoredact.observation.DriverTracing} turns the driver's command payload off, writes this library's
 * parametrized text as {@code db.query.text}, and replaces every error with its redacted rebuild before it is recorded on a
 * command or operation span. Compiled against driver 5.7; loaded only where that API exists.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 *
 * @since 0.3
 */
@NonNullApi
package io.github.mongoredact.observation;

import com.mongodb.lang.NonNullApi;
