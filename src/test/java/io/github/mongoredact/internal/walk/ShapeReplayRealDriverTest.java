package io.github.mongoredact.internal.walk;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.StartedCommand;
import org.bson.BsonDocument;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Finds by id through the real driver, against the embedded server, to a sink that reads copies but not the fingerprint:
 * after the first of each collection, each is a replay of that first's walk (the sync driver calls the listener on the
 * caller's thread, whose redactor this test reads), and each copy holds its own collection and none of the ids.
 */
class ShapeReplayRealDriverTest {

    @Test
    void findsByIdAfterTheFirstAreReplayedWithTheirOwnKeptValues() {
        List<BsonDocument> finds = new ArrayList<>();
        RedactingCommandListener listener = RedactingCommandListener.builder().addSink(new CommandSink() {
            @Override
            public boolean needsDocuments() {
                return true;
            }

            @Override
            public boolean needsFingerprint() {
                // the fingerprint is walked every time: a sink that reads it gets no replay
                return false;
            }

            @Override
            public void started(final StartedCommand command) {
                BsonDocument copy = command.getCommand();
                if ("find".equals(command.getCommandName()) && copy != null) {
                    finds.add(copy);
                }
            }
        }).build();
        long[] replays = new long[2];
        Throwable[] failure = new Throwable[1];
        // a fresh thread: a fresh redactor, whose shapes earlier tests on this thread did not use
        Thread thread = new Thread(() -> {
            try {
                workload(listener, replays);
            } catch (Throwable e) {
                failure[0] = e;
            }
        });
        thread.start();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        if (failure[0] != null) {
            throw new AssertionError(failure[0]);
        }
        assertEquals(0, listener.getCounters().getRedactionFailures());
        // users and orders are both kept collections of 5 and 6 bytes: each alternates with its own shape
        assertTrue(replays[1] - replays[0] >= 19, "replays: " + (replays[1] - replays[0]));
        assertEquals(39, finds.size());
        for (int i = 0; i < finds.size(); i++) {
            String json = finds.get(i).toJson();
            assertEquals(i == 0 || i % 2 == 1 ? "users" : "orders", finds.get(i).getString("find").getValue(), json);
            assertFalse(json.contains("70") || json.contains("90"), json);
            assertTrue(json.contains("\"_id\": \"?"), json);
        }
    }

    private static void workload(final RedactingCommandListener listener, final long[] replays) {
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(listener);
            MongoCollection<Document> users = client.getDatabase("shop").getCollection("users");
            MongoCollection<Document> orders = client.getDatabase("shop").getCollection("orders");
            for (int i = 0; i < 20; i++) {
                users.insertOne(new Document("_id", 7000 + i).append("email", "user" + i + "@example.com"));
            }
            users.find(Filters.eq("_id", 7000)).first();
            replays[0] = DocumentRedactor.current().replays();
            for (int i = 1; i < 20; i++) {
                users.find(Filters.eq("_id", 7000 + i)).first();
                orders.find(Filters.eq("_id", 9000 + i)).first();
            }
            replays[1] = DocumentRedactor.current().replays();
        }
    }
}
