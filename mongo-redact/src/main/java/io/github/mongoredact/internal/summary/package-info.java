/**
 * Not API: may change in any release. The metrics-path summary of a command: its collection, size and the rest a sink reads, without
 * making a redacted copy. Reads only the top level of the command, by the first-field rules of {@code internal.rules}.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 */
@NonNullApi
package io.github.mongoredact.internal.summary;

import com.mongodb.lang.NonNullApi;
