package io.github.mongoredact;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import org.bson.BsonDocument;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Takes an independent deep copy of every command and reply inside the callback: the reference the tests compare with. */
final class CloningListener implements CommandListener {
    final List<BsonDocument> commands = new CopyOnWriteArrayList<>();
    final List<BsonDocument> replies = new CopyOnWriteArrayList<>();

    @Override
    public void commandStarted(final CommandStartedEvent event) {
        commands.add(DriverShapes.deepCopy(event.getCommand()));
    }

    @Override
    public void commandSucceeded(final CommandSucceededEvent event) {
        replies.add(DriverShapes.deepCopy(event.getResponse()));
    }
}
