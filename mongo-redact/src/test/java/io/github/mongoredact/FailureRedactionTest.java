package io.github.mongoredact;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoQueryException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.MongoWriteException;
import com.mongodb.ServerAddress;
import com.mongodb.WriteError;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.bulk.WriteConcernError;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Under {@link RedactionPolicy#defaults()} a forwarded failure keeps its type, code, code name, labels and stack, and loses
 * the values its messages and documents quote.
 */
class FailureRedactionTest {
    private static final String EMAIL = "alice@example.com";
    private static final ServerAddress ADDRESS = new ServerAddress("127.0.0.1", 27017);
    private static final String DUP = "E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: \""
            + EMAIL + "\" }";

    static Throwable forward(final RedactionPolicy policy, final Throwable failure) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
        listener.commandFailed(DriverShapes.failed(3, "insert", failure));
        assertEquals(0, listener.getCounters().getRedactionFailures());
        return last.failed.getThrowable();
    }

    static BsonDocument details() {
        return new BsonDocument("keyPattern", new BsonDocument("email", new BsonInt32(1)))
                .append("keyValue", new BsonDocument("email", new BsonString(EMAIL)));
    }

    @Test
    void commandExceptionKeepsCodeNameLabelsAndStack() {
        BsonDocument response = new BsonDocument("ok", new BsonDouble(0)).append("errmsg", new BsonString(DUP))
                .append("code", new BsonInt32(11000)).append("codeName", new BsonString("DuplicateKey"))
                .append("keyValue", new BsonDocument("email", new BsonString(EMAIL)))
                .append("errorLabels", new BsonArray(List.of(new BsonString("RetryableWriteError"))));
        MongoCommandException original = new MongoCommandException(response, ADDRESS);
        MongoCommandException redacted = assertInstanceOf(MongoCommandException.class,
                forward(RedactionPolicy.defaults(), original));
        assertSame(MongoCommandException.class, redacted.getClass());
        assertEquals(11000, redacted.getErrorCode());
        assertEquals("DuplicateKey", redacted.getErrorCodeName());
        assertEquals(Set.of("RetryableWriteError"), redacted.getErrorLabels());
        assertEquals(ADDRESS, redacted.getServerAddress());
        assertArrayEquals(original.getStackTrace(), redacted.getStackTrace());
        assertFalse(redacted.getMessage().contains(EMAIL), redacted.getMessage());
        assertTrue(redacted.getMessage().contains("dup key: { email: ? }"), redacted.getMessage());
        assertFalse(redacted.getResponse().toJson().contains(EMAIL), redacted.getResponse().toJson());
        assertEquals("{\"email\": \"?string\"}", redacted.getResponse().getDocument("keyValue").toJson());
    }

    @Test
    void subclassOfCommandExceptionKeepsItsType() {
        BsonDocument response = new BsonDocument("ok", new BsonDouble(0))
                .append("errmsg", new BsonString("error processing query: email == \"" + EMAIL + "\""))
                .append("code", new BsonInt32(2)).append("codeName", new BsonString("BadValue"));
        Throwable redacted = forward(RedactionPolicy.defaults(), new MongoQueryException(response, ADDRESS));
        assertSame(MongoQueryException.class, redacted.getClass());
        assertEquals(2, ((MongoQueryException) redacted).getErrorCode());
        assertFalse(redacted.getMessage().contains(EMAIL), redacted.getMessage());
    }

    @Test
    void writeExceptionIsScrubbed() {
        MongoWriteException original = new MongoWriteException(new WriteError(11000, DUP, details()), ADDRESS);
        original.addLabel("NoWritesPerformed");
        MongoWriteException redacted = assertInstanceOf(MongoWriteException.class, forward(RedactionPolicy.defaults(), original));
        assertEquals(11000, redacted.getError().getCode());
        assertEquals(11000, redacted.getCode());
        assertFalse(redacted.getMessage().contains(EMAIL), redacted.getMessage());
        assertFalse(redacted.getError().getMessage().contains(EMAIL));
        assertEquals(Set.of("keyPattern", "keyValue"), redacted.getError().getDetails().keySet());
        assertEquals("{\"email\": \"?string\"}", redacted.getError().getDetails().getDocument("keyValue").toJson());
        assertEquals(Set.of("NoWritesPerformed"), redacted.getErrorLabels());
    }

    @Test
    void bulkWriteExceptionIsScrubbed() {
        WriteConcernError concern = new WriteConcernError(64, "WriteConcernFailed", "waiting for " + "'" + EMAIL + "'",
                new BsonDocument("wtimeout", new BsonString(EMAIL)));
        MongoBulkWriteException original = new MongoBulkWriteException(BulkWriteResult.acknowledged(1, 0, 0, 0,
                Collections.emptyList(), Collections.emptyList()),
                List.of(new BulkWriteError(11000, DUP, details(), 1)), concern, ADDRESS, Set.of("label"));
        MongoBulkWriteException redacted = assertInstanceOf(MongoBulkWriteException.class,
                forward(RedactionPolicy.defaults(), original));
        assertEquals(1, redacted.getWriteErrors().size());
        BulkWriteError error = redacted.getWriteErrors().get(0);
        assertEquals(11000, error.getCode());
        assertEquals(1, error.getIndex());
        assertFalse(error.getMessage().contains(EMAIL));
        assertFalse(error.getDetails().toJson().contains(EMAIL));
        assertEquals(64, redacted.getWriteConcernError().getCode());
        assertEquals("WriteConcernFailed", redacted.getWriteConcernError().getCodeName());
        assertFalse(redacted.getWriteConcernError().getMessage().contains(EMAIL));
        assertFalse(redacted.getWriteConcernError().getDetails().toJson().contains(EMAIL));
        assertFalse(redacted.getMessage().contains(EMAIL), redacted.getMessage());
        // no upserts or inserts to hide: the counts are the original's
        assertEquals(original.getWriteResult(), redacted.getWriteResult());
        assertEquals(Set.of("label"), redacted.getErrorLabels());
    }

    @Test
    void writeConcernExceptionIsScrubbed() {
        WriteConcernError concern = new WriteConcernError(100, "UnsatisfiableWriteConcern",
                "cannot satisfy \"" + EMAIL + "\"", new BsonDocument("note", new BsonString(EMAIL)));
        MongoWriteConcernException redacted = assertInstanceOf(MongoWriteConcernException.class,
                forward(RedactionPolicy.defaults(), new MongoWriteConcernException(concern, null, ADDRESS)));
        assertEquals(100, redacted.getWriteConcernError().getCode());
        assertFalse(redacted.getMessage().contains(EMAIL), redacted.getMessage());
        assertFalse(redacted.getWriteConcernError().getDetails().toJson().contains(EMAIL));
    }

    @Test
    void failuresWithoutServerTextAreRebuiltToo() {
        // deny by default: a client failure's message may quote values as well, so it is never passed on
        MongoSocketReadException socket = new MongoSocketReadException("Prematurely reached end of stream", ADDRESS);
        Throwable redactedSocket = forward(RedactionPolicy.defaults(), socket);
        assertNotSame(socket, redactedSocket);
        assertSame(MongoSocketReadException.class, redactedSocket.getClass());
        assertEquals(socket.getMessage(), redactedSocket.getMessage());
        assertEquals(ADDRESS, ((MongoSocketReadException) redactedSocket).getServerAddress());
        // a JDK exception's wording is not known: its message is withheld whole
        IllegalStateException other = new IllegalStateException("state of \"" + EMAIL + "\"");
        Throwable redactedOther = forward(RedactionPolicy.defaults(), other);
        assertSame(IllegalStateException.class, redactedOther.getClass());
        assertEquals("?message", redactedOther.getMessage());
    }

    @Test
    void specOnlyForwardsFailuresOfOrdinaryCommandsUntouched() {
        MongoWriteException original = new MongoWriteException(new WriteError(11000, DUP, details()), ADDRESS);
        assertSame(original, forward(RedactionPolicy.specOnly(), original));
        assertSame(original, forward(RedactionPolicy.builder().redactFailures(false).build(), original));
        assertNull(forward(RedactionPolicy.defaults(), original).getCause());
    }
}
