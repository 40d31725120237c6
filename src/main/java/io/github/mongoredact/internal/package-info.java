/**
 * Not API: may change in any release. The rules every edge of the library follows: argument checks that return their value
 * ({@code Checks}) and the guard at the edge of a driver callback, which catches, counts and reports a failure once as a
 * warning, then at debug level ({@code Guard}). The listener's machinery is in the sub-packages: {@code bson} (reading and
 * writing BSON bytes), {@code policy} (compiled rules and the walk that applies them), {@code failure} (rebuilding
 * exceptions without their data) and {@code event} (the pipeline from a driver callback to the downstream).
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 */
@NonNullApi
package io.github.mongoredact.internal;

import com.mongodb.lang.NonNullApi;
