/**
 * The log sink: {@link io.github.mongoredact.log.CommandLogSink} writes the redacted commands and replies through SLF4J in the
 * driver's own command log format, documents rendered as JSON cut at a bound; SLF4J is optional.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 *
 * @since 0.1
 */
@NonNullApi
package io.github.mongoredact.log;

import com.mongodb.lang.NonNullApi;
