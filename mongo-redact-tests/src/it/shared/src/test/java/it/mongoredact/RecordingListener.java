package it.mongoredact;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A command listener of the application's own: keeps every started event and the command's JSON as read in the callback, so
 * that a test can read the kept events again later (owned events read back the same; the driver's own are reused buffers).
 */
final class RecordingListener implements CommandListener {
    final List<CommandStartedEvent> started = new CopyOnWriteArrayList<>();
    final List<String> startedJson = new CopyOnWriteArrayList<>();
    final List<String> replies = new CopyOnWriteArrayList<>();

    @Override
    public void commandStarted(final CommandStartedEvent event) {
        started.add(event);
        startedJson.add(event.getCommand().toJson());
    }

    @Override
    public void commandSucceeded(final CommandSucceededEvent event) {
        replies.add(event.getResponse().toJson());
    }

    @Override
    public void commandFailed(final CommandFailedEvent event) {
        replies.add(String.valueOf(event.getThrowable()));
    }

    String everything() {
        return startedJson + " " + replies;
    }
}
