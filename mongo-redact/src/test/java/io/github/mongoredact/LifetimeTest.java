package io.github.mongoredact;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.model.DeleteOneModel;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.Updates;
import org.bson.BsonDocument;
import org.bson.Document;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lifetime hazard, against the real driver and server: what the listener forwards survives; what the driver hands out
 * does not.
 */
class LifetimeTest {
    private static final JsonWriterSettings CANONICAL = JsonWriterSettings.builder().outputMode(JsonMode.EXTENDED).build();

    @Test
    void forwardedDocumentsStayValidAfterMoreOperationsWhileRawDriverDocumentsDoNot() throws Exception {
        KeepingListener kept = new KeepingListener();
        KeepingListener rawKept = new KeepingListener();
        CloningListener reference = new CloningListener();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .policy(RedactionPolicy.specOnly())
                .addListener(kept)
                .build();
        List<String> rawAtCallback = new ArrayList<>();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(reference, listener, rawKept, new com.mongodb.event.CommandListener() {
                @Override
                public void commandStarted(final com.mongodb.event.CommandStartedEvent event) {
                    rawAtCallback.add(event.getCommand().toJson(CANONICAL));
                }
            });
            runWorkload(client);
            int workloadCommands = kept.started.size();
            MongoCollection<Document> other = client.getDatabase("shop").getCollection("other");
            for (int i = 0; i < 200; i++) {
                other.insertOne(new Document("i", i).append("pad", "x".repeat(i % 50)));
            }

            assertTrue(workloadCommands >= 12, "workload commands: " + workloadCommands);
            assertEquals(reference.commands.size(), kept.started.size());
            assertEquals(reference.replies.size(), kept.succeeded.size());
            for (int i = 0; i < reference.commands.size(); i++) {
                assertEquals(reference.commands.get(i).toJson(CANONICAL), kept.started.get(i).getCommand().toJson(CANONICAL),
                        "command " + i + " " + kept.started.get(i).getCommandName());
            }
            for (int i = 0; i < reference.replies.size(); i++) {
                assertEquals(reference.replies.get(i).toJson(CANONICAL), kept.succeeded.get(i).getResponse().toJson(CANONICAL),
                        "reply " + i);
            }
            // read from another thread too
            List<String> fromOtherThread = CompletableFuture.supplyAsync(() -> {
                List<String> json = new ArrayList<>();
                for (com.mongodb.event.CommandStartedEvent event : kept.started) {
                    json.add(event.getCommand().toJson(CANONICAL));
                }
                return json;
            }).get();
            for (int i = 0; i < reference.commands.size(); i++) {
                assertEquals(reference.commands.get(i).toJson(CANONICAL), fromOtherThread.get(i));
            }

            // the driver's own documents, kept the same way, do not survive
            int wrong = 0;
            int threw = 0;
            for (int i = 0; i < workloadCommands; i++) {
                try {
                    String readBack = rawKept.started.get(i).getCommand().toJson(CANONICAL);
                    if (!readBack.equals(rawAtCallback.get(i))) {
                        wrong++;
                        System.out.println("kept " + rawKept.started.get(i).getCommandName() + " read back as "
                                + readBack.substring(0, Math.min(120, readBack.length())));
                    }
                } catch (RuntimeException e) {
                    threw++;
                    System.out.println("kept " + rawKept.started.get(i).getCommandName() + " threw " + e);
                }
            }
            PrintedFigures.record(LifetimeTest.class, "kept driver commands", workloadCommands);
            PrintedFigures.record(LifetimeTest.class, "read back wrong", wrong);
            PrintedFigures.record(LifetimeTest.class, "threw", threw);
            assertTrue(wrong + threw > 0, "kept raw driver documents all read back intact: " + workloadCommands);
        }
    }

    static void runWorkload(final MongoClient client) {
        MongoCollection<Document> customers = client.getDatabase("shop").getCollection("customers");
        customers.insertOne(new Document("name", "Alice").append("email", "alice@example.com"));
        List<Document> many = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            many.add(new Document("name", "Customer " + i).append("email", "c" + i + "@example.com").append("n", i));
        }
        customers.insertMany(many);
        customers.updateMany(Filters.lt("n", 10), Updates.set("vip", true));
        customers.deleteMany(Filters.gt("n", 990));
        customers.bulkWrite(Arrays.asList(
                new InsertOneModel<>(new Document("name", "Bob").append("email", "bob@example.com")),
                new UpdateOneModel<>(Filters.eq("email", "bob@example.com"), Updates.set("vip", false)),
                new DeleteOneModel<>(Filters.eq("n", 5))));
        int found = 0;
        try (MongoCursor<Document> cursor = customers.find(Filters.gte("n", 0)).batchSize(100).iterator()) {
            while (cursor.hasNext()) {
                cursor.next();
                found++;
            }
        }
        assertTrue(found > 900, "found " + found);
        customers.aggregate(Arrays.asList(new Document("$match", new Document("vip", true)),
                new Document("$group", new Document("_id", "$vip").append("count", new Document("$sum", 1))))).first();
        customers.countDocuments(Filters.eq("email", "alice@example.com"));
        BsonDocument ping = client.getDatabase("admin").runCommand(new Document("ping", 1)).toBsonDocument();
        assertTrue(ping.containsKey("ok"));
    }
}
