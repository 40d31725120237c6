package io.github.mongoredact.jmh.support;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;

/** A downstream listener that keeps the last event forwarded to it, so a benchmark can return it. Single-threaded use. */
public final class LastEventListener implements CommandListener {
    /** The last started event forwarded, or null. */
    public CommandStartedEvent started;
    /** The last succeeded event forwarded, or null. */
    public CommandSucceededEvent succeeded;
    /** The last failed event forwarded, or null. */
    public CommandFailedEvent failed;

    @Override
    public void commandStarted(final CommandStartedEvent event) {
        started = event;
    }

    @Override
    public void commandSucceeded(final CommandSucceededEvent event) {
        succeeded = event;
    }

    @Override
    public void commandFailed(final CommandFailedEvent event) {
        failed = event;
    }
}
