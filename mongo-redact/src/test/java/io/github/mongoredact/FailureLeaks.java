package io.github.mongoredact;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.MongoWriteException;
import com.mongodb.ServerAddress;
import com.mongodb.WriteConcernException;
import com.mongodb.WriteConcernResult;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.bulk.BulkWriteInsert;
import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.bulk.BulkWriteUpsert;
import com.mongodb.bulk.WriteConcernError;
import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonString;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Planted secrets and the check that none of them survives anywhere a rebuilt failure shows: message, {@code toString()},
 * printed stack trace (which prints causes and suppressed failures), response and details documents as JSON, write results,
 * for every failure of the cause chain.
 */
final class FailureLeaks {
    static final String SECRET = "QZXSECRET";
    static final String EMAIL = "qzx.alice@example.com";
    static final String NUMBER = "4222222222222222";
    static final String[] ALL = {SECRET, EMAIL, NUMBER};
    static final ServerAddress ADDRESS = new ServerAddress("127.0.0.1", 27017);
    /** A server-like message quoting all three, in the shapes the server writes (quoted strings, values in braces). */
    static final String TEXT = "E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: \""
            + EMAIL + "\", n: " + NUMBER + " } note '" + SECRET + "'";

    private FailureLeaks() {
    }

    /** A document holding all three, at the top level and nested. */
    static BsonDocument document() {
        return new BsonDocument("keyValue", new BsonDocument("email", new BsonString(EMAIL)))
                .append("n", new BsonInt64(Long.parseLong(NUMBER)))
                .append("details", new BsonDocument("reason", new BsonString(SECRET)));
    }

    static BsonDocument response(final int code, final String codeName, final String... labels) {
        List<org.bson.BsonValue> array = new ArrayList<>();
        for (String label : labels) {
            array.add(new BsonString(label));
        }
        return new BsonDocument("ok", new org.bson.BsonDouble(0)).append("errmsg", new BsonString(TEXT))
                .append("code", new org.bson.BsonInt32(code)).append("codeName", new BsonString(codeName))
                .append("errorLabels", new org.bson.BsonArray(array))
                .append("keyValue", new BsonDocument("email", new BsonString(EMAIL)))
                .append("errInfo", document());
    }

    /** Asserts that no planted value is shown by the failure, its causes and its suppressed failures. */
    static void assertNoSecret(final Throwable failure) {
        StringWriter printed = new StringWriter();
        failure.printStackTrace(new PrintWriter(printed));
        assertClean("printed stack trace", printed.toString());
        walk(failure, Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static void walk(@Nullable final Throwable failure, final Set<Throwable> seen) {
        if (failure == null || !seen.add(failure)) {
            return;
        }
        assertClean("message", failure.getMessage());
        assertClean("toString", failure.toString());
        if (failure instanceof MongoCommandException) {
            assertClean("response", ((MongoCommandException) failure).getResponse().toJson());
        }
        if (failure instanceof WriteConcernException) {
            assertClean("response", ((WriteConcernException) failure).getResponse().toJson());
            assertResult(((WriteConcernException) failure).getWriteConcernResult());
        }
        if (failure instanceof MongoWriteException) {
            MongoWriteException e = (MongoWriteException) failure;
            assertClean("write error", e.getError().getMessage());
            assertClean("details", e.getError().getDetails().toJson());
        }
        if (failure instanceof MongoBulkWriteException) {
            MongoBulkWriteException e = (MongoBulkWriteException) failure;
            for (BulkWriteError error : e.getWriteErrors()) {
                assertClean("write error", error.getMessage());
                assertClean("details", error.getDetails().toJson());
            }
            assertConcern(e.getWriteConcernError());
            assertResult(e.getWriteResult());
        }
        if (failure instanceof MongoWriteConcernException) {
            MongoWriteConcernException e = (MongoWriteConcernException) failure;
            assertConcern(e.getWriteConcernError());
            assertResult(e.getWriteResult());
        }
        if (failure instanceof MongoSecurityException) {
            assertClean("credential", String.valueOf(((MongoSecurityException) failure).getCredential()));
        }
        walk(failure.getCause(), seen);
        for (Throwable suppressed : failure.getSuppressed()) {
            walk(suppressed, seen);
        }
    }

    private static void assertConcern(@Nullable final WriteConcernError error) {
        if (error != null) {
            assertClean("write concern error", error.getMessage());
            assertClean("write concern details", error.getDetails().toJson());
        }
    }

    private static void assertResult(@Nullable final BulkWriteResult result) {
        if (result != null && result.wasAcknowledged()) {
            for (BulkWriteUpsert upsert : result.getUpserts()) {
                assertClean("upserted id", upsert.getId().toString());
            }
            for (BulkWriteInsert insert : result.getInserts()) {
                assertClean("inserted id", insert.getId().toString());
            }
            assertClean("write result", result.toString());
        }
    }

    private static void assertResult(@Nullable final WriteConcernResult result) {
        if (result != null) {
            assertClean("write result", result.toString());
            if (result.wasAcknowledged() && result.getUpsertedId() != null) {
                assertClean("upserted id", result.getUpsertedId().toString());
            }
        }
    }

    static void assertClean(final String where, @Nullable final String text) {
        if (text == null) {
            return;
        }
        for (String secret : ALL) {
            assertFalse(text.contains(secret), () -> where + " holds " + secret + ": " + text);
        }
    }

    /**
     * Asserts the planted values are really in the original, so that a clean result means something.
     *
     * @param all whether all three must be there (a failure built by the test), else at least one (one the driver built)
     */
    static void assertPlanted(final Throwable original, final boolean all) {
        StringWriter printed = new StringWriter();
        original.printStackTrace(new PrintWriter(printed));
        String text = printed + deepText(original);
        int found = 0;
        for (String secret : ALL) {
            assertFalse(all && !text.contains(secret), () -> "the original does not hold " + secret + ": " + text);
            found += text.contains(secret) ? 1 : 0;
        }
        assertTrue(found > 0, () -> "the original holds no planted value: the test proves nothing: " + text);
    }

    private static String deepText(final Throwable original) {
        StringBuilder text = new StringBuilder();
        Throwable t = original;
        for (int i = 0; t != null && i < 20; i++, t = t.getCause()) {
            if (t instanceof MongoCommandException) {
                text.append(((MongoCommandException) t).getResponse().toJson());
            }
            if (t instanceof MongoBulkWriteException) {
                text.append(((MongoBulkWriteException) t).getWriteResult());
            }
            if (t instanceof MongoWriteConcernException) {
                text.append(((MongoWriteConcernException) t).getWriteResult());
            }
            if (t instanceof MongoSecurityException) {
                text.append(((MongoSecurityException) t).getCredential());
            }
        }
        return text.toString();
    }

    /** Forwards the failure through a listener under the default policy and returns what the downstream listener got. */
    static Throwable forward(final String commandName, final Throwable failure) {
        return forward(commandName, failure, true);
    }

    /** As {@link #forward(String, Throwable)}, for a failure that may hold only some of the planted values. */
    static Throwable forward(final String commandName, final Throwable failure, final boolean allPlanted) {
        assertPlanted(failure, allPlanted);
        KeepingListener kept = new KeepingListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(kept).build();
        listener.commandFailed(DriverShapes.failed(3, commandName, failure));
        assertEquals(0, listener.getCounters().getRedactionFailures());
        assertEquals(1, kept.failed.size());
        Throwable redacted = kept.failed.get(0).getThrowable();
        assertNotSame(failure, redacted);
        assertNoSecret(redacted);
        return redacted;
    }
}
