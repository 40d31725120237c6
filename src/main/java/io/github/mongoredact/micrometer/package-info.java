/**
 * The Micrometer backend of the listener's metrics: {@link io.github.mongoredact.micrometer.MicrometerCommandSink}. Needs
 * {@code io.micrometer:micrometer-core} (an optional dependency) on the class path.
 *
 * @since 0.1
 */
package io.github.mongoredact.micrometer;
