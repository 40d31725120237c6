package io.github.mongoredact.internal.walk;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.ServerAddress;
import com.mongodb.WriteConcernResult;
import com.mongodb.bulk.WriteConcernError;
import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.LastEventListener;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The faults of issue 10 item 3 through the listener under {@code defaults()}: replies and rebuilt failures. */
class MessageScrubberRepliesTest {
    private static final ServerAddress ADDRESS = new ServerAddress("127.0.0.1", 27017);

    @Test
    void scrubsUnquotedValuesInErrmsgErrWriteErrorsAndWriteConcernError() {
        BsonDocument reply = new BsonDocument("n", new BsonInt32(0))
                .append("writeErrors", new BsonArray(List.of(new BsonDocument("index", new BsonInt32(0))
                        .append("code", new BsonInt32(66)).append("errmsg", new BsonString("After applying the update, the"
                                + " (immutable) field '_id' was found to have been altered to _id: 4222222222222222")))))
                .append("writeConcernError", new BsonDocument("code", new BsonInt32(64))
                        .append("errmsg", new BsonString("waiting for replication of QZXSECRET@example.com timed out")))
                .append("$err", new BsonString("Document failed validation: QZXSECRET"))
                .append("errmsg", new BsonString("Unknown error: Unclosed group near index 11\nQZXSECRET(("))
                .append("ok", new BsonDouble(1));
        byte[] out = RedactionPropertiesTest.replied(RedactionPolicy.defaults(), "insert", new RawBsonDocument(
                DriverShapes.encode(reply)), "replies");
        BsonDocument forwarded = new RawBsonDocument(out);
        String json = forwarded.toJson();
        assertFalse(json.contains("QZX") || json.contains("4222222222222222"), json);
        assertEquals("After applying the update, the (immutable) field '_id' was found to have been altered to _id: ?",
                forwarded.getArray("writeErrors").get(0).asDocument().getString("errmsg").getValue());
        assertEquals("waiting for replication of ? timed out",
                forwarded.getDocument("writeConcernError").getString("errmsg").getValue());
        assertEquals("Document failed validation: ?", forwarded.getString("$err").getValue());
        assertEquals("Unknown error: Unclosed group near index ?", forwarded.getString("errmsg").getValue());
    }

    @Test
    void scrubsThePlainTextMessagesOfRebuiltFailures() {
        BsonDocument response = new BsonDocument("ok", new BsonDouble(0))
                .append("errmsg", new BsonString("Can't find 'QZXSECRET@example.com' and doesn't retry 'QZXtwo'"))
                .append("code", new BsonInt32(2)).append("codeName", new BsonString("BadValue"));
        Throwable command = forward(new MongoCommandException(response, ADDRESS));
        assertFalse(command.getMessage().contains("QZX"), command.getMessage());

        WriteConcernError concern = new WriteConcernError(64, "WriteConcernFailed", "waiting for replication of QZXSECRET",
                new BsonDocument());
        Throwable writeConcern = forward(new MongoWriteConcernException(concern,
                WriteConcernResult.acknowledged(1, false, null), ADDRESS));
        assertEquals("waiting for replication of ?",
                ((MongoWriteConcernException) writeConcern).getWriteConcernError().getMessage());
    }

    private static Throwable forward(final Throwable failure) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(last).build();
        listener.commandFailed(DriverShapes.failed(3, "insert", failure));
        assertEquals(0, listener.getCounters().getRedactionFailures());
        return last.failed.getThrowable();
    }
}
