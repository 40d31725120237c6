/**
 * Not API: may change in any release. Policy compilation and matching: the compiled rule tree, the walker that sizes and writes
 * a redacted copy in one exact-size array, the placeholders, the spec's sensitive commands, and the scrubbing of server
 * messages by their grammar.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 */
@NonNullApi
package io.github.mongoredact.internal.policy;

import com.mongodb.lang.NonNullApi;
