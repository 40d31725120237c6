package io.github.mongoredact;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteException;
import com.mongodb.ServerAddress;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import com.mongodb.connection.ClusterId;
import com.mongodb.connection.ConnectionDescription;
import com.mongodb.connection.ServerId;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sink that reads neither documents nor fingerprints (metrics alone) takes a path that reads only the command's top level:
 * it gets the same names, collection, sizes and error codes as a sink on the full path.
 */
class MetricsOnlyPathTest {

    @Test
    void metricsOnlyPathGivesTheSameFactsAsTheFullPathOnTheRealDriver() {
        Recording metrics = new Recording(false, false);
        Recording full = new Recording(true, true);
        RedactingCommandListener metricsOnly = RedactingCommandListener.builder().addSink(metrics).build();
        RedactingCommandListener copying = RedactingCommandListener.builder().addSink(full).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            workload(server.client(metricsOnly, copying).getDatabase("test"));
        }
        assertTrue(full.facts.size() >= 15, full.facts.toString());
        assertEquals(full.facts, metrics.facts);
        assertTrue(metrics.facts.stream().anyMatch(f -> f.startsWith("insert test users ")), metrics.facts.toString());
        assertTrue(metrics.facts.stream().anyMatch(f -> f.startsWith("getMore test users ")), metrics.facts.toString());
        assertTrue(metrics.facts.stream().anyMatch(f -> f.startsWith("insert test users ") && f.endsWith(" 11000 DuplicateKey")),
                "a write error's code: " + metrics.facts);
        assertEquals(0, metricsOnly.getCounters().getRedactionFailures());
        assertEquals(0, metricsOnly.getCounters().getValuesRedacted(), "nothing is copied, so no value is replaced");
        assertTrue(copying.getCounters().getValuesRedacted() > 0);
    }

    @Test
    void micrometerSinkAloneRecordsTheSameMetersAsNextToACopyingListener() {
        SimpleMeterRegistry alone = new SimpleMeterRegistry();
        SimpleMeterRegistry withCopies = new SimpleMeterRegistry();
        RedactingCommandListener metricsOnly = RedactingCommandListener.builder()
                .addSink(MicrometerCommandSink.builder(alone).sizeSummaries(true).build()).build();
        RedactingCommandListener copying = RedactingCommandListener.builder()
                .addSink(MicrometerCommandSink.builder(withCopies).sizeSummaries(true).build())
                .addListener(new CommandListener() { }).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            workload(server.client(metricsOnly, copying).getDatabase("test"));
        }
        Map<String, String> expected = meters(withCopies);
        assertTrue(expected.size() >= 15, expected.toString());
        assertTrue(expected.keySet().stream().anyMatch(k -> k.startsWith(MicrometerCommandSink.COMMAND_SIZE + "[")
                && k.contains("tag(command=insert)")), expected.toString());
        assertEquals(expected, meters(alone));
    }

    @Test
    void collectionFollowsTheRulesOfTheFirstFieldOnBothShapes() {
        RedactionPolicy redactsInsert = RedactionPolicy.builder().clearRules().keep("getMore").redact("insert").build();
        RedactionPolicy redactsInsertAnywhere = RedactionPolicy.builder().clearRules()
                .unmatchedCommandAction(FieldAction.KEEP).redact("**.insert").build();
        RedactionPolicy keepsInsertAnywhere = RedactionPolicy.builder().clearRules().keep("**.insert").build();
        for (RedactionPolicy policy : new RedactionPolicy[]{RedactionPolicy.defaults(), RedactionPolicy.specOnly(),
                redactsInsert, redactsInsertAnywhere, keepsInsertAnywhere}) {
            for (BsonDocument command : new BsonDocument[]{insert("customers", 3), raw(insert("customers", 3)),
                    insert("kunden-\u00fc", 1), raw(insert("kunden-\u00fc", 1)),
                    getMore("orders"), raw(getMore("orders")), new BsonDocument("ping", new BsonInt32(1)),
                    new BsonDocument("insert", new BsonDocument("not", new BsonString("a name")))}) {
                String label = policy + " " + command.toJson();
                StartedCommand fullPath = start(policy, true, command);
                StartedCommand metricsPath = start(policy, false, command);
                assertNull(metricsPath.getCommand(), label);
                assertEquals(fullPath.getCollectionName(), metricsPath.getCollectionName(), label);
                assertEquals(fullPath.getCommandSize(), metricsPath.getCommandSize(), label);
                assertEquals(RawBytes.length(raw(command)), metricsPath.getCommandSize(), label);
            }
        }
        assertEquals("customers", start(RedactionPolicy.defaults(), false, insert("customers", 3)).getCollectionName());
        assertNull(start(redactsInsert, false, insert("customers", 3)).getCollectionName());
        assertNull(start(redactsInsert, false, raw(insert("customers", 3))).getCollectionName());
        assertNull(start(redactsInsert, false, getMore("orders")).getCollectionName(),
                "getMore's collection field is read only where the rules keep it: this copy hides it");
        RedactionPolicy keepsCollection = RedactionPolicy.builder(redactsInsert).keep("collection").build();
        assertEquals("orders", start(keepsCollection, false, getMore("orders")).getCollectionName(),
                "getMore's collection field is read whatever the rules of its first field");
        assertEquals("orders", start(keepsCollection, true, raw(getMore("orders"))).getCollectionName());
        assertNull(start(redactsInsertAnywhere, false, raw(insert("customers", 3))).getCollectionName());
        assertNull(start(redactsInsertAnywhere, false, insert("customers", 3)).getCollectionName());
        assertEquals("customers", start(keepsInsertAnywhere, false, insert("customers", 3)).getCollectionName());
        assertEquals("customers", start(keepsInsertAnywhere, false, raw(insert("customers", 3))).getCollectionName());
        assertEquals("orders", start(RedactionPolicy.defaults(), false, raw(getMore("orders"))).getCollectionName());
    }

    @Test
    void aPlainTopLevelIsCountedOnlyWhenASinkReadsItsSize() {
        BsonDocument plain = insert("customers", 3);
        int size = RawBytes.length(raw(plain));
        assertEquals(size, start(new Recording(false, false), plain).getCommandSize(), "a sink that reads sizes by default");
        assertEquals(0, start(new Recording(false, false, false), plain).getCommandSize(),
                "metrics alone, no sink reads the size: the plain top level is not counted");
        assertEquals(size, start(new Recording(false, false, false), raw(plain)).getCommandSize(),
                "a byte-backed command's length costs nothing and is given");
        assertEquals(size, start(new Recording(true, false, false), plain).getCommandSize(), "a copy's size comes with it");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Recording beside = new Recording(false, false, false);
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .addSink(MicrometerCommandSink.builder(registry).build()).addSink(beside).build();
        listener.commandStarted(new CommandStartedEvent(null, 1, 7,
                new ConnectionDescription(new ServerId(new ClusterId(), new ServerAddress())), "shop", "insert", plain));
        assertEquals(0, beside.lastStarted.getCommandSize(), "Micrometer's sink without its size summaries reads no size");
        Recording sized = new Recording(false, false, false);
        RedactingCommandListener withSizes = RedactingCommandListener.builder()
                .addSink(MicrometerCommandSink.builder(registry).sizeSummaries(true).build()).addSink(sized).build();
        withSizes.commandStarted(new CommandStartedEvent(null, 1, 7,
                new ConnectionDescription(new ServerId(new ClusterId(), new ServerAddress())), "shop", "insert", plain));
        assertEquals(size, sized.lastStarted.getCommandSize(), "with them it does");
    }

    @Test
    void firstFieldRulesAreTheCommandsOwnEvenForTheSameKey() {
        RedactionPolicy keepsForInsertOnly = RedactionPolicy.builder().clearRules()
                .field("insert", "insert", FieldAction.KEEP).build();
        Recording metrics = new Recording(false, false);
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(keepsForInsertOnly).addSink(metrics)
                .build();
        ConnectionDescription connection = new ConnectionDescription(new ServerId(new ClusterId(), new ServerAddress()));
        for (BsonDocument command : new BsonDocument[]{insert("customers", 2), raw(insert("customers", 2))}) {
            for (int round = 0; round < 2; round++) {
                listener.commandStarted(new CommandStartedEvent(null, 1, 7, connection, "shop", "insert", command));
                assertEquals("customers", metrics.lastStarted.getCollectionName(), command.getClass().getName());
                listener.commandStarted(new CommandStartedEvent(null, 1, 8, connection, "shop", "count", command));
                assertNull(metrics.lastStarted.getCollectionName(), "count's rules do not keep the field");
            }
        }
    }

    private static void workload(final MongoDatabase db) {
        MongoCollection<Document> users = db.getCollection("users");
        List<Document> many = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            many.add(new Document("_id", i).append("email", "u" + i + "@example.com"));
        }
        users.insertMany(many);
        users.insertOne(new Document("_id", 100).append("email", "x@example.com"));
        users.find(Filters.eq("email", "u1@example.com")).first();
        assertEquals(51, users.find().batchSize(10).into(new ArrayList<>()).size());
        users.countDocuments(Filters.gt("_id", 1));
        users.updateOne(Filters.eq("_id", 2), Updates.set("email", "z@example.com"));
        users.deleteOne(Filters.eq("_id", 3));
        users.aggregate(List.of(new Document("$match", new Document("_id", new Document("$lt", 5))))).into(new ArrayList<>());
        db.getCollection("k\u00fcnden").insertOne(new Document("_id", 1));
        db.runCommand(new Document("ping", 1));
        assertThrows(MongoCommandException.class, () -> db.runCommand(new Document("noSuchCommand", 1)));
        // a write error under ok: 1 (a duplicate key)
        assertThrows(MongoWriteException.class, () -> users.insertOne(new Document("_id", 100)));
    }

    /** Each meter as its sorted tags, with its count (and total for sizes). */
    private static Map<String, String> meters(final SimpleMeterRegistry registry) {
        Map<String, String> meters = new TreeMap<>();
        for (Meter meter : registry.getMeters()) {
            String key = meter.getId().getName() + new TreeSet<>(meter.getId().getTags());
            if (meter instanceof Timer) {
                meters.put(key, "count=" + ((Timer) meter).count());
            } else if (meter instanceof DistributionSummary) {
                DistributionSummary summary = (DistributionSummary) meter;
                meters.put(key, "count=" + summary.count() + " total=" + summary.totalAmount());
            } else {
                meters.put(key, meter.measure().toString());
            }
        }
        return meters;
    }

    private static StartedCommand start(final RedactionPolicy policy, final boolean documents, final BsonDocument command) {
        return start(policy, new Recording(documents, documents), command);
    }

    private static StartedCommand start(final Recording recording, final BsonDocument command) {
        return start(RedactionPolicy.defaults(), recording, command);
    }

    private static StartedCommand start(final RedactionPolicy policy, final Recording recording, final BsonDocument command) {
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addSink(recording).build();
        listener.commandStarted(new CommandStartedEvent(null, 1, 7,
                new ConnectionDescription(new ServerId(new ClusterId(), new ServerAddress())), "shop",
                command.getFirstKey(), command));
        assertEquals(0, listener.getCounters().getRedactionFailures(), command.toJson());
        return recording.lastStarted;
    }

    private static BsonDocument insert(final String collection, final int count) {
        BsonArray documents = new BsonArray();
        for (int i = 0; i < count; i++) {
            documents.add(new RawBsonDocument(new BsonDocument("_id", new BsonInt32(i))
                    .append("email", new BsonString("c" + i + "@example.com")), new BsonDocumentCodec()));
        }
        return new BsonDocument("insert", new BsonString(collection)).append("ordered", BsonBoolean.TRUE)
                .append("$db", new BsonString("shop")).append("documents", documents);
    }

    private static BsonDocument getMore(final String collection) {
        return new BsonDocument("getMore", new BsonInt64(42)).append("collection", new BsonString(collection))
                .append("batchSize", new BsonInt32(10)).append("$db", new BsonString("shop"));
    }

    private static RawBsonDocument raw(final BsonDocument document) {
        return new RawBsonDocument(document, new BsonDocumentCodec());
    }

    /** A sink that records what it is given as one line per completion. */
    private static final class Recording implements CommandSink {
        private final boolean documents;
        private final boolean fingerprint;
        private final boolean size;
        final List<String> facts = new ArrayList<>();
        StartedCommand lastStarted;

        Recording(final boolean documents, final boolean fingerprint) {
            this(documents, fingerprint, true);
        }

        Recording(final boolean documents, final boolean fingerprint, final boolean size) {
            this.documents = documents;
            this.fingerprint = fingerprint;
            this.size = size;
        }

        @Override
        public boolean needsCommandSize() {
            return size;
        }

        @Override
        public boolean needsDocuments() {
            return documents;
        }

        @Override
        public boolean needsFingerprint() {
            return fingerprint;
        }

        @Override
        public synchronized void started(final StartedCommand command) {
            lastStarted = command;
        }

        @Override
        public synchronized void completed(final CompletedCommand command) {
            StartedCommand started = command.getStarted();
            facts.add(started.getCommandName() + " " + started.getDatabaseName() + " " + started.getCollectionName() + " "
                    + started.getCommandSize() + " " + command.isStartKnown() + " " + command.isSucceeded() + " "
                    + command.getReplySize() + " " + command.getErrorCode() + " " + command.getErrorCodeName());
        }
    }
}
