package io.github.mongoredact;

/**
 * Live counters of a {@link RedactingCommandListener}. Thread-safe; each read returns the current value.
 *
 * @since 0.1
 */
public interface ListenerCounters {

    /**
     * @return events (started, succeeded, failed) that were forwarded downstream
     * @since 0.1
     */
    long getEventsForwarded();

    /**
     * @return events whose document could not be read or redacted and were forwarded with a marker document instead
     * @since 0.1
     */
    long getRedactionFailures();

    /**
     * @return exceptions thrown by downstream listeners and sinks, caught by the listener
     * @since 0.1
     */
    long getSinkFailures();

    /**
     * @return started commands evicted from the bounded in-flight table before their completion arrived
     * @since 0.1
     */
    long getInFlightEvictions();

    /**
     * @return started commands currently held in the in-flight table
     * @since 0.1
     */
    int getInFlight();

    /**
     * @return values replaced by placeholders, in the commands and replies the listener copied; when no downstream reads
     *         documents (metrics alone) nothing is copied, and nothing is counted here
     * @since 0.1
     */
    long getValuesRedacted();
}
