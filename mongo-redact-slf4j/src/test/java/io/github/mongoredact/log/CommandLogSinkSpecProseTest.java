package io.github.mongoredact.log;

import com.mongodb.LoggerSettings;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.internal.json.TruncatedJson;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The logging prose tests of the command logging and monitoring specification ({@code tests/README.md}), through the real
 * driver and the embedded server, on the structured fields. The ellipsis is the driver's {@code " ..."}: 4 characters.
 */
class CommandLogSinkSpecProseTest {
    private static final int ELLIPSIS = TruncatedJson.ELLIPSIS.length();

    private static RedactingCommandListener listener(final RecordingLog log, final LoggerSettings settings) {
        return RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                .addSink(CommandLogSink.builder().loggerSettings(settings).log(log).build()).build();
    }

    private static String only(final RecordingLog log, final String prefix, final String field) {
        List<RecordingLog.Line> lines = log.startingWith(prefix);
        assertEquals(1, lines.size(), prefix + " in " + log.lines);
        return lines.get(0).field(field);
    }

    @Test
    void test1DefaultTruncationLimit() {
        RecordingLog log = new RecordingLog();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoCollection<Document> collection = server.client(listener(log, LoggerSettings.builder().build()))
                    .getDatabase("test").getCollection("prose1");
            List<Document> docs = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                docs.add(new Document("x", "y"));
            }
            collection.insertMany(docs);
            assertEquals(1000 + ELLIPSIS, only(log, "Command \"insert\" started", "command").length());
            assertTrue(only(log, "Command \"insert\" succeeded", "reply").length() <= 1000 + ELLIPSIS);
            collection.find().into(new ArrayList<>());
            assertEquals(1000 + ELLIPSIS, only(log, "Command \"find\" succeeded", "reply").length());
        }
    }

    @Test
    void test2ExplicitlyConfiguredTruncationLimit() {
        RecordingLog log = new RecordingLog();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoDatabase db = server.client(listener(log, LoggerSettings.builder().maxDocumentLength(5).build()))
                    .getDatabase("test");
            // the embedded server has no hello command: ping is the shortest command it answers
            db.runCommand(new Document("ping", true));
            assertEquals(5 + ELLIPSIS, only(log, "Command \"ping\" started", "command").length());
            assertEquals(5 + ELLIPSIS, only(log, "Command \"ping\" succeeded", "reply").length());
            try {
                db.runCommand(new Document("notARealCommand", true));
                fail("not a real command");
            } catch (com.mongodb.MongoCommandException expected) {
                // the server's error, with its response
            }
            String failure = only(log, "Command \"notARealCommand\" failed", "failure");
            assertEquals(5 + ELLIPSIS, failure.length(), failure);
            assertTrue(failure.endsWith(" ..."), failure);
        }
    }

    @Test
    void test3TruncationWithMultiByteCodepoints() {
        String value = "é€日😀".repeat(20);
        String command = "no€日😀Command";
        RecordingLog log = new RecordingLog();
        RecordingLog whole = new RecordingLog();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoDatabase db = server.client(listener(log, LoggerSettings.builder().maxDocumentLength(60).build()))
                    .getDatabase("test");
            MongoCollection<Document> collection = db.getCollection("prose3");
            // _ids of 1 to 15 characters move the cut of each reply across the 15 characters of JSON of "é€日😀"
            for (int k = 1; k <= 15; k++) {
                collection.insertOne(new Document("_id", "a".repeat(k)).append("s", value));
                collection.find(new Document("_id", "a".repeat(k))).first();
            }
            runNotARealCommand(db, command);
            runNotARealCommand(server.client(listener(whole, LoggerSettings.builder().maxDocumentLength(0).build()))
                    .getDatabase("test"), command);
        }
        List<String> texts = new ArrayList<>();
        for (RecordingLog.Line line : log.startingWith("Command \"find\" succeeded")) {
            texts.add(line.field("reply"));
        }
        assertEquals(15, texts.size());
        for (String text : texts) {
            assertTrue(text.endsWith(" ...") && text.length() <= 60 + ELLIPSIS, text);
            String shown = text.substring(0, text.length() - ELLIPSIS);
            assertTrue(shown.length() >= 60 - 11, "at most one escaped pair short of the limit: " + shown);
            assertTrue(!shown.matches("(?s).*\\\\(u[0-9a-f]{0,3}|ud83d)$"), "no partial escape at the end: " + shown);
        }
        // the failure's text is plain text, not JSON: a pair the limit falls inside is dropped whole
        String failure = only(whole, "Command \"" + command + "\" failed", "failure");
        int pair = failure.indexOf("😀");
        assertTrue(pair > 0, failure);
        RecordingLog cut = new RecordingLog();
        try (EmbeddedServer server = new EmbeddedServer()) {
            runNotARealCommand(server.client(listener(cut, LoggerSettings.builder().maxDocumentLength(pair + 1).build()))
                    .getDatabase("test"), command);
        }
        assertEquals(failure.substring(0, pair) + " ...", only(cut, "Command \"" + command + "\" failed", "failure"));
    }

    private static void runNotARealCommand(final MongoDatabase db, final String command) {
        try {
            db.runCommand(new Document(command, true));
            fail("not a real command");
        } catch (com.mongodb.MongoCommandException expected) {
            // its message quotes the command's name
        }
    }
}
