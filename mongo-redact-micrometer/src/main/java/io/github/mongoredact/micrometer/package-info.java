/**
 * The Micrometer sink: {@link io.github.mongoredact.micrometer.MicrometerCommandSink} records command meters with the names
 * and tags of Micrometer's own {@code MongoMetricsCommandListener}; {@link io.github.mongoredact.micrometer.ListenerCountersMetrics}
 * and {@link io.github.mongoredact.micrometer.HandOffSinkMetrics} bind the listener's and hand-offs' counters. Micrometer is
 * optional.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 *
 * @since 0.1
 */
@NonNullApi
package io.github.mongoredact.micrometer;

import com.mongodb.lang.NonNullApi;
