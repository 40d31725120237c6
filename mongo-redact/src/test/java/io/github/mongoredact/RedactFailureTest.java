package io.github.mongoredact;

import com.mongodb.MongoCommandException;
import com.mongodb.ServerAddress;
import com.mongodb.event.CommandStartedEvent;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link RedactionPolicy#redactFailure}: the failure a listener of the policy forwards, for code outside the listener. */
class RedactFailureTest {
    private static final String EMAIL = "alice@example.com";

    private static MongoCommandException duplicateKey() {
        BsonDocument response = new BsonDocument("ok", new BsonDouble(0)).append("code", new BsonInt32(11000))
                .append("codeName", new BsonString("DuplicateKey"))
                .append("errmsg", new BsonString("E11000 duplicate key error collection: app.users index: email_1 dup key:"
                        + " { email: \"" + EMAIL + "\" }"))
                .append("keyValue", new BsonDocument("email", new BsonString(EMAIL)))
                .append("errorLabels", new BsonArray());
        return new MongoCommandException(response, new ServerAddress("127.0.0.1", 27017));
    }

    @Test
    void isWhatTheListenerForwardsForTheSameFailure() {
        MongoCommandException original = duplicateKey();
        Throwable redacted = RedactionPolicy.defaults().redactFailure(original, "findAndModify");
        MongoCommandException command = assertInstanceOf(MongoCommandException.class, redacted);
        assertEquals(11000, command.getErrorCode());
        assertEquals("DuplicateKey", command.getErrorCodeName());
        assertFalse(String.valueOf(redacted).contains(EMAIL), String.valueOf(redacted));
        assertFalse(command.getResponse().toJson().contains(EMAIL), command.getResponse().toJson());

        RecordingSink sink = new RecordingSink(true, true);
        RedactingCommandListener listener = RedactingCommandListener.builder().addSink(sink).build();
        CommandStartedEvent started = Events.startedEvent(3, "{\"findAndModify\": \"users\", \"$db\": \"app\"}");
        listener.commandStarted(started);
        listener.commandFailed(Events.failedEvent(started, original, 10));
        Throwable forwarded = sink.completed.get(0).getFailure();
        assertNotNull(forwarded);
        assertEquals(String.valueOf(forwarded), String.valueOf(redacted));
    }

    @Test
    void isTheFailureItselfWhereThePolicyKeepsFailures() {
        MongoCommandException original = duplicateKey();
        RedactionPolicy keeping = RedactionPolicy.builder(RedactionPolicy.defaults()).redactFailures(false).build();
        assertSame(original, keeping.redactFailure(original, "insert"));
        assertTrue(RedactionPolicy.defaults().isRedactFailures());
    }

    @Test
    void refusesNulls() {
        assertThrows(IllegalArgumentException.class, () -> RedactionPolicy.defaults().redactFailure(null, "insert"));
        assertThrows(IllegalArgumentException.class, () -> RedactionPolicy.defaults().redactFailure(duplicateKey(), null));
    }
}
