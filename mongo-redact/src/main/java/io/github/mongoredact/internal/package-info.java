/**
 * Not API: may change in any release. The rules every edge of the library follows: argument checks that return their value
 * ({@code Checks}) and the guard at the edge of a driver callback, which catches, counts and reports a failure once as a
 * warning, then at debug level ({@code Guard}). The listener's machinery is in the sub-packages,
 * each using only those listed before it: {@code bson} (reading and writing BSON bytes), {@code mask} (what stands in for
 * redacted content), {@code message} (scrubbing of server and client messages), {@code rules} (the compiled policy),
 * {@code walk} (the element reader and the walk that applies the rules to a document), {@code json} (JSON of owned documents,
 * read through the walk's element reader), {@code summary} (the metrics-path reading of a command's top level), {@code failure}
 * (rebuilding exceptions without their data) and {@code event} (the pipeline from a driver callback to the downstream). This
 * package sits below them all.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 */
@NonNullApi
package io.github.mongoredact.internal;

import com.mongodb.lang.NonNullApi;
