package io.github.mongoredact;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import org.bson.BsonDocument;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;

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

    /** @return every started command and every reply kept, as relaxed JSON, one a line */
    String json() {
        JsonWriterSettings relaxed = JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();
        StringBuilder out = new StringBuilder();
        for (CommandStartedEvent event : started) {
            out.append(event.getCommand().toJson(relaxed)).append('\n');
        }
        for (CommandSucceededEvent event : succeeded) {
            out.append(event.getResponse().toJson(relaxed)).append('\n');
        }
        return out.toString();
    }

    /** @return the command of the first started event of that name */
    BsonDocument command(final String name) {
        return started.stream().filter(e -> e.getCommandName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name)).getCommand();
    }
}
