package io.github.mongoredact;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.Updates;
import com.mongodb.event.CommandFailedEvent;
import io.github.mongoredact.internal.bson.DriverApi;
import org.bson.BsonDocument;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The workload every supported driver line runs (the build runs this class once per line, with that line's driver on the
 * class path): insertMany with a document sequence, find and getMore, update, bulkWrite, a duplicate key on insertOne and on
 * findOneAndUpdate, a failed runCommand. Under {@code specOnly()} every forwarded command and reply equals, byte for byte,
 * the deep copy taken in the callback; under {@code defaults()} no planted value leaves; under both, nothing the listener does
 * reaches the application.
 */
class DriverLineWorkloadTest {
    /** Every value the workload plants starts with this. */
    static final String PLANTED = "QZXP";

    @Test
    void runsOnTheDriverLineTheBuildPutOnTheClassPath() {
        // the build's execution names its line: driver-5.0, java-25-driver-4.11 ...
        Matcher line = Pattern.compile("driver-(\\d+\\.\\d+)").matcher(System.getProperty("mongo-redact.test.execution", ""));
        String actual = DriverApi.driverVersion();
        if (line.find()) {
            assertTrue(actual.startsWith(line.group(1) + "."), "the driver on the class path: " + actual + ", expected line "
                    + line.group(1));
        }
        assertEquals(null, DriverApi.unsupportedReason(), DriverApi.paths());
        boolean publicOnly = Boolean.getBoolean("io.github.mongoredact.noFieldAccess");
        String raw = atLeast(actual, 5, 8) ? "accessors" : publicOnly ? "getByteBuffer" : "fields";
        String buf = atLeast(actual, 5, 5) ? "isBackedByArray" : "asNIO";
        assertEquals("driver " + actual + ": RawBsonDocument " + raw + ", ByteBuf " + buf, DriverApi.paths());
    }

    @Test
    void theDriversOwnTracingIsDetectedOnlyOnTheLinesThatHaveIt() {
        String actual = DriverApi.driverVersion();
        boolean has = atLeast(actual, 5, 7);
        assertEquals(has, io.github.mongoredact.observation.DriverTracing.isSupported(), "driver " + actual);
        if (!has) {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> io.github.mongoredact.observation.DriverTracing.builder().build());
            assertTrue(refused.getMessage().contains("OpenTelemetryCommandSink"), refused.getMessage());
        }
    }

    @Test
    void specOnlyForwardsExactCopiesOfEveryCommandAndReply() {
        KeepingListener kept = new KeepingListener();
        CloningListener reference = new CloningListener();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .policy(RedactionPolicy.specOnly())
                .addListener(kept)
                .build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            run(server.client(reference, listener));
        }
        assertTrue(reference.commands.size() >= 12, "commands: " + reference.commands.size());
        assertExactCopies(reference, kept);
        assertEquals(2, kept.failed.size(), "failed commands");
        assertEquals(0, listener.getCounters().getRedactionFailures());
        assertEquals(0, listener.getCounters().getSinkFailures());
    }

    @Test
    void defaultsLetNoPlantedValueOut() {
        KeepingListener kept = new KeepingListener();
        CloningListener reference = new CloningListener();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .policy(RedactionPolicy.defaults())
                .addListener(kept)
                .build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            run(server.client(reference, listener));
        }
        assertEquals(reference.commands.size(), kept.started.size());
        List<String> names = new ArrayList<>();
        for (int i = 0; i < kept.started.size(); i++) {
            String json = kept.started.get(i).getCommand().toJson();
            assertFalse(json.contains(PLANTED), json);
            names.add(kept.started.get(i).getCommandName());
            // the metadata stays: the command name and its collection
            assertEquals(reference.commands.get(i).getFirstKey(), kept.started.get(i).getCommand().getFirstKey());
        }
        assertTrue(names.containsAll(Arrays.asList("insert", "find", "getMore", "update", "findAndModify")), names.toString());
        for (int i = 0; i < kept.succeeded.size(); i++) {
            String json = kept.succeeded.get(i).getResponse().toJson();
            assertFalse(json.contains(PLANTED), json);
        }
        assertEquals(2, kept.failed.size(), "failed commands");
        for (CommandFailedEvent failed : kept.failed) {
            Throwable failure = failed.getThrowable();
            assertFalse(String.valueOf(failure).contains(PLANTED), String.valueOf(failure));
            if (failure instanceof MongoCommandException) {
                String response = ((MongoCommandException) failure).getResponse().toJson();
                assertFalse(response.contains(PLANTED), response);
            }
        }
        assertEquals(0, listener.getCounters().getRedactionFailures());
        assertEquals(0, listener.getCounters().getSinkFailures());
    }

    /** Every forwarded command and reply equals, byte for byte, the deep copy taken in the driver's callback. */
    static void assertExactCopies(final CloningListener reference, final KeepingListener kept) {
        assertEquals(reference.commands.size(), kept.started.size());
        for (int i = 0; i < reference.commands.size(); i++) {
            assertArrayEquals(DriverShapes.encode(reference.commands.get(i)),
                    DriverShapes.ownedBytes(kept.started.get(i).getCommand()),
                    "command " + i + " " + kept.started.get(i).getCommandName());
        }
        assertEquals(reference.replies.size(), kept.succeeded.size());
        for (int i = 0; i < reference.replies.size(); i++) {
            assertArrayEquals(DriverShapes.encode(reference.replies.get(i)),
                    DriverShapes.ownedBytes(kept.succeeded.get(i).getResponse()), "reply " + i);
        }
    }

    /** The workload; the exceptions it expects are the server's answers, each checked to be the driver's own. */
    private static void run(final MongoClient client) {
        MongoCollection<Document> customers = client.getDatabase("shop").getCollection("customers");
        customers.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true));
        List<Document> many = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            many.add(new Document("name", PLANTED + "name" + i).append("email", PLANTED + i + "@example.com").append("n", i));
        }
        customers.insertMany(many);
        int found = 0;
        try (MongoCursor<Document> cursor = customers.find(Filters.regex("email", PLANTED + ".*")).batchSize(100).iterator()) {
            while (cursor.hasNext()) {
                cursor.next();
                found++;
            }
        }
        assertEquals(250, found);
        customers.updateOne(Filters.eq("email", PLANTED + "1@example.com"), Updates.set("note", PLANTED + "note"));
        customers.bulkWrite(Arrays.asList(
                new InsertOneModel<>(new Document("name", PLANTED + "bob").append("email", PLANTED + "bob@example.com")),
                new UpdateOneModel<>(Filters.eq("email", PLANTED + "bob@example.com"), Updates.set("vip", PLANTED + "vip"))));
        MongoWriteException duplicate = assertThrows(MongoWriteException.class, () -> customers.insertOne(
                new Document("name", PLANTED + "again").append("email", PLANTED + "2@example.com")));
        assertEquals(11000, duplicate.getCode());
        MongoCommandException duplicateOnUpdate = assertThrows(MongoCommandException.class,
                () -> customers.findOneAndUpdate(Filters.eq("email", PLANTED + "3@example.com"),
                        Updates.set("email", PLANTED + "4@example.com")));
        assertEquals(11000, duplicateOnUpdate.getCode());
        MongoCommandException noCommand = assertThrows(MongoCommandException.class, () -> client.getDatabase("shop")
                .runCommand(new Document("noSuchCommand", 1).append("secret", PLANTED + "secret")));
        assertTrue(noCommand.getCode() != 0, noCommand.toString());
        BsonDocument ping = client.getDatabase("admin").runCommand(new Document("ping", 1)).toBsonDocument();
        assertTrue(ping.containsKey("ok"));
    }

    private static boolean atLeast(final String version, final int major, final int minor) {
        String[] parts = version.split("[.-]");
        int actualMajor = Integer.parseInt(parts[0]);
        int actualMinor = Integer.parseInt(parts[1]);
        return actualMajor > major || (actualMajor == major && actualMinor >= minor);
    }
}
