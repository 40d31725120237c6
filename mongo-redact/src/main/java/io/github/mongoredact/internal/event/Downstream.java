package io.github.mongoredact.internal.event;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.Guard;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The plain listeners and the sinks a {@link CommandProcessor} forwards to: first the listeners, then the sinks, each in the
 * order they were added. Each call is isolated: any {@link Throwable} but {@link ThreadDeath} (see {@link Guard}) is caught,
 * counted and logged (a warning the first time, then at debug level), and the others still get the event.
 *
 * @param <K> the sinks, called through {@link SinkCalls}
 * @param <S> the facts of a started command
 * @param <C> the facts of a completed command
 */
public final class Downstream<K, S, C> {
    private static final System.Logger LOGGER = ListenerLogger.LOGGER;
    private final CommandListener[] listeners;
    private final K[] sinks;
    private final SinkCalls<K, S, C> calls;
    private final AtomicBoolean warned = new AtomicBoolean();
    @Nullable
    private LongAdder failures;

    /**
     * @param listeners the plain downstream listeners, in order
     * @param sinks the sinks, in order
     * @param calls how a sink is called
     */
    @SuppressWarnings("unchecked")
    public Downstream(final List<CommandListener> listeners, final List<? extends K> sinks, final SinkCalls<K, S, C> calls) {
        this.listeners = listeners.toArray(new CommandListener[0]);
        // an Object[] whatever K is: the elements are only handed back to the calls, which take a K
        this.sinks = (K[]) sinks.toArray();
        this.calls = calls;
    }

    void countFailuresIn(final LongAdder failures) {
        this.failures = failures;
    }

    boolean isEmpty() {
        return listeners.length == 0 && sinks.length == 0;
    }

    boolean hasPlain() {
        return listeners.length > 0;
    }

    boolean hasSinks() {
        return sinks.length > 0;
    }

    /** @return whether any downstream needs owned documents for the next event (the started command's copy) */
    boolean needsDocuments() {
        return listeners.length > 0 || anySink(Need.DOCUMENTS);
    }

    /** @return whether any downstream needs the owned reply of the next succeeded event */
    boolean needsReplyDocuments() {
        return listeners.length > 0 || anySink(Need.REPLY_DOCUMENTS);
    }

    /** @return whether any sink reads the fingerprint of the next started event */
    boolean needsFingerprint() {
        return anySink(Need.FINGERPRINT);
    }

    /** @return whether any sink reads the query shape of the next started event */
    boolean needsQueryShape() {
        return anySink(Need.QUERY_SHAPE);
    }

    /** @return whether a sink answers true; a sink that throws is counted, logged and taken as true */
    private boolean anySink(final Need need) {
        for (K sink : sinks) {
            try {
                if (need.of(calls, sink)) {
                    return true;
                }
            } catch (Throwable e) {
                Guard.rethrowIfStopRequest(e);
                failed(sink, need.method, e);
                return true;
            }
        }
        return false;
    }

    /** Forwards a start: plain listeners get {@code event}, sinks {@code command}; each is null when there are none. */
    void started(@Nullable final CommandStartedEvent event, @Nullable final S command) {
        if (event != null) {
            for (CommandListener listener : listeners) {
                try {
                    listener.commandStarted(event);
                } catch (Throwable e) {
                    Guard.rethrowIfStopRequest(e);
                    failed(listener, "commandStarted", e);
                }
            }
        }
        if (command != null) {
            for (K sink : sinks) {
                try {
                    calls.started(sink, command);
                } catch (Throwable e) {
                    Guard.rethrowIfStopRequest(e);
                    failed(sink, "started", e);
                }
            }
        }
    }

    /** Forwards a completion: plain listeners get the succeeded or the failed event, sinks {@code command}. */
    void completed(@Nullable final CommandSucceededEvent succeeded, @Nullable final CommandFailedEvent failed,
                   @Nullable final C command) {
        if (succeeded != null || failed != null) {
            for (CommandListener listener : listeners) {
                try {
                    if (failed != null) {
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
        if (command != null) {
            for (K sink : sinks) {
                try {
                    calls.completed(sink, command);
                } catch (Throwable e) {
                    Guard.rethrowIfStopRequest(e);
                    failed(sink, "completed", e);
                }
            }
        }
    }

    private void failed(final Object downstream, final String callback, final Throwable e) {
        if (failures != null) {
            failures.increment();
        }
        Guard.log(LOGGER, warned, "Downstream " + downstream.getClass().getName() + " threw from " + callback
                + "; the other listeners and sinks got the event", e);
    }

    /** What the listener asks its sinks before an event, each by the sink's method named. */
    private enum Need {
        DOCUMENTS("needsDocuments"),
        REPLY_DOCUMENTS("needsReplyDocuments"),
        FINGERPRINT("needsFingerprint"),
        QUERY_SHAPE("needsQueryShape");

        final String method;

        Need(final String method) {
            this.method = method;
        }

        <K> boolean of(final SinkCalls<K, ?, ?> calls, final K sink) {
            switch (this) {
                case DOCUMENTS:
                    return calls.needsDocuments(sink);
                case REPLY_DOCUMENTS:
                    return calls.needsReplyDocuments(sink);
                case FINGERPRINT:
                    return calls.needsFingerprint(sink);
                default:
                    return calls.needsQueryShape(sink);
            }
        }
    }
}
