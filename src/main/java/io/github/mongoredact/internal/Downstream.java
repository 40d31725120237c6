package io.github.mongoredact.internal;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.StartedCommand;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The listeners and sinks a {@link CommandProcessor} forwards to, in the order they were added. Each call is isolated: any
 * {@link Throwable} but {@link ThreadDeath} (see {@link Guard}) is caught, counted and logged (a warning the first time, then
 * at debug level), and the others still get the event.
 */
public final class Downstream {
    private final CommandListener[] listeners;
    private final boolean[] isSink;
    private final boolean hasPlain;
    private final boolean hasSinks;
    private final AtomicBoolean warned = new AtomicBoolean();
    @Nullable
    private LongAdder failures;

    /**
     * @param listeners the downstream listeners, in order
     */
    public Downstream(final List<CommandListener> listeners) {
        this.listeners = listeners.toArray(new CommandListener[0]);
        this.isSink = new boolean[this.listeners.length];
        boolean plain = false;
        boolean sinks = false;
        for (int i = 0; i < this.listeners.length; i++) {
            isSink[i] = this.listeners[i] instanceof CommandSink;
            plain |= !isSink[i];
            sinks |= isSink[i];
        }
        this.hasPlain = plain;
        this.hasSinks = sinks;
    }

    void countFailuresIn(final LongAdder failures) {
        this.failures = failures;
    }

    boolean isEmpty() {
        return listeners.length == 0;
    }

    boolean hasPlain() {
        return hasPlain;
    }

    boolean hasSinks() {
        return hasSinks;
    }

    /** @return whether any downstream needs owned documents for the next event */
    boolean needsDocuments() {
        if (hasPlain) {
            return true;
        }
        for (CommandListener listener : listeners) {
            try {
                if (((CommandSink) listener).needsDocuments()) {
                    return true;
                }
            } catch (Throwable e) {
                Guard.rethrowIfStopRequest(e);
                failed(listener, "needsDocuments", e);
                return true;
            }
        }
        return false;
    }

    void started(@Nullable final CommandStartedEvent event, @Nullable final StartedCommand command) {
        for (int i = 0; i < listeners.length; i++) {
            CommandListener listener = listeners[i];
            try {
                if (isSink[i]) {
                    ((CommandSink) listener).started(command);
                } else {
                    listener.commandStarted(event);
                }
            } catch (Throwable e) {
                Guard.rethrowIfStopRequest(e);
                failed(listener, "commandStarted", e);
            }
        }
    }

    /** Forwards a completion: sinks get {@code command}, plain listeners the succeeded or the failed event. */
    void completed(@Nullable final CommandSucceededEvent succeeded, @Nullable final CommandFailedEvent failed,
                   @Nullable final CompletedCommand command) {
        for (int i = 0; i < listeners.length; i++) {
            CommandListener listener = listeners[i];
            try {
                if (isSink[i]) {
                    ((CommandSink) listener).completed(command);
                } else if (failed != null) {
                    listener.commandFailed(failed);
                } else {
                    listener.commandSucceeded(succeeded);
                }
            } catch (Throwable e) {
                Guard.rethrowIfStopRequest(e);
                failed(listener, failed != null ? "commandFailed" : "commandSucceeded", e);
            }
        }
    }

    private void failed(final CommandListener listener, final String callback, final Throwable e) {
        if (failures != null) {
            failures.increment();
        }
        Guard.log(warned, "Downstream listener " + listener.getClass().getName() + " threw from " + callback
                + "; the other listeners got the event", e);
    }
}
