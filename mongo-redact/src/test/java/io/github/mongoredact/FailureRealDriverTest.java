package io.github.mongoredact;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.Updates;
import com.mongodb.event.CommandFailedEvent;
import org.bson.BsonString;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.github.mongoredact.FailureLeaks.EMAIL;
import static io.github.mongoredact.FailureLeaks.NUMBER;
import static io.github.mongoredact.FailureLeaks.SECRET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Failures the real driver builds from the embedded server's replies, through {@link RedactingCommandListener} under
 * {@link RedactionPolicy#defaults()} to a capturing listener: the application still sees the original failure, the
 * downstream listener a rebuilt one of the same type, code and code name, without the planted values.
 */
class FailureRealDriverTest {

    /** The application's failure quotes the values (so the test means something); the forwarded one does not. */
    private static CommandFailedEvent onlyFailure(final KeepingListener kept, final MongoException seenByApplication) {
        String text = seenByApplication.getMessage() + seenByApplication;
        assertTrue(text.contains(EMAIL) || text.contains(SECRET) || text.contains(NUMBER), text);
        assertEquals(1, kept.failed.size());
        CommandFailedEvent failed = kept.failed.get(0);
        FailureLeaks.assertNoSecret(failed.getThrowable());
        return failed;
    }

    @Test
    void duplicateKeyOfFindOneAndUpdateIsRedacted() {
        KeepingListener kept = new KeepingListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(kept).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(listener);
            MongoCollection<Document> users = client.getDatabase("shop").getCollection("users");
            users.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true));
            users.insertOne(new Document("email", EMAIL).append("n", Long.parseLong(NUMBER)));
            users.insertOne(new Document("email", "other@example.org"));
            kept.failed.clear();
            MongoCommandException seen = assertThrows(MongoCommandException.class, () -> users.findOneAndUpdate(
                    Filters.eq("email", "other@example.org"), Updates.set("email", EMAIL)));
            CommandFailedEvent failed = onlyFailure(kept, seen);
            assertEquals("findAndModify", failed.getCommandName());
            MongoCommandException forwarded = (MongoCommandException) failed.getThrowable();
            assertSame(seen.getClass(), forwarded.getClass());
            assertEquals(seen.getErrorCode(), forwarded.getErrorCode());
            assertEquals(seen.getErrorCodeName(), forwarded.getErrorCodeName());
            assertEquals(seen.getServerAddress(), forwarded.getServerAddress());
            assertEquals(seen.getErrorLabels(), forwarded.getErrorLabels());
        }
        assertEquals(0, listener.getCounters().getRedactionFailures());
    }

    @Test
    void failedRunCommandIsRedacted() {
        KeepingListener kept = new KeepingListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(kept).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(listener);
            MongoCollection<Document> users = client.getDatabase("shop").getCollection("users");
            users.createIndex(Indexes.ascending("email", "n"), new IndexOptions().unique(true));
            users.insertOne(new Document("email", EMAIL).append("n", Long.parseLong(NUMBER)));
            kept.failed.clear();
            // an upsert, sent as a plain runCommand, that inserts the same (email, n) again
            MongoCommandException seen = assertThrows(MongoCommandException.class, () -> client.getDatabase("shop")
                    .runCommand(new Document("findAndModify", "users").append("query", new Document("tag", SECRET))
                            .append("update", new Document("$set", new Document("email", EMAIL)
                                    .append("n", Long.parseLong(NUMBER)))).append("upsert", true)));
            CommandFailedEvent failed = onlyFailure(kept, seen);
            MongoCommandException forwarded = (MongoCommandException) failed.getThrowable();
            assertSame(seen.getClass(), forwarded.getClass());
            assertEquals(seen.getErrorCode(), forwarded.getErrorCode());
            assertEquals(seen.getErrorCodeName(), forwarded.getErrorCodeName());
        }
        assertEquals(0, listener.getCounters().getRedactionFailures());
    }

    @Test
    void writeFailuresTheDriverThrowsAreRedactedWhenForwarded() {
        // the embedded server reports these inside ok: 1 replies (succeeded events); the driver throws them to the
        // application: forwarded as failures they must lose the values too, upserted ids included
        MongoWriteException single;
        MongoBulkWriteException bulk;
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoCollection<Document> users = server.client().getDatabase("shop").getCollection("users");
            users.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true));
            users.insertOne(new Document("email", EMAIL));
            single = assertThrows(MongoWriteException.class, () -> users.insertOne(new Document("email", EMAIL)));
            bulk = assertThrows(MongoBulkWriteException.class, () -> users.bulkWrite(List.of(
                    new UpdateOneModel<>(Filters.eq("_id", SECRET), Updates.set("n", Long.parseLong(NUMBER)),
                            new UpdateOptions().upsert(true)),
                    new InsertOneModel<>(new Document("email", EMAIL))), new BulkWriteOptions().ordered(false)));
        }
        assertEquals(new BsonString(SECRET), bulk.getWriteResult().getUpserts().get(0).getId());
        MongoWriteException forwardedSingle = assertInstanceOf(MongoWriteException.class,
                FailureLeaks.forward("insert", single, false));
        assertEquals(single.getCode(), forwardedSingle.getCode());
        assertEquals(single.getError().getCategory(), forwardedSingle.getError().getCategory());
        MongoBulkWriteException forwardedBulk = assertInstanceOf(MongoBulkWriteException.class,
                FailureLeaks.forward("update", bulk, false));
        assertEquals(1, forwardedBulk.getWriteResult().getUpserts().size());
        assertEquals(bulk.getWriteResult().getMatchedCount(), forwardedBulk.getWriteResult().getMatchedCount());
        assertEquals(bulk.getWriteErrors().get(0).getIndex(), forwardedBulk.getWriteErrors().get(0).getIndex());
        assertEquals(bulk.getWriteErrors().get(0).getCode(), forwardedBulk.getWriteErrors().get(0).getCode());
    }
}
