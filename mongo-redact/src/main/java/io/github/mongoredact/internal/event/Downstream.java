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

    /** {@link #startNeeds}: the owned copy of the started command. */
    static final int DOCUMENTS = 1;
    /** {@link #startNeeds}: the fingerprint. */
    static final int FINGERPRINT = 2;
    /** {@link #startNeeds}: the query shape. */
    static final int QUERY_SHAPE = 4;
    /** {@link #startNeeds}: the command's size. */
    static final int COMMAND_SIZE = 8;
    /** What takes the walk of the command: its copy, its fingerprint, its query shape (which takes the copy). */
    static final int WALKED = DOCUMENTS | FINGERPRINT | QUERY_SHAPE;

    /**
     * What the downstream reads of the next started event, asked of each sink once per event in one pass: plain listeners read
     * the copy; a sink that throws is counted, logged and taken as reading everything.
     *
     * @param shaped whether the command is one the server shapes: only then is a sink asked for the query shape
     * @return the bits {@link #DOCUMENTS}, {@link #FINGERPRINT}, {@link #QUERY_SHAPE}, {@link #COMMAND_SIZE} that any
     *         downstream needs
     */
    int startNeeds(final boolean shaped) {
        int needs = listeners.length > 0 ? DOCUMENTS : 0;
        for (K sink : sinks) {
            String asking = "needsDocuments";
            try {
                if (calls.needsDocuments(sink)) {
                    needs |= DOCUMENTS;
                }
                asking = "needsFingerprint";
                if (calls.needsFingerprint(sink)) {
                    needs |= FINGERPRINT;
                }
                asking = "needsQueryShape";
                if (shaped && calls.needsQueryShape(sink)) {
                    needs |= QUERY_SHAPE;
                }
                asking = "needsCommandSize";
                if (calls.needsCommandSize(sink)) {
                    needs |= COMMAND_SIZE;
                }
            } catch (Throwable e) {
                Guard.rethrowIfStopRequest(e);
                failed(sink, asking, e);
                needs |= DOCUMENTS | FINGERPRINT | COMMAND_SIZE | (shaped ? QUERY_SHAPE : 0);
            }
        }
        return needs;
    }

    /** @return whether any downstream needs the owned reply of the next succeeded event */
    boolean needsReplyDocuments() {
        return listeners.length > 0 || anySinkReadsReplies();
    }

    /** @return whether a sink reads the owned reply; a sink that throws is counted, logged and taken as true */
    private boolean anySinkReadsReplies() {
        for (K sink : sinks) {
            try {
                if (calls.needsReplyDocuments(sink)) {
                    return true;
                }
            } catch (Throwable e) {
                Guard.rethrowIfStopRequest(e);
                failed(sink, "needsReplyDocuments", e);
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
}
