package io.github.mongoredact.log;

import com.mongodb.client.MongoCollection;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.Documents;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.Events;
import io.github.mongoredact.Json;
import io.github.mongoredact.LibraryWarnings;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.StartedCommand;
import io.github.mongoredact.internal.json.TruncatedJsonBoundsTest;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whatever the input or the backend, the log sink's callbacks return normally: nothing is thrown into the driver. */
class CommandLogSinkNeverThrowsTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();


    private static StartedCommand started(final BsonDocument command) {
        return Events.started(Events.startedEvent(9, "{\"insert\": \"users\"}"), command, "users", 1);
    }

    private static RawBsonDocument raw(final BsonDocument document) {
        return new RawBsonDocument(document, new BsonDocumentCodec());
    }

    @Test
    void logsHugeDeepAndOddDocumentsWithoutThrowing() throws Exception {
        RecordingLog log = new RecordingLog();
        CommandLogSink sink = CommandLogSink.builder().log(log).build();
        BsonDocument[] documents = {
                raw(new BsonDocument("insert", new BsonString("users")).append("s",
                        new BsonString(Documents.repeat('h', 20 * 1024 * 1024)))),
                Documents.deep(1000),
                Documents.deepArrays(5000),
                raw(new BsonDocument("insert", new BsonString("a\ud800b")).append("\udc00", new BsonInt32(1))),
                new BsonDocument("insert", new BsonString("\ud83d"))};
        for (BsonDocument document : documents) {
            Object result = TruncatedJsonBoundsTest.onSmallStack(() -> {
                sink.started(started(document));
                sink.completed(Events.succeeded(started(document), document, 1000, 0, null));
                return "returned";
            });
            assertEquals("returned", result);
        }
        assertEquals(0, sink.getFailures());
        assertEquals(10, log.lines.size());
        for (RecordingLog.Line line : log.lines) {
            String json = line.fields.containsKey("command") ? line.field("command") : line.field("reply");
            assertTrue(json.length() <= 1000 + 4, json.length() + " characters");
        }
    }

    @Test
    void showsAnUnreadableDocumentAsARenderErrorAndCountsIt() {
        byte[] bytes = raw(new BsonDocument("insert", new BsonString("users"))).getByteBuffer().array().clone();
        bytes[4] = 0x42; // an unknown type
        RawBsonDocument corrupt = new RawBsonDocument(bytes);
        RecordingLog log = new RecordingLog();
        CommandLogSink sink = CommandLogSink.builder().log(log).build();
        sink.started(started(corrupt));
        assertEquals(1, sink.getFailures());
        assertEquals("{\"$renderError\": \"org.bson.BsonSerializationException\"}", log.lines.get(0).field("command"));
        assertTrue(log.lines.get(0).message.startsWith("Command \"insert\" started"), log.lines.get(0).message);
        warnings.assertSaid("could not read a document and showed it as $renderError");
    }

    @Test
    void countsWhatABackendThrowsEvenErrors() {
        Throwable[] thrown = {new IllegalStateException("backend"), new NoSuchMethodError("org.slf4j.Something"),
                new OutOfMemoryError("backend heap"), new StackOverflowError()};
        for (Throwable throwable : thrown) {
            CommandLog throwing = new CommandLog() {
                @Override
                public boolean isEnabled(final CommandLogSink.Level level) {
                    return true;
                }

                @Override
                public void log(final CommandLogSink.Level level, final String message, final List<Object> keyValues,
                                @Nullable final Throwable cause) {
                    if (throwable instanceof RuntimeException) {
                        throw (RuntimeException) throwable;
                    }
                    throw (Error) throwable;
                }
            };
            CommandLogSink sink = CommandLogSink.builder().log(throwing).build();
            StartedCommand started = started(raw(new BsonDocument("insert", new BsonString("users"))));
            sink.started(started);
            sink.completed(Events.succeeded(started, raw(new BsonDocument("ok", new BsonInt32(1))), 1000, 0, null));
            sink.completed(Events.failed(started, Events.commandException(2, "BadValue"), 1000));
            assertEquals(3, sink.getFailures(), throwable.toString());
        }
        warnings.assertSaid("failed to log a command and dropped the line");
    }

    @Test
    void insertsAThousandLevelDocumentOnA256KbStackThroughTheRealDriver() throws Exception {
        RecordingLog log = new RecordingLog();
        CommandLogSink sink = CommandLogSink.builder().log(log).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                    .addSink(sink).build();
            MongoCollection<RawBsonDocument> collection = server.client(listener).getDatabase("test")
                    .getCollection("deep", RawBsonDocument.class);
            // 120 levels: the listener copies it and the log renders it; 1000: the listener's copy may be its marker
            for (int levels : new int[]{120, 1000}) {
                RawBsonDocument deep = Documents.deep(levels);
                Object result = TruncatedJsonBoundsTest.onSmallStack(() -> {
                    collection.insertOne(deep);
                    return "inserted";
                });
                assertEquals("inserted", result, levels + " levels");
            }
            assertEquals(2L, collection.countDocuments());
        }
        assertEquals(0, sink.getFailures());
        List<RecordingLog.Line> inserts = log.startingWith("Command \"insert\" started");
        assertEquals(2, inserts.size(), log.lines.toString());
        String rendered = inserts.get(0).field("command");
        assertTrue(rendered.contains("\"documents\": [" + Json.whole(Documents.deep(120)) + "]"), rendered);
        String command = inserts.get(1).field("command");
        assertTrue(command.startsWith("{\"$redactionError\"") || (command.endsWith(" ...") && command.length() == 1004),
                command);
        assertTrue(log.startingWith("Command \"insert\" failed").isEmpty(), log.lines.toString());
        warnings.texts().forEach(text -> assertTrue(text.contains("a marker document was forwarded in its place"), text));
    }
}
