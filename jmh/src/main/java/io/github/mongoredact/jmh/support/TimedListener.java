package io.github.mongoredact.jmh.support;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;

/**
 * A listener that times the listener it wraps: the nanoseconds spent inside its callbacks, summed, for the round trip to say
 * how much of an operation is the listener's own work. Each callback pays two {@code System.nanoTime()} calls (about 30 ns
 * each on the benchmark VM), about half of which falls inside the time it counts. The sync driver calls listeners on the
 * application's thread: single-threaded use.
 */
public final class TimedListener implements CommandListener {
    private final CommandListener delegate;
    private long nanos;

    /** @param delegate the listener to time */
    public TimedListener(final CommandListener delegate) {
        this.delegate = delegate;
    }

    /** @return the nanoseconds spent in the wrapped listener since the last call, which starts the count again */
    public long drain() {
        long n = nanos;
        nanos = 0;
        return n;
    }

    @Override
    public void commandStarted(final CommandStartedEvent event) {
        long start = System.nanoTime();
        try {
            delegate.commandStarted(event);
        } finally {
            nanos += System.nanoTime() - start;
        }
    }

    @Override
    public void commandSucceeded(final CommandSucceededEvent event) {
        long start = System.nanoTime();
        try {
            delegate.commandSucceeded(event);
        } finally {
            nanos += System.nanoTime() - start;
        }
    }

    @Override
    public void commandFailed(final CommandFailedEvent event) {
        long start = System.nanoTime();
        try {
            delegate.commandFailed(event);
        } finally {
            nanos += System.nanoTime() - start;
        }
    }
}
