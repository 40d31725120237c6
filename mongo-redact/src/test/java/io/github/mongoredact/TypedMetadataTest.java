package io.github.mongoredact;

import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import io.github.mongoredact.DriverShapes.Backing;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.bson.Document;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kept metadata is kept only with the types the server accepts there: for every {@code KEEP} of the default table, a value
 * of its types comes out as it went in, and a value of another type (a document where a name is kept, a string where a
 * number is) is redacted like any value and counted in {@code valuesRedacted}. The report's cases go through the real driver
 * to the embedded server.
 */
class TypedMetadataTest {
    private static final JsonWriterSettings RELAXED = JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();
    private static final String SECRET = "carol.secret@example.com";

    private static BsonValue ofType(final BsonType type) {
        switch (type) {
            case STRING: return new BsonString("kept");
            case BOOLEAN: return BsonBoolean.TRUE;
            case TIMESTAMP: return new BsonTimestamp(1_700_000_000, 3);
            case BINARY: return new BsonBinary(UUID.fromString("12345678-9abc-def0-0fed-cba987654321"));
            case OBJECT_ID: return new BsonObjectId(new ObjectId("6b0dd09aa86bc4d263d28547"));
            default: return new BsonInt32(7);
        }
    }

    /** A value none of the types takes, holding the secret. */
    private static BsonValue otherType(final FieldRule rule) {
        return rule.getTypes().contains(BsonType.STRING) ? new BsonDocument("note", new BsonString(SECRET))
                : new BsonString(SECRET);
    }

    /** The document with {@code value} at the dotted path ({@code *} as a key of its own). */
    private static BsonDocument at(final String path, final BsonValue value) {
        String[] segments = path.split("\\.");
        BsonValue inner = value;
        for (int i = segments.length - 1; i >= 0; i--) {
            inner = new BsonDocument(segments[i].equals("*") ? "dc" : segments[i], inner);
        }
        return inner.asDocument();
    }

    private static final class Forwarded {
        final BsonDocument document;
        final long valuesRedacted;

        Forwarded(final BsonDocument document, final long valuesRedacted) {
            this.document = document;
            this.valuesRedacted = valuesRedacted;
        }
    }

    private static Forwarded send(final FieldRule rule, final BsonValue value) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().addListener(last).build();
        String path = rule.getPath();
        boolean staged = path.startsWith("@stage.");
        BsonDocument placed = at(staged ? path.substring("@stage.".length()) : path, value);
        if (rule.getTarget() == FieldRule.Target.REPLY) {
            listener.commandSucceeded(DriverShapes.succeeded(1, "find", DriverShapes.byteBacked(placed, Backing.RAW)));
            return new Forwarded(last.succeeded.getResponse(), listener.getCounters().getValuesRedacted());
        }
        String name = rule.getCommandName() != null ? rule.getCommandName() : staged ? "aggregate" : "find";
        BsonDocument command = new BsonDocument(name, new BsonString("users"));
        if (staged) {
            command.append("pipeline", new BsonArray(List.of(placed)));
        } else if (path.equals(name)) {
            command = placed;
        } else {
            command.putAll(placed);
        }
        listener.commandStarted(DriverShapes.started(1, name, DriverShapes.byteBacked(command, Backing.BYTE_BUF_HEAP)));
        return new Forwarded(last.started.getCommand(), listener.getCounters().getValuesRedacted());
    }

    @Test
    void everyKeptFieldOfTheDefaultTableKeepsOnlyItsTypes() {
        int checked = 0;
        for (FieldRule rule : RedactionPolicy.defaults().getRules()) {
            if (rule.getAction() != FieldAction.KEEP) {
                continue;
            }
            assertFalse(rule.getTypes().isEmpty(), "a kept field of the default table without types: " + rule);
            for (BsonType type : rule.getTypes()) {
                Forwarded right = send(rule, ofType(type));
                String path = rule.getPath().replace("@stage.", "").replace("*", "dc");
                BsonValue kept = right.document;
                if (rule.getPath().startsWith("@stage.")) {
                    kept = right.document.getArray("pipeline").get(0);
                }
                for (String segment : path.split("\\.")) {
                    kept = kept.asDocument().get(segment);
                }
                assertEquals(ofType(type), kept, rule + " " + right.document.toJson());
            }
            Forwarded wrong = send(rule, otherType(rule));
            String json = wrong.document.toJson(RELAXED);
            assertFalse(json.contains(SECRET), rule + " kept a value of another type: " + json);
            assertTrue(wrong.valuesRedacted >= 1, rule + " counted no value redacted: " + json);
            checked++;
        }
        assertTrue(checked > 100, "kept fields checked: " + checked);
    }

    /** The report's cases, through {@code runCommand} of the real driver: the server would refuse most; the event leaves first. */
    @Test
    void wronglyTypedMetadataSentByTheRealDriverIsRedacted() {
        KeepingListener kept = new KeepingListener();
        CloningListener reference = new CloningListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().addListener(kept).build();
        List<Document> commands = List.of(
                new Document("find", "users").append("filter", new Document()).append("limit", new Document("email", SECRET)),
                new Document("find", "users").append("batchSize", SECRET + "-batch").append("skip", SECRET + "-skip")
                        .append("maxTimeMS", new Document("ms", SECRET + "-ms")),
                new Document("find", "users").append("readConcern", new Document("level", "local")
                        .append("note", SECRET + "-readConcern")),
                new Document("getMore", 42L).append("collection", new Document("name", SECRET + "-collection")),
                new Document("distinct", "users").append("key", new Document("k", SECRET + "-key")),
                new Document("find", new Document("coll", SECRET + "-first")),
                new Document("insert", "users").append("documents", List.of(new Document("a", 1)))
                        .append("ordered", SECRET + "-ordered").append("writeConcern", new Document("w", "majority")
                                .append("note", SECRET + "-writeConcern")));
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(reference, listener);
            MongoDatabase shop = client.getDatabase("shop");
            for (Document command : commands) {
                try {
                    shop.runCommand(command);
                } catch (MongoException e) {
                    // refused by the embedded server: the started event was forwarded before
                }
            }
        }
        assertEquals(0, listener.getCounters().getRedactionFailures());
        assertTrue(reference.commands.toString().contains(SECRET + "-writeConcern"), "the driver's events hold the values");
        String forwarded = kept.json();
        assertFalse(forwarded.contains(SECRET), forwarded);
        assertTrue(listener.getCounters().getValuesRedacted() >= 11, listener.getCounters().toString());
        // what has its type stays
        BsonDocument readConcern = kept.started.get(2).getCommand().getDocument("readConcern");
        assertEquals(new BsonDocument("level", new BsonString("local")).append("note", new BsonString("?string")), readConcern);
        assertEquals(new BsonString("users"), kept.started.get(4).getCommand().get("distinct"));
        assertEquals(new BsonString("majority"), kept.started.get(6).getCommand().getDocument("writeConcern").get("w"));
        List<String> names = new ArrayList<>();
        kept.started.forEach(e -> names.add(e.getCommandName()));
        assertEquals(List.of("find", "find", "find", "getMore", "distinct", "find", "insert"), names);
    }
}
