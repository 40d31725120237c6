package io.github.mongoredact;

import io.github.mongoredact.internal.event.Counters;

/** The {@link ListenerCounters} of a listener: reads of its pipeline's counters, one object per listener. Thread-safe. */
final class LiveCounters implements ListenerCounters {
    private final Counters counters;

    LiveCounters(final Counters counters) {
        this.counters = counters;
    }

    @Override
    public long getEventsForwarded() {
        return counters.getEventsForwarded();
    }

    @Override
    public long getRedactionFailures() {
        return counters.getRedactionFailures();
    }

    @Override
    public long getSinkFailures() {
        return counters.getSinkFailures();
    }

    @Override
    public long getInFlightEvictions() {
        return counters.getInFlightEvictions();
    }

    @Override
    public int getInFlight() {
        return counters.getInFlight();
    }

    @Override
    public long getValuesRedacted() {
        return counters.getValuesRedacted();
    }

    @Override
    public String toString() {
        return counters.toString();
    }
}
