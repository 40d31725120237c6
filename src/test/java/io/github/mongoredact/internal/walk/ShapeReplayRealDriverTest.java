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
 * Finds by id through the real driver, against the embedded server, to a sink that reads copies (and the fingerprint, or
 * not): after the first of each collection, each is a replay of that first's walk (the sync driver calls the listener on the
 * caller's thread, whose redactor this test reads), each copy holds its own collection and none of the ids, and each
 * collection keeps its own fingerprint.
 */
class ShapeReplayRealDriverTest {

    @Test
    void findsByIdAfterTheFirstAreReplayedWithTheirOwnKeptValues() {
        Run run = new Run(false);
        for (int i = 0; i < run.finds.size(); i++) {
            String json = run.finds.get(i).toJson();
            assertEquals(i == 0 || i % 2 == 1 ? "users" : "orders", run.finds.get(i).getString("find").getValue(), json);
            assertFalse(json.contains("70") || json.contains("90"), json);
            assertTrue(json.contains("\"_id\": \"?"), json);
        }
    }

    @Test
    void toASinkThatReadsTheFingerprintEachCollectionKeepsItsOwn() {
        Run run = new Run(true);
        long users = run.fingerprints.get(0);
        long orders = run.fingerprints.get(2);
        assertTrue(users != 0 && orders != 0 && users != orders);
        for (int i = 0; i < run.fingerprints.size(); i++) {
            assertEquals(i == 0 || i % 2 == 1 ? users : orders, run.fingerprints.get(i), "find " + i);
        }
    }

    /** The workload on a fresh thread (a fresh redactor, whose shapes no earlier test used), to a sink of find copies. */
    private static final class Run {
        final List<BsonDocument> finds = new ArrayList<>();
        final List<Long> fingerprints = new ArrayList<>();

        Run(final boolean fingerprint) {
            RedactingCommandListener listener = RedactingCommandListener.builder().addSink(new CommandSink() {
                @Override
                public boolean needsFingerprint() {
                    return fingerprint;
                }

                @Override
                public void started(final StartedCommand command) {
                    BsonDocument copy = command.getCommand();
                    if ("find".equals(command.getCommandName()) && copy != null) {
                        finds.add(copy);
                        fingerprints.add(command.getFingerprint());
                    }
                }
            }).build();
            long[] replays = new long[2];
            Throwable[] failure = new Throwable[1];
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
            // users and orders are kept collection names of 5 and 6 bytes: each has a shape of its own
            assertTrue(replays[1] - replays[0] >= 19, "replays: " + (replays[1] - replays[0]));
            assertEquals(39, finds.size());
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
