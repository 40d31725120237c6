package io.github.mongoredact.handoff;

import com.mongodb.event.CommandListener;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.StartedCommand;

/**
 * Delivers a hand-off's events to a plain {@link CommandListener} as owned driver events, so that {@link HandOffSink} only
 * ever delivers to a {@link CommandSink}. Runs on the hand-off thread.
 */
final class ListenerDelivery implements CommandSink {
    private final CommandListener listener;

    ListenerDelivery(final CommandListener listener) {
        this.listener = listener;
    }

    /** @return false: a plain listener's events carry no fingerprint */
    @Override
    public boolean needsFingerprint() {
        return false;
    }

    /** @return false: a plain listener's events carry no size */
    @Override
    public boolean needsCommandSize() {
        return false;
    }

    @Override
    public void started(final StartedCommand command) {
        listener.commandStarted(command.toEvent());
    }

    @Override
    public void completed(final CompletedCommand command) {
        if (command.isSucceeded()) {
            listener.commandSucceeded(command.toSucceededEvent());
        } else {
            listener.commandFailed(command.toFailedEvent());
        }
    }

    @Override
    public String toString() {
        return listener.getClass().getName();
    }
}
