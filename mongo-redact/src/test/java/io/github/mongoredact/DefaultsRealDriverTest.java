package io.github.mongoredact;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Updates;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.Document;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real driver against the embedded server under {@link RedactionPolicy#defaults()}: every forwarded command and reply has
 * the shape of the driver's (same command names, collections, keys, array lengths), and none of the workload's values.
 */
class DefaultsRealDriverTest {
    private static final JsonWriterSettings RELAXED = JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();
    private static final Pattern EMAIL = Pattern.compile("[A-Za-z0-9._]+@example\\.com");
    private static final Pattern NAMES = Pattern.compile("Alice|Bob|Customer \\d");

    @Test
    void lifetimeWorkloadKeepsShapesAndLosesValues() throws Exception {
        KeepingListener kept = new KeepingListener();
        CloningListener reference = new CloningListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(kept).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(reference, listener);
            LifetimeTest.runWorkload(client);
            MongoCollection<Document> other = client.getDatabase("shop").getCollection("other");
            for (int i = 0; i < 200; i++) {
                other.insertOne(new Document("i", i).append("email", "other" + i + "@example.com"));
            }
        }
        assertEquals(reference.commands.size(), kept.started.size());
        assertEquals(reference.replies.size(), kept.succeeded.size());
        assertTrue(kept.started.size() >= 212, "commands: " + kept.started.size());
        assertEquals(0, listener.getCounters().getRedactionFailures());
        assertTrue(listener.getCounters().getValuesRedacted() > 3000, listener.getCounters().toString());

        // read the kept documents from another thread, long after their callbacks
        List<String> problems = CompletableFuture.supplyAsync(() -> check(reference, kept)).get();
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        // the workload's commands of every kind were seen
        List<String> names = new ArrayList<>();
        for (CommandStartedEvent event : kept.started) {
            names.add(event.getCommandName());
        }
        for (String name : new String[]{"insert", "update", "delete", "find", "getMore", "aggregate", "ping"}) {
            assertTrue(names.contains(name), name + " in " + names);
        }
    }

    private static List<String> check(final CloningListener reference, final KeepingListener kept) {
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < kept.started.size(); i++) {
            CommandStartedEvent event = kept.started.get(i);
            BsonDocument driver = reference.commands.get(i);
            BsonDocument ours = event.getCommand();
            String json = ours.toJson(RELAXED);
            if (!driver.getFirstKey().equals(ours.getFirstKey()) || !driver.getFirstKey().equals(event.getCommandName())) {
                problems.add("command " + i + ": name " + ours.getFirstKey() + " vs " + driver.getFirstKey());
            }
            if (!driver.get(driver.getFirstKey()).equals(ours.get(ours.getFirstKey()))) {
                problems.add("command " + i + ": collection " + ours.get(ours.getFirstKey()));
            }
            if (!shape(driver).equals(shape(ours))) {
                problems.add("command " + i + ": shape\n  driver " + shape(driver) + "\n  ours   " + shape(ours));
            }
            if (EMAIL.matcher(json).find() || NAMES.matcher(json).find()) {
                problems.add("command " + i + " holds a value: " + json);
            }
            if (driver.containsKey("$db") && !driver.get("$db").equals(ours.get("$db"))) {
                problems.add("command " + i + ": $db");
            }
        }
        for (int i = 0; i < kept.succeeded.size(); i++) {
            CommandSucceededEvent event = kept.succeeded.get(i);
            BsonDocument driver = reference.replies.get(i);
            BsonDocument ours = event.getResponse();
            String json = ours.toJson(RELAXED);
            if (!shape(driver).equals(shape(ours))) {
                problems.add("reply " + i + " (" + event.getCommandName() + "): shape\n  driver " + shape(driver)
                        + "\n  ours   " + shape(ours));
            }
            if (EMAIL.matcher(json).find() || NAMES.matcher(json).find()) {
                problems.add("reply " + i + " holds a value: " + json);
            }
            if (driver.containsKey("ok") && !driver.get("ok").equals(ours.get("ok"))) {
                problems.add("reply " + i + ": ok");
            }
            if (driver.containsKey("n") && !driver.get("n").equals(ours.get("n"))) {
                problems.add("reply " + i + ": n");
            }
            if (driver.isDocument("cursor") && !driver.getDocument("cursor").get("ns").equals(ours.getDocument("cursor").get("ns"))) {
                problems.add("reply " + i + ": cursor.ns");
            }
        }
        return problems;
    }

    /** Keys in order and array lengths, recursively; values left out. */
    static String shape(final BsonValue value) {
        StringBuilder out = new StringBuilder();
        shape(value, out);
        return out.toString();
    }

    private static void shape(final BsonValue value, final StringBuilder out) {
        if (value.isDocument()) {
            out.append('{');
            for (Map.Entry<String, BsonValue> entry : value.asDocument().entrySet()) {
                out.append(entry.getKey()).append(':');
                shape(entry.getValue(), out);
                out.append(',');
            }
            out.append('}');
        } else if (value.isArray()) {
            out.append('[');
            for (BsonValue element : value.asArray()) {
                shape(element, out);
                out.append(',');
            }
            out.append(']');
        } else {
            out.append('_');
        }
    }

    @Test
    void duplicateKeyFailuresNoLongerHoldTheValue() {
        KeepingListener kept = new KeepingListener();
        List<CompletedCommand> completed = new ArrayList<>();
        CommandSink sink = new CommandSink() {
            @Override
            public void completed(final CompletedCommand command) {
                completed.add(command);
            }
        };
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(kept).addSink(sink).build();
        MongoCommandException thrown;
        MongoWriteException insertThrown;
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(listener);
            MongoCollection<Document> users = client.getDatabase("shop").getCollection("users");
            users.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true));
            users.insertOne(new Document("email", "alice@example.com").append("name", "Alice"));
            users.insertOne(new Document("email", "bob@example.com").append("name", "Bob"));
            // insert duplicate: writeErrors under ok: 1, a succeeded event
            insertThrown = assertThrows(MongoWriteException.class,
                    () -> users.insertOne(new Document("email", "alice@example.com")));
            // findOneAndUpdate duplicate: a failed command
            thrown = assertThrows(MongoCommandException.class, () -> users.findOneAndUpdate(
                    Filters.eq("email", "bob@example.com"), Updates.set("email", "alice@example.com")));
        }
        // the driver's own exceptions quote the value: what the listener forwards must not
        assertTrue(insertThrown.getMessage().contains("alice@example.com"), insertThrown.getMessage());
        assertTrue(thrown.getMessage().contains("alice@example.com"), thrown.getMessage());

        CommandSucceededEvent duplicateInsert = kept.succeeded.stream()
                .filter(e -> e.getCommandName().equals("insert") && e.getResponse().containsKey("writeErrors"))
                .findFirst().orElseThrow(() -> new AssertionError("no insert reply with writeErrors"));
        String replyJson = duplicateInsert.getResponse().toJson(RELAXED);
        assertFalse(replyJson.contains("alice@example.com"), replyJson);
        BsonDocument writeError = duplicateInsert.getResponse().getArray("writeErrors").get(0).asDocument();
        assertEquals(11000, writeError.getInt32("code").getValue(), replyJson);
        assertEquals(1, duplicateInsert.getResponse().getNumber("ok").intValue());

        assertEquals(1, kept.failed.size());
        assertEquals("findAndModify", kept.failed.get(0).getCommandName());
        Throwable forwarded = kept.failed.get(0).getThrowable();
        assertSame(thrown.getClass(), forwarded.getClass());
        MongoCommandException redacted = assertInstanceOf(MongoCommandException.class, forwarded);
        assertEquals(11000, redacted.getErrorCode());
        assertEquals(thrown.getErrorCodeName(), redacted.getErrorCodeName());
        assertEquals(thrown.getErrorLabels(), redacted.getErrorLabels());
        assertFalse(redacted.getMessage().contains("alice@example.com"), redacted.getMessage());
        assertFalse(redacted.getResponse().toJson().contains("alice@example.com"), redacted.getResponse().toJson());
        assertTrue(redacted.getMessage().contains("11000") || redacted.getMessage().contains("duplicate key"),
                redacted.getMessage());
        assertNotNull(redacted.getServerAddress());

        // sinks see the same: an error under ok:1 for the insert, the redacted failure for findAndModify
        CompletedCommand insert = completed.stream().filter(c -> c.getStarted().getCommandName().equals("insert")
                && c.hasError()).findFirst().orElseThrow(() -> new AssertionError("no insert with error"));
        assertEquals(11000, insert.getErrorCode());
        assertTrue(insert.isSucceeded());
        CompletedCommand failed = completed.stream().filter(c -> !c.isSucceeded()).findFirst()
                .orElseThrow(() -> new AssertionError("no failed command"));
        assertEquals(11000, failed.getErrorCode());
        assertFalse(failed.toFailedEvent().getThrowable().getMessage().contains("alice@example.com"));
    }
}
