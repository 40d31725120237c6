package io.github.mongoredact;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import io.github.mongoredact.DriverShapes.Backing;
import org.bson.BsonDocument;
import org.bson.Document;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.github.mongoredact.EmbeddedServer.tolerate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keys that are data, in every user-document position, through the real driver to the embedded server: a wallet keyed by
 * e-mail, {@code $set}/{@code $inc}/{@code $unset} on {@code prefs.<email>}, {@code stats.<day>.<email>},
 * {@code sessions.<token>}, filters, projections and sorts on such keys, reply batches and a {@code findAndModify} value with
 * such keys, an {@code $arrayToObject} pivot; and, as constructed replies, a change stream's {@code updatedFields} and a
 * duplicate key on such an index. Under {@code defaults()} none of the data leaves and the keys around it stay;
 * {@link KeyMasking#NONE} keeps them all.
 */
class DataLikeKeysRealDriverTest {
    private static final JsonWriterSettings RELAXED = JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();
    private static final String TOKEN = "c29tZS1yYW5kb20tdG9rZW4";
    private static final String[] SECRETS = {"alice@example", "bob@example", "grace.hopper", "2026-12-01", TOKEN,
            "6b0dd09aa86bc4d263d28547", "+1 555 0100"};

    private static void workload(final MongoClient client) {
        MongoCollection<Document> users = client.getDatabase("shop").getCollection("users");
        tolerate(() -> users.insertOne(new Document("_id", 1).append("wallet", new Document("alice@example.com", 10)
                .append("bob@example.com", 20).append("grace.hopper@navy.example", 30))
                .append("byId", new Document("6b0dd09aa86bc4d263d28547", "x")).append("phones", new Document("+1 555 0100",
                        "home"))));
        tolerate(() -> users.insertOne(new Document("_id", 2).append("name", "plain")));
        tolerate(() -> users.updateOne(Filters.eq("_id", 2), Updates.combine(Updates.set("prefs.alice@example.com", true),
                Updates.inc("stats.2026-12-01.count", 1), Updates.set("sessions." + TOKEN, "open"))));
        tolerate(() -> users.updateOne(Filters.eq("_id", 2), Updates.unset("prefs.bob@example.com")));
        tolerate(() -> users.find(Filters.and(Filters.exists("prefs.alice@example.com"), Filters.gt("stats.2026-12-01.count",
                0))).projection(Projections.include("prefs.alice@example.com", "sessions." + TOKEN))
                .sort(Sorts.descending("stats.2026-12-01.count")).into(new ArrayList<>()));
        tolerate(() -> users.find().into(new ArrayList<>()));
        tolerate(() -> users.findOneAndUpdate(Filters.eq("_id", 2), Updates.set("prefs.grace.hopper@navy.example", false),
                new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER)));
        tolerate(() -> users.aggregate(List.of(Aggregates.match(Filters.eq("_id", 1)), Aggregates.project(new Document("m",
                new Document("$arrayToObject", List.of(List.of(new Document("k", "alice@example.com").append("v", 1))))))))
                .into(new ArrayList<>()));
    }

    @Test
    void keysThatAreDataDoNotLeaveAndTheOthersStay() {
        KeepingListener kept = new KeepingListener();
        CloningListener reference = new CloningListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().addListener(kept).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            workload(server.client(reference, listener));
        }
        assertEquals(0, listener.getCounters().getRedactionFailures());
        String driverSaw = reference.commands + " " + reference.replies;
        String forwarded = kept.json();
        for (String secret : SECRETS) {
            assertTrue(driverSaw.contains(secret), "the driver's events hold " + secret);
            assertFalse(forwarded.contains(secret), secret + " leaked: " + forwarded);
        }
        // the shape stays around the data: keys and operators that are names
        BsonDocument update = kept.command("update").getArray("updates").get(0).asDocument().getDocument("u");
        assertEquals(BsonDocument.parse("{\"$set\": {\"?key\": \"?bool\", \"sessions.?key1\": \"?string\"},"
                + " \"$inc\": {\"stats.?key.count\": \"?number\"}}"), update);
        BsonDocument find = kept.command("find");
        assertTrue(find.getDocument("sort").containsKey("stats.?key.count"), find.toJson());
        BsonDocument inserted = kept.command("insert").getArray("documents").get(0).asDocument();
        assertEquals(List.of("?key", "?key1", "?key2"), new ArrayList<>(inserted.getDocument("wallet").keySet()));
        assertTrue(forwarded.contains("\"wallet\"") && forwarded.contains("\"prefs\""), forwarded);
    }

    @Test
    void keyMaskingNoneKeepsEveryKey() {
        KeepingListener kept = new KeepingListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.builder()
                .keyMasking(KeyMasking.NONE).build()).addListener(kept).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            workload(server.client(listener));
        }
        String forwarded = kept.json();
        assertTrue(forwarded.contains("prefs.alice@example.com") && forwarded.contains("stats.2026-12-01.count"), forwarded);
        assertFalse(forwarded.contains("?key"), forwarded);
        // values are redacted all the same
        assertFalse(forwarded.contains("\"open\""), forwarded);
    }

    @Test
    void changeStreamFieldsAndDuplicateKeysOnSuchKeysDoNotLeave() {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().addListener(last).build();
        BsonDocument event = BsonDocument.parse("{\"_id\": {\"_data\": \"8263\"}, \"operationType\": \"update\","
                + " \"ns\": {\"db\": \"shop\", \"coll\": \"users\"}, \"documentKey\": {\"_id\": 2}, \"updateDescription\":"
                + " {\"updatedFields\": {\"prefs.alice@example.com\": true, \"stats.2026-12-01.count\": 3, \"sessions."
                + TOKEN + "\": \"open\"}, \"removedFields\": [\"prefs.bob@example.com\"], \"truncatedArrays\": []},"
                + " \"fullDocument\": {\"_id\": 2, \"wallet\": {\"grace.hopper@navy.example\": 30}}}");
        BsonDocument reply = new BsonDocument("cursor", new BsonDocument("nextBatch", new org.bson.BsonArray(List.of(event)))
                .append("id", new org.bson.BsonInt64(42)).append("ns", new org.bson.BsonString("shop.users")))
                .append("ok", new org.bson.BsonDouble(1));
        listener.commandSucceeded(DriverShapes.succeeded(1, "getMore", DriverShapes.byteBacked(reply, Backing.RAW)));
        BsonDocument forwarded = last.succeeded.getResponse();
        String json = forwarded.toJson(RELAXED);
        for (String secret : SECRETS) {
            assertFalse(json.contains(secret), secret + " leaked: " + json);
        }
        BsonDocument updated = forwarded.getDocument("cursor").getArray("nextBatch").get(0).asDocument()
                .getDocument("updateDescription").getDocument("updatedFields");
        assertEquals(List.of("?key", "stats.?key1.count", "sessions.?key2"), new ArrayList<>(updated.keySet()));

        BsonDocument duplicate = BsonDocument.parse("{\"n\": 0, \"writeErrors\": [{\"index\": 0, \"code\": 11000, \"codeName\":"
                + " \"DuplicateKey\", \"errmsg\": \"E11000 duplicate key error collection: shop.users index:"
                + " stats.2026-12-01.count_1 dup key: { stats.2026-12-01.count: 3 }\", \"keyPattern\":"
                + " {\"stats.2026-12-01.count\": 1}, \"keyValue\": {\"stats.2026-12-01.count\": 3}}], \"ok\": 1}");
        listener.commandSucceeded(DriverShapes.succeeded(2, "insert", DriverShapes.byteBacked(duplicate, Backing.RAW)));
        BsonDocument error = last.succeeded.getResponse().getArray("writeErrors").get(0).asDocument();
        assertEquals("E11000 duplicate key error collection: shop.users index: stats.?key.count_1 dup key:"
                + " { stats.?key.count: ? }", error.getString("errmsg").getValue());
        assertEquals(BsonDocument.parse("{\"stats.?key.count\": 1}"), error.getDocument("keyPattern"));
        assertFalse(last.succeeded.getResponse().toJson().contains("2026-12-01"));
    }
}
