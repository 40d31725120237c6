package io.github.mongoredact;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;

/** A plain downstream listener that keeps only the last event of each kind, in a field: allocates nothing itself. */
public final class LastEventListener implements CommandListener {
    public volatile CommandStartedEvent started;
    public volatile CommandSucceededEvent succeeded;
    public volatile CommandFailedEvent failed;
    public int calls;

    @Override
    public void commandStarted(final CommandStartedEvent event) {
        started = event;
        calls++;
    }

    @Override
    public void commandSucceeded(final CommandSucceededEvent event) {
        succeeded = event;
        calls++;
    }

    @Override
    public void commandFailed(final CommandFailedEvent event) {
        failed = event;
        calls++;
    }
}
