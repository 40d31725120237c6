package io.github.mongoredact;

import com.mongodb.DuplicateKeyException;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoCursorNotFoundException;
import com.mongodb.MongoException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.MongoNodeIsRecoveringException;
import com.mongodb.MongoNotPrimaryException;
import com.mongodb.MongoQueryException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.MongoWriteException;
import com.mongodb.WriteConcernException;
import com.mongodb.WriteConcernResult;
import com.mongodb.WriteError;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.bulk.BulkWriteInsert;
import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.bulk.BulkWriteUpsert;
import com.mongodb.bulk.WriteConcernError;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static io.github.mongoredact.FailureLeaks.ADDRESS;
import static io.github.mongoredact.FailureLeaks.EMAIL;
import static io.github.mongoredact.FailureLeaks.NUMBER;
import static io.github.mongoredact.FailureLeaks.TEXT;
import static io.github.mongoredact.FailureLeaks.document;
import static io.github.mongoredact.FailureLeaks.forward;
import static io.github.mongoredact.FailureLeaks.response;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Server failures of every driver type, each planted with a secret, an e-mail and a long number in every text and document it
 * carries, forwarded under {@link RedactionPolicy#defaults()}: none of them survives, while type, code, code name, labels,
 * cursor id and server address do.
 */
class FailureServerTypesTest {

    private static <T extends MongoException> T keepsCodeAndLabels(final Class<T> type, final Throwable redacted,
                                                                  final int code, final String... labels) {
        assertSame(type, redacted.getClass());
        T e = type.cast(redacted);
        assertEquals(code, e.getCode());
        assertEquals(Set.of(labels), e.getErrorLabels());
        return e;
    }

    private static void keepsCommandFacts(final MongoCommandException original, final MongoCommandException redacted) {
        assertEquals(original.getErrorCode(), redacted.getErrorCode());
        assertEquals(original.getErrorCodeName(), redacted.getErrorCodeName());
        assertEquals(original.getServerAddress(), redacted.getServerAddress());
        assertEquals(original.getErrorLabels(), redacted.getErrorLabels());
        assertArrayEquals(original.getStackTrace(), redacted.getStackTrace());
    }

    @Test
    void commandExceptionLosesValuesOfMessageResponseAndErrInfo() {
        MongoCommandException original = new MongoCommandException(response(11000, "DuplicateKey", "RetryableWriteError"),
                ADDRESS);
        original.addLabel("AddedByTheDriver");
        MongoCommandException redacted = keepsCodeAndLabels(MongoCommandException.class, forward("findAndModify", original),
                11000, "RetryableWriteError", "AddedByTheDriver");
        keepsCommandFacts(original, redacted);
        assertEquals("DuplicateKey", redacted.getResponse().getString("codeName").getValue());
    }

    @Test
    void queryExceptionKeepsItsType() {
        MongoQueryException original = new MongoQueryException(response(2, "BadValue"), ADDRESS);
        keepsCommandFacts(original, keepsCodeAndLabels(MongoQueryException.class, forward("find", original), 2));
    }

    @Test
    void cursorNotFoundKeepsItsTypeAndCursorId() {
        MongoCursorNotFoundException original = new MongoCursorNotFoundException(7_777_777_777L,
                response(43, "CursorNotFound", "ResumableChangeStreamError"), ADDRESS);
        MongoCursorNotFoundException redacted = keepsCodeAndLabels(MongoCursorNotFoundException.class,
                forward("getMore", original), 43, "ResumableChangeStreamError");
        assertEquals(7_777_777_777L, redacted.getCursorId());
        keepsCommandFacts(original, redacted);
    }

    @Test
    void notPrimaryAndNodeIsRecoveringKeepTheirTypes() {
        MongoNotPrimaryException notPrimary = new MongoNotPrimaryException(response(10107, "NotWritablePrimary",
                "RetryableWriteError"), ADDRESS);
        keepsCommandFacts(notPrimary, keepsCodeAndLabels(MongoNotPrimaryException.class, forward("insert", notPrimary),
                10107, "RetryableWriteError"));
        MongoNodeIsRecoveringException recovering = new MongoNodeIsRecoveringException(response(91, "ShutdownInProgress"),
                ADDRESS);
        keepsCommandFacts(recovering, keepsCodeAndLabels(MongoNodeIsRecoveringException.class,
                forward("insert", recovering), 91));
    }

    @Test
    void executionTimeoutLosesTheServerMessage() {
        MongoExecutionTimeoutException original = new MongoExecutionTimeoutException(50, TEXT,
                response(50, "MaxTimeMSExpired", "TransientTransactionError"));
        MongoExecutionTimeoutException redacted = keepsCodeAndLabels(MongoExecutionTimeoutException.class,
                forward("find", original), 50, "TransientTransactionError");
        assertTrue(redacted.getMessage().startsWith("E11000 duplicate key error"), redacted.getMessage());
    }

    @Test
    void writeExceptionLosesValuesOfMessageAndDetails() {
        MongoWriteException original = new MongoWriteException(new WriteError(121, TEXT, document()), ADDRESS);
        original.addLabel("NoWritesPerformed");
        MongoWriteException redacted = keepsCodeAndLabels(MongoWriteException.class, forward("insert", original), 121,
                "NoWritesPerformed");
        assertEquals(121, redacted.getError().getCode());
        assertEquals(ADDRESS, redacted.getServerAddress());
        assertEquals(original.getError().getDetails().keySet(), redacted.getError().getDetails().keySet());
    }

    @Test
    void bulkWriteExceptionKeepsCountsNotIds() {
        BulkWriteResult result = BulkWriteResult.acknowledged(2, 3, 1, 3,
                List.of(new BulkWriteUpsert(4, new BsonString(EMAIL)), new BulkWriteUpsert(5, new BsonInt64(Long.parseLong(
                        NUMBER)))),
                List.of(new BulkWriteInsert(0, new BsonObjectId(new ObjectId())), new BulkWriteInsert(1,
                        new BsonString(FailureLeaks.SECRET))));
        WriteConcernError concern = new WriteConcernError(64, "WriteConcernFailed", TEXT, document());
        MongoBulkWriteException original = new MongoBulkWriteException(result,
                List.of(new BulkWriteError(11000, TEXT, document(), 6)), concern, ADDRESS, Set.of("RetryableWriteError"));
        MongoBulkWriteException redacted = keepsCodeAndLabels(MongoBulkWriteException.class, forward("update", original),
                original.getCode(), "RetryableWriteError");
        BulkWriteResult kept = redacted.getWriteResult();
        assertTrue(kept.wasAcknowledged());
        assertEquals(List.of(2, 3, 1, 3), List.of(kept.getInsertedCount(), kept.getMatchedCount(), kept.getDeletedCount(),
                kept.getModifiedCount()));
        assertEquals(List.of(4, 5), List.of(kept.getUpserts().get(0).getIndex(), kept.getUpserts().get(1).getIndex()));
        assertEquals(new BsonString("?string"), kept.getUpserts().get(0).getId());
        assertEquals(new BsonString("?number"), kept.getUpserts().get(1).getId());
        assertEquals(new BsonString("?objectId"), kept.getInserts().get(0).getId());
        assertEquals(2, kept.getInserts().size());
        assertEquals(6, redacted.getWriteErrors().get(0).getIndex());
        assertEquals(11000, redacted.getWriteErrors().get(0).getCode());
        assertEquals("WriteConcernFailed", redacted.getWriteConcernError().getCodeName());
        assertEquals(ADDRESS, redacted.getServerAddress());
    }

    @Test
    void unacknowledgedBulkResultStaysUnacknowledged() {
        MongoBulkWriteException original = new MongoBulkWriteException(BulkWriteResult.unacknowledged(),
                List.of(new BulkWriteError(11000, TEXT, document(), 0)), null, ADDRESS, Set.of());
        MongoBulkWriteException redacted = assertInstanceOf(MongoBulkWriteException.class, forward("insert", original));
        assertFalse(redacted.getWriteResult().wasAcknowledged());
        assertNull(redacted.getWriteConcernError());
    }

    @Test
    void writeConcernExceptionKeepsCountNotUpsertedId() {
        MongoWriteConcernException original = labelled(100, "UnsatisfiableWriteConcern",
                WriteConcernResult.acknowledged(1, false, new BsonString(EMAIL)), "RetryableWriteError");
        MongoWriteConcernException redacted = keepsCodeAndLabels(MongoWriteConcernException.class,
                forward("update", original), 100, "RetryableWriteError");
        assertEquals(1, redacted.getWriteResult().getCount());
        assertFalse(redacted.getWriteResult().isUpdateOfExisting());
        assertEquals(new BsonString("?string"), redacted.getWriteResult().getUpsertedId());
        assertEquals("UnsatisfiableWriteConcern", redacted.getWriteConcernError().getCodeName());
        assertEquals(ADDRESS, redacted.getServerAddress());
    }

    /** A write concern failure with labels, built the way each driver line builds one (4.x: labels on the error). */
    static MongoWriteConcernException labelled(final int code, final String codeName, final WriteConcernResult result,
                                               final String... labels) {
        try {
            WriteConcernError error = WriteConcernError.class.getConstructor(int.class, String.class, String.class,
                    BsonDocument.class, Set.class).newInstance(code, codeName, TEXT, document(),
                    new java.util.HashSet<>(Set.of(labels)));
            return new MongoWriteConcernException(error, result, ADDRESS);
        } catch (ReflectiveOperationException e) {
            try {
                return MongoWriteConcernException.class.getConstructor(WriteConcernError.class, WriteConcernResult.class,
                        com.mongodb.ServerAddress.class, java.util.Collection.class).newInstance(
                        new WriteConcernError(code, codeName, TEXT, document()), result, ADDRESS, Set.of(labels));
            } catch (ReflectiveOperationException e5) {
                throw new AssertionError("no way to label a write concern failure on this driver line", e5);
            }
        }
    }

    @Test
    void legacyWriteConcernAndDuplicateKeyExceptionsKeepTheirTypes() {
        WriteConcernResult result = WriteConcernResult.acknowledged(0, true, new BsonString(EMAIL));
        WriteConcernException concern = new WriteConcernException(response(64, "WriteConcernFailed"), ADDRESS, result);
        WriteConcernException redacted = keepsCodeAndLabels(WriteConcernException.class, forward("insert", concern), 64);
        assertEquals(new BsonString("?string"), redacted.getWriteConcernResult().getUpsertedId());
        DuplicateKeyException duplicate = new DuplicateKeyException(response(11000, "DuplicateKey"), ADDRESS, result);
        DuplicateKeyException redactedDuplicate = keepsCodeAndLabels(DuplicateKeyException.class,
                forward("insert", duplicate), 11000);
        assertEquals(ADDRESS, redactedDuplicate.getServerAddress());
    }

    @Test
    void writeConcernWithResponseWrapperIsRebuiltWithItsCause() throws Exception {
        Class<?> type;
        try {
            type = Class.forName("com.mongodb.internal.connection.MongoWriteConcernWithResponseException");
        } catch (ClassNotFoundException e) {
            org.junit.jupiter.api.Assumptions.abort("this driver line has no MongoWriteConcernWithResponseException");
            return;
        }
        MongoWriteConcernException cause = new MongoWriteConcernException(new WriteConcernError(64, "WriteConcernFailed",
                TEXT, document()), WriteConcernResult.acknowledged(1, false, new BsonString(EMAIL)), ADDRESS);
        Throwable original = (Throwable) type.getConstructor(MongoException.class, Object.class)
                .newInstance(cause, response(64, "WriteConcernFailed"));
        Throwable redacted = forward("update", original);
        assertSame(type, redacted.getClass());
        assertEquals(64, ((MongoException) redacted).getCode());
        assertInstanceOf(MongoWriteConcernException.class, redacted.getCause());
        BsonDocument kept = (BsonDocument) type.getMethod("getResponse").invoke(redacted);
        FailureLeaks.assertClean("wrapped response", kept.toJson());
        assertEquals(64, kept.getInt32("code").getValue());
    }
}
