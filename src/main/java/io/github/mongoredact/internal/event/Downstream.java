package io.github.mongoredact.internal.event;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.StartedCommand;
import io.github.mongoredact.internal.Guard;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The plain listeners and the sinks a {@link CommandProcessor} forwards to: first the listeners, then the sinks, each in the
 * order they were added. Each call is isolated: any {@link Throwable} but {@link ThreadDeath} (see {@link Guard}) is caught,
 * counted and logged (a warning the first time, then at debug level), and the others still get the event.
 */
public final class Downstream {
    private static final System.Logger LOGGER = ListenerLogger.LOGGER;
    private final CommandListener[] listeners;
    private final CommandSink[] sinks;
    private final AtomicBoolean warned = new AtomicBoolean();
    @Nullable
    private LongAdder failures;

    /**
     * @param listeners the plain downstream listeners, in order
     * @param sinks the sinks, in order
     */
    public Downstream(final List<CommandListener> listeners, final List<CommandSink> sinks) {
        this.listeners = listeners.toArray(new CommandListener[0]);
        this.sinks = sinks.toArray(new CommandSink[0]);
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

    /** @return whether a sink answers true; a sink that throws is counted, logged and taken as true */
    private boolean anySink(final Need need) {
        for (CommandSink sink : sinks) {
            try {
                if (need.of(sink)) {
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
    void started(@Nullable final CommandStartedEvent event, @Nullable final StartedCommand command) {
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
            for (CommandSink sink : sinks) {
                try {
                    sink.started(command);
                } catch (Throwable e) {
                    Guard.rethrowIfStopRequest(e);
                    failed(sink, "started", e);
                }
            }
        }
    }

    /** Forwards a completion: plain listeners get the succeeded or the failed event, sinks {@code command}. */
    void completed(@Nullable final CommandSucceededEvent succeeded, @Nullable final CommandFailedEvent failed,
                   @Nullable final CompletedCommand command) {
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
            for (CommandSink sink : sinks) {
                try {
                    sink.completed(command);
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

    /** What the listener asks its sinks before an event, each by the {@link CommandSink} method named. */
    private enum Need {
        DOCUMENTS("needsDocuments"),
        REPLY_DOCUMENTS("needsReplyDocuments"),
        FINGERPRINT("needsFingerprint");

        final String method;

        Need(final String method) {
            this.method = method;
        }

        boolean of(final CommandSink sink) {
            switch (this) {
                case DOCUMENTS:
                    return sink.needsDocuments();
                case REPLY_DOCUMENTS:
                    return sink.needsReplyDocuments();
                default:
                    return sink.needsFingerprint();
            }
        }
    }
}
