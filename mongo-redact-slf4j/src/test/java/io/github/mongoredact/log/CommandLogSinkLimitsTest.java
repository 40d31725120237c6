package io.github.mongoredact.log;

import com.mongodb.LoggerSettings;
import com.mongodb.MongoException;
import io.github.mongoredact.Events;
import io.github.mongoredact.StartedCommand;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The logging specification's truncation, to the letter: documents and failure texts. */
class CommandLogSinkLimitsTest {

    private static CommandLogSink sink(final RecordingLog log, final int maxDocumentLength) {
        return CommandLogSink.builder().loggerSettings(LoggerSettings.builder().maxDocumentLength(maxDocumentLength).build())
                .log(log).build();
    }

    private static StartedCommand started(final BsonDocument command) {
        return Events.started(Events.startedEvent(9, "{\"find\": \"users\"}"),
                new RawBsonDocument(command, new BsonDocumentCodec()), "users", 1);
    }

    @Test
    void logsACommandOfExactlyTheLimitWholeAndCutsOneLonger() {
        BsonDocument command = new BsonDocument("find", new BsonString("users"));
        String whole = "{\"find\": \"users\"}";
        RecordingLog log = new RecordingLog();
        sink(log, whole.length()).started(started(command));
        sink(log, whole.length() - 1).started(started(command));
        assertEquals(whole, log.lines.get(0).field("command"), "exactly the limit: no ellipsis");
        assertTrue(log.lines.get(0).message.endsWith(" Command: " + whole), log.lines.get(0).message);
        assertEquals(whole.substring(0, whole.length() - 1) + " ...", log.lines.get(1).field("command"));
    }

    @Test
    void cutsTheFailureTextAndTheAttachedThrowableAtTheLimit() {
        char[] response = new char[3000];
        Arrays.fill(response, 'r');
        MongoException server = new MongoException(11600, "The full response is " + new String(response));
        RuntimeException failure = new IllegalStateException("wrapped " + new String(response), server);
        RecordingLog log = new RecordingLog();
        sink(log, 100).completed(Events.failed(started(new BsonDocument("find", new BsonString("users"))), failure, 1000));
        RecordingLog.Line line = log.lines.get(0);
        String text = line.field("failure");
        assertEquals(100 + 4, text.length(), text);
        assertEquals(failure.toString().substring(0, 100) + " ...", text);
        Throwable attached = line.cause;
        assertTrue(attached != null && attached != failure, "a stand-in with the cut texts");
        assertEquals(text, attached.toString());
        assertArrayEquals(failure.getStackTrace(), attached.getStackTrace());
        Throwable cause = attached.getCause();
        assertTrue(cause != null, "the cause is kept, cut");
        assertEquals(server.toString().substring(0, 100) + " ...", cause.toString());
        assertArrayEquals(server.getStackTrace(), cause.getStackTrace());
        assertNull(cause.getCause());
    }

    @Test
    void attachesAFailureWithinTheLimitAsItIs() {
        RecordingLog log = new RecordingLog();
        MongoException failure = Events.commandException(2, "BadValue");
        sink(log, 1000).completed(Events.failed(started(new BsonDocument("find", new BsonString("users"))), failure, 1000));
        assertSame(failure, log.lines.get(0).cause);
        assertEquals(failure.toString(), log.lines.get(0).field("failure"));
    }

    @Test
    void cutsAFailureTextBeforeASurrogatePairTheLimitFallsInside() {
        String prefix = new MongoException("").toString(); // "com.mongodb.MongoException: "
        int limit = 50;
        String message = "a".repeat(limit - prefix.length() - 1) + "😀 and more";
        MongoException failure = new MongoException(message);
        assertTrue(Character.isHighSurrogate(failure.toString().charAt(limit - 1)), "the limit falls inside the pair");
        RecordingLog log = new RecordingLog();
        sink(log, limit).completed(Events.failed(started(new BsonDocument("find", new BsonString("users"))), failure, 1000));
        String text = log.lines.get(0).field("failure");
        assertEquals(failure.toString().substring(0, limit - 1) + " ...", text);
        sink(log, limit + 1).completed(Events.failed(started(new BsonDocument("find", new BsonString("users"))), failure,
                1000));
        assertEquals(failure.toString().substring(0, limit + 1) + " ...", log.lines.get(1).field("failure"),
                "the whole pair once it fits");
    }

    @Test
    void cutsAFailureInTheRealLogWithItsStackTrace() {
        char[] response = new char[5000];
        Arrays.fill(response, 'q');
        MongoException failure = new MongoException("The full response is " + new String(response));
        try (CapturedLog log = new CapturedLog("debug")) {
            CommandLogSink sink = CommandLogSink.builder().loggerName(log.loggerName).keyValuePairs(true).build();
            sink.completed(Events.failed(started(new BsonDocument("find", new BsonString("users"))), failure, 1000));
            String text = log.text();
            assertFalse(text.contains(new String(response, 0, 1001)), "no text past the limit");
            assertTrue(text.contains("failure=com.mongodb.MongoException: The full response is qqq"), text);
            assertTrue(text.contains("\tat "), "the stack trace is attached");
            assertEquals(0, sink.getFailures());
        }
    }
}
