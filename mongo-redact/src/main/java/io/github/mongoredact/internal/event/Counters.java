package io.github.mongoredact.internal.event;

import java.util.concurrent.atomic.LongAdder;

/**
 * The listener's counters, which the API's {@code ListenerCounters} reads. Thread-safe.
 */
public final class Counters {
    /** Events forwarded without sinks; those with sinks are counted by the in-flight table, under the lock it takes anyway. */
    final LongAdder eventsForwarded = new LongAdder();
    final LongAdder redactionFailures = new LongAdder();
    final LongAdder sinkFailures = new LongAdder();
    final LongAdder valuesRedacted = new LongAdder();
    private final InFlightTable<?> inFlight;

    Counters(final InFlightTable<?> inFlight) {
        this.inFlight = inFlight;
    }

    /** @return events that were forwarded downstream */
    public long getEventsForwarded() {
        return eventsForwarded.sum() + inFlight.counted();
    }

    /** @return events forwarded with a marker document in place of one that could not be read */
    public long getRedactionFailures() {
        return redactionFailures.sum();
    }

    /** @return exceptions thrown by downstream listeners and sinks, caught */
    public long getSinkFailures() {
        return sinkFailures.sum();
    }

    /** @return started commands evicted from the in-flight table before their completion */
    public long getInFlightEvictions() {
        return inFlight.evictions();
    }

    /** @return started commands held in the in-flight table now */
    public int getInFlight() {
        return inFlight.size();
    }

    /** @return values replaced by placeholders in the documents copied */
    public long getValuesRedacted() {
        return valuesRedacted.sum();
    }

    @Override
    public String toString() {
        return "ListenerCounters{eventsForwarded=" + getEventsForwarded() + ", redactionFailures=" + getRedactionFailures()
                + ", sinkFailures=" + getSinkFailures() + ", inFlightEvictions=" + getInFlightEvictions()
                + ", inFlight=" + getInFlight() + ", valuesRedacted=" + getValuesRedacted() + "}";
    }
}
