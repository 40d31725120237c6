/**
 * Not API: may change in any release. The event pipeline: from a driver callback ({@code CommandProcessor}) through the copy
 * and the bounded in-flight table that correlates a start with its completion, to the plain listeners and sinks
 * ({@code Downstream}), with the listener's counters.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 */
@NonNullApi
package io.github.mongoredact.internal.event;

import com.mongodb.lang.NonNullApi;
