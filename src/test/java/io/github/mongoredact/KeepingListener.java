package io.github.mongoredact;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every event it is given, without copying anything. */
final class KeepingListener implements CommandListener {
    final List<CommandStartedEvent> started = new CopyOnWriteArrayList<>();
    final List<CommandSucceededEvent> succeeded = new CopyOnWriteArrayList<>();
    final List<CommandFailedEvent> failed = new CopyOnWriteArrayList<>();

    @Override
    public void commandStarted(final CommandStartedEvent event) {
        started.add(event);
    }

    @Override
    public void commandSucceeded(final CommandSucceededEvent event) {
        succeeded.add(event);
    }

    @Override
    public void commandFailed(final CommandFailedEvent event) {
        failed.add(event);
    }
}
