/**
 * Not API: may change in any release. What stands in for redacted content: the placeholder of each BSON type, keys that look like data
 * masked as {@code ?key}, and array indexes written as keys. Pure functions over bytes; they know neither policies nor walks.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 */
@NonNullApi
package io.github.mongoredact.internal.mask;

import com.mongodb.lang.NonNullApi;
