/**
 * Not API: may change in any release. Failures without their data: each exception of a failed command, and each of its causes,
 * rebuilt as the same driver type (or a stand-in) with its texts scrubbed and its documents redacted.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 */
@NonNullApi
package io.github.mongoredact.internal.failure;

import com.mongodb.lang.NonNullApi;
