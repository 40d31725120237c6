package io.github.mongoredact.internal.event;


import io.github.mongoredact.ListenerCounters;

import java.util.concurrent.atomic.LongAdder;

/**
 * The listener's counters. Thread-safe.
 */
final class Counters implements ListenerCounters {
    /** Events forwarded without sinks; those with sinks are counted by the in-flight table, under the lock it takes anyway. */
    final LongAdder eventsForwarded = new LongAdder();
    final LongAdder redactionFailures = new LongAdder();
    final LongAdder sinkFailures = new LongAdder();
    final LongAdder valuesRedacted = new LongAdder();
    private final InFlightTable<?> inFlight;

    Counters(final InFlightTable<?> inFlight) {
        this.inFlight = inFlight;
    }

    @Override
    public long getEventsForwarded() {
        return eventsForwarded.sum() + inFlight.counted();
    }

    @Override
    public long getRedactionFailures() {
        return redactionFailures.sum();
    }

    @Override
    public long getSinkFailures() {
        return sinkFailures.sum();
    }

    @Override
    public long getInFlightEvictions() {
        return inFlight.evictions();
    }

    @Override
    public int getInFlight() {
        return inFlight.size();
    }

    @Override
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
