/**
 * The hand-off sink: {@link io.github.mongoredact.handoff.HandOffSink} moves a slow sink's work off the driver's threads,
 * through a bounded lock-free queue to a thread of its own.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 *
 * @since 0.1
 */
@NonNullApi
package io.github.mongoredact.handoff;

import com.mongodb.lang.NonNullApi;
