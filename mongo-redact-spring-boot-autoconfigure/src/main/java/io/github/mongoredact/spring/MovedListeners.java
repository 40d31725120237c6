package io.github.mongoredact.spring;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.StartedCommand;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The downstream of the redacting listener that holds the command listeners other configuration added to the client settings,
 * moved there by {@link ListenerArrangement} when the client is built: they receive the redacted, owned events.
 *
 * <p>A sink, not a plain listener, so that it costs nothing while it holds nothing: it asks for documents only once a listener
 * has been moved into it (an application that only added the dependency has none, and its commands are then copied only for
 * a sink that reads them, such as the command log at DEBUG). It never asks for the fingerprint, which driver events do not
 * carry.</p>
 *
 * <p>Threading: listeners are added while clients are being built and called on the driver's threads; the list is
 * copy-on-write. Each listener is called on its own, so one that throws does not keep the event from the others; the first
 * exception is rethrown afterwards, for the redacting listener to count and log as a sink failure.</p>
 */
final class MovedListeners implements CommandSink {
    private final CopyOnWriteArrayList<CommandListener> listeners = new CopyOnWriteArrayList<>();

    /**
     * Adds a listener once: a client built twice from the same customizers (or two clients sharing them) hands over the same
     * instance again.
     */
    synchronized void add(final CommandListener listener) {
        for (CommandListener present : listeners) {
            if (present == listener) {
                return;
            }
        }
        listeners.add(listener);
    }

    List<CommandListener> listeners() {
        return List.copyOf(listeners);
    }

    /** @return whether a listener has been moved here: only then are documents copied for this downstream */
    @Override
    public boolean needsDocuments() {
        return !listeners.isEmpty();
    }

    @Override
    public boolean needsFingerprint() {
        return false;
    }

    @Override
    public boolean needsCommandSize() {
        return false;
    }

    @Override
    public void started(final StartedCommand command) {
        if (!listeners.isEmpty()) {
            CommandStartedEvent event = command.toEvent();
            each(listener -> listener.commandStarted(event));
        }
    }

    @Override
    public void completed(final CompletedCommand command) {
        if (listeners.isEmpty()) {
            return;
        }
        if (command.isSucceeded()) {
            CommandSucceededEvent event = command.toSucceededEvent();
            each(listener -> listener.commandSucceeded(event));
        } else {
            CommandFailedEvent event = command.toFailedEvent();
            each(listener -> listener.commandFailed(event));
        }
    }

    private void each(final Consumer<CommandListener> call) {
        RuntimeException first = null;
        for (CommandListener listener : listeners) {
            try {
                call.accept(listener);
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public String toString() {
        return "MovedListeners" + listeners;
    }
}
