package io.github.mongoredact.jmh.roundtrip;

import io.github.mongoredact.jmh.support.TimedListener;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * JMH counters of the round trip, reported beside ns/op as secondary results: the nanoseconds spent inside the listener and the
 * operations, per iteration; their quotient is the listener's own time per operation.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class ListenerTime {
    /** Nanoseconds spent inside the listener's callbacks in this iteration. */
    public long listenerNanos;
    /** Operations in this iteration. */
    public long operations;

    /** Counts from zero in every iteration. */
    @Setup(Level.Iteration)
    public void reset() {
        listenerNanos = 0;
        operations = 0;
    }

    /**
     * Counts one operation and the listener's time in it.
     *
     * @param timed the timed listener, or null when the client has none
     */
    void add(final TimedListener timed) {
        operations++;
        if (timed != null) {
            listenerNanos += timed.drain();
        }
    }
}
