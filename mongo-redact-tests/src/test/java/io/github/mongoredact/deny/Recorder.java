package io.github.mongoredact.deny;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.StartedCommand;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;

/**
 * Records events with the family they belong to. As a reference (registered before the redacting listener) it keeps what the
 * driver handed over: the command's name, first value and {@code $db}, the reply's {@code ok}, the failure. As the downstream
 * it keeps what the redacting listener forwarded, and as a sink the collection name the listener read. Callbacks run on the
 * caller's thread, one at a time (sync driver, one client).
 */
final class Recorder implements CommandListener {
    /** One event and the family it was sent for. */
    static final class Entry {
        final String family;
        final String commandName;
        @Nullable
        final BsonDocument document;
        @Nullable
        final Throwable failure;

        Entry(final String family, final String commandName, @Nullable final BsonDocument document,
              @Nullable final Throwable failure) {
            this.family = family;
            this.commandName = commandName;
            this.document = document;
            this.failure = failure;
        }
    }

    /** The collection names a sink is given, by family. */
    static final class Sink implements CommandSink {
        private final Recorder labels;
        final List<String[]> collections = new ArrayList<>();

        Sink(final Recorder labels) {
            this.labels = labels;
        }

        @Override
        public void started(final StartedCommand command) {
            collections.add(new String[]{labels.family(command.getCommandName()), command.getCollectionName()});
        }
    }

    private final boolean reference;
    @Nullable
    private String label;
    final List<Entry> started = new ArrayList<>();
    final List<Entry> succeeded = new ArrayList<>();
    final List<Entry> failed = new ArrayList<>();

    /** @param reference whether to keep plain summaries of the driver's documents rather than the forwarded ones */
    Recorder(final boolean reference) {
        this.reference = reference;
    }

    /** Sets the family of the constructed events that follow; null: the real driver's, named by their command. */
    void label(@Nullable final String family) {
        this.label = family;
    }

    String family(final String commandName) {
        return label != null ? label : "driver." + commandName;
    }

    @Override
    public void commandStarted(final CommandStartedEvent event) {
        started.add(new Entry(family(event.getCommandName()), event.getCommandName(), keep(event.getCommand(), true), null));
    }

    @Override
    public void commandSucceeded(final CommandSucceededEvent event) {
        succeeded.add(new Entry(family(event.getCommandName()), event.getCommandName(), keep(event.getResponse(), false),
                null));
    }

    @Override
    public void commandFailed(final CommandFailedEvent event) {
        failed.add(new Entry(family(event.getCommandName()), event.getCommandName(), null, event.getThrowable()));
    }

    /** The forwarded document itself, or of the driver's only the metadata the check compares (read inside the callback). */
    private BsonDocument keep(final BsonDocument document, final boolean command) {
        if (!reference) {
            return document;
        }
        BsonDocument summary = new BsonDocument();
        if (command && !document.isEmpty()) {
            String first = document.getFirstKey();
            summary.put(first, copy(document.get(first)));
            if (document.containsKey("$db")) {
                summary.put("$db", copy(document.get("$db")));
            }
        } else if (!command && document.containsKey("ok")) {
            summary.put("ok", copy(document.get("ok")));
        }
        return summary;
    }

    private static BsonValue copy(final BsonValue value) {
        return value.isDocument() ? io.github.mongoredact.DriverShapes.deepCopy(value.asDocument()) : value;
    }
}
