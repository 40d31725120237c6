package io.github.mongoredact;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** Takes an independent deep copy of every command and reply inside the callback: the reference the tests compare with. */
final class CloningListener implements CommandListener {
    final List<BsonDocument> commands = new CopyOnWriteArrayList<>();
    final List<BsonDocument> replies = new CopyOnWriteArrayList<>();

    @Override
    public void commandStarted(final CommandStartedEvent event) {
        commands.add(deepCopy(event.getCommand()));
    }

    @Override
    public void commandSucceeded(final CommandSucceededEvent event) {
        replies.add(deepCopy(event.getResponse()));
    }

    /** A plain document tree with every byte-backed part decoded. */
    static BsonDocument deepCopy(final BsonDocument document) {
        BsonDocument copy = new BsonDocument();
        for (Map.Entry<String, BsonValue> entry : document.entrySet()) {
            copy.put(entry.getKey(), deepCopy(entry.getValue()));
        }
        return copy;
    }

    private static BsonValue deepCopy(final BsonValue value) {
        if (value.isDocument()) {
            return deepCopy(value.asDocument());
        }
        if (value.isArray()) {
            BsonArray copy = new BsonArray();
            for (BsonValue element : value.asArray()) {
                copy.add(deepCopy(element));
            }
            return copy;
        }
        return value;
    }
}
