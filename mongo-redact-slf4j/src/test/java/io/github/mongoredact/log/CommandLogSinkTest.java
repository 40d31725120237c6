package io.github.mongoredact.log;

import com.mongodb.LoggerSettings;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.Events;
import io.github.mongoredact.Json;
import io.github.mongoredact.LibraryWarnings;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.StartedCommand;
import io.github.mongoredact.handoff.HandOffSink;
import org.bson.BsonDocument;
import org.bson.BsonReader;
import org.bson.BsonString;
import org.bson.Document;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class CommandLogSinkTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();

    private static final String FIND = "{\"find\": \"users\", \"filter\": {\"name\": \"?string\"}}";

    private static StartedCommand find(final CommandStartedEvent event) {
        return Events.started(event, Events.raw(FIND), "users", 0x00ab_cdef_0123_4567L);
    }

    @Test
    void writesTheDriversStartedTextAndStructuredFields() {
        try (CapturedLog log = new CapturedLog("debug")) {
            CommandLogSink sink = CommandLogSink.builder().loggerName(log.loggerName).keyValuePairs(true).build();
            sink.started(find(Events.startedEvent(9, FIND)));
            List<String> lines = log.lines();
            assertEquals(1, lines.size(), log.text());
            String line = lines.get(0);
            assertTrue(line.endsWith("Command \"find\" started on database \"test\" using a connection with driver-generated ID 3"
                    + " and server-generated ID 12 to 127.0.0.1:27017. The request ID is 9 and the operation ID is 7."
                    + " Command: {\"find\": \"users\", \"filter\": {\"name\": \"?string\"}}"), line);
            assertTrue(line.contains(" DEBUG "), line);
            for (String pair : new String[]{"commandName=find", "databaseName=test", "requestId=9", "operationId=7",
                    "driverConnectionId=3", "serverConnectionId=12", "serverHost=127.0.0.1", "serverPort=27017",
                    "fingerprint=00abcdef01234567", "command={\"find\": \"users\""}) {
                assertTrue(line.contains(pair), pair + " in " + line);
            }
            // the fingerprint is ours, never under the server's key; these facts carry no server query shape
            assertFalse(line.contains("queryShape"), line);
        }
    }

    @Test
    void writesTheDriversSucceededTextWithTheReply() {
        try (CapturedLog log = new CapturedLog("debug")) {
            CommandLogSink sink = CommandLogSink.builder().loggerName(log.loggerName).keyValuePairs(true).build();
            StartedCommand started = find(Events.startedEvent(9, FIND));
            sink.completed(Events.succeeded(started, Events.raw("{\"cursor\": {\"firstBatch\": [], \"id\": 0}, \"ok\": 1.0}"),
                    1_500_000, 0, null));
            String line = log.lines().get(0);
            assertTrue(line.endsWith("Command \"find\" succeeded on database \"test\" in 1.5 ms using a connection with"
                    + " driver-generated ID 3 and server-generated ID 12 to 127.0.0.1:27017. The request ID is 9 and the"
                    + " operation ID is 7. Command reply: {\"cursor\": {\"firstBatch\": [], \"id\": 0}, \"ok\": 1.0}"), line);
            assertTrue(line.contains("durationMS=1.5 "), line);
            assertTrue(line.contains("reply={\"cursor\""), line);
            assertFalse(line.contains("errorCode"), line);
        }
    }

    @Test
    void writesTheDriversFailedTextWithTheThrowable() {
        try (CapturedLog log = new CapturedLog("debug")) {
            CommandLogSink sink = CommandLogSink.builder().loggerName(log.loggerName).keyValuePairs(true).build();
            StartedCommand started = find(Events.startedEvent(9, FIND));
            sink.completed(Events.failed(started, Events.commandException(2, "BadValue"), 2_000_000));
            String line = log.lines().get(0);
            assertTrue(line.endsWith("Command \"find\" failed on database \"test\" in 2.0 ms using a connection with"
                    + " driver-generated ID 3 and server-generated ID 12 to 127.0.0.1:27017. The request ID is 9 and the"
                    + " operation ID is 7."), line);
            assertTrue(line.contains("failure=com.mongodb.MongoCommandException"), line);
            assertTrue(line.contains("errorCode=2 errorCodeName=BadValue"), line);
            assertTrue(log.text().contains("\tat "), "the stack trace is attached");
        }
    }

    @Test
    void dropsTheServerIdWhenAbsentAndAddsTheServiceId() {
        try (CapturedLog log = new CapturedLog("debug")) {
            CommandLogSink sink = CommandLogSink.builder().loggerName(log.loggerName).keyValuePairs(true).build();
            ObjectId serviceId = new ObjectId("5f0000000000000000000001");
            sink.started(find(Events.startedEvent(Events.connection(null, serviceId), 9, FIND)));
            String line = log.lines().get(0);
            assertTrue(line.contains("using a connection with driver-generated ID 3 to 127.0.0.1:27017 with service ID"
                    + " 5f0000000000000000000001. The request ID is 9"), line);
            assertFalse(line.contains("serverConnectionId"), line);
            assertTrue(line.contains("serviceId=5f0000000000000000000001"), line);
        }
    }

    @Test
    void logsWriteErrorsUnderOkOneAsErrorsWithTheirCode() {
        try (CapturedLog log = new CapturedLog("info")) {
            CommandLogSink sink = CommandLogSink.builder().loggerName(log.loggerName).keyValuePairs(true)
                    .errorLevel(CommandLogSink.Level.WARN).build();
            StartedCommand started = Events.started(Events.startedEvent(4, "{\"insert\": \"users\"}"),
                    Events.raw("{\"insert\": \"users\"}"), "users", 1);
            sink.completed(Events.succeeded(started, Events.raw("{\"n\": 0, \"writeErrors\": [{\"index\": 0,"
                    + " \"code\": 11000, \"errmsg\": \"?string\"}], \"ok\": 1.0}"), 1000, 11000, null));
            sink.completed(Events.succeeded(started, Events.raw("{\"n\": 1, \"ok\": 1.0}"), 1000, 0, null));
            List<String> lines = log.lines();
            assertEquals(1, lines.size(), "the clean reply is at DEBUG, off here: " + log.text());
            assertTrue(lines.get(0).contains(" WARN "), lines.get(0));
            assertTrue(lines.get(0).contains("errorCode=11000"), lines.get(0));
            assertTrue(lines.get(0).contains("Command \"insert\" succeeded on database \"test\""), lines.get(0));
        }
    }

    @Test
    void cutsAtTheDefaultThousandCharactersLikeTheDriver() {
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            big.append(", \"k").append(i).append("\": \"value-").append(i).append('"');
        }
        BsonDocument command = Events.raw("{\"insert\": \"users\"" + big + "}");
        try (CapturedLog log = new CapturedLog("debug")) {
            CommandLogSink sink = CommandLogSink.builder().loggerName(log.loggerName).keyValuePairs(true)
                    .loggerSettings(MongoClientSettings.builder().build()).build();
            sink.started(Events.started(Events.startedEvent(1, "{\"insert\": \"users\"}"), command, "users", 1));
            String line = log.lines().get(0);
            String json = line.substring(line.indexOf(" Command: ") + " Command: ".length());
            assertEquals(1000 + 4, json.length(), json);
            assertEquals(Json.driverLog(command, 1000), json);
            assertTrue(json.endsWith(" ..."));
        }
    }

    @Test
    void cutsAtFiveCharacters() {
        try (CapturedLog log = new CapturedLog("debug")) {
            CommandLogSink sink = CommandLogSink.builder().loggerName(log.loggerName).keyValuePairs(true)
                    .loggerSettings(LoggerSettings.builder().maxDocumentLength(5).build()).build();
            sink.started(find(Events.startedEvent(9, FIND)));
            assertTrue(log.lines().get(0).endsWith(" Command: {\"fin ..."), log.lines().get(0));
        }
    }

    @Test
    void logsSensitiveCommandsAsEmptyDocumentsThroughTheRealDriver() {
        try (CapturedLog log = new CapturedLog("debug"); EmbeddedServer server = new EmbeddedServer()) {
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                    .addSink(CommandLogSink.builder().loggerName(log.loggerName).keyValuePairs(true).build()).build();
            MongoClient client = server.client(listener);
            MongoDatabase db = client.getDatabase("test");
            try {
                db.runCommand(new Document("createUser", "bob").append("pwd", "hunter2-secret")
                        .append("roles", List.of()));
            } catch (RuntimeException expected) {
                // the embedded server may not know the command; the log must show no secret either way
            }
            db.runCommand(new Document("ping", 1));
            String text = log.text();
            assertFalse(text.contains("hunter2-secret"), text);
            List<String> createUser = log.lines().stream().filter(l -> l.contains("Command \"createUser\"")).collect(
                    java.util.stream.Collectors.toList());
            assertEquals(2, createUser.size(), text);
            assertTrue(createUser.get(0).endsWith(" Command: {}"), createUser.get(0));
            assertTrue(log.lines().stream().anyMatch(l -> l.contains("Command \"ping\" started") && l.contains("\"ping\": 1")),
                    text);
        }
    }

    @Test
    void rendersNothingWhenTheLevelIsOff() {
        AtomicInteger reads = new AtomicInteger();
        BsonDocument tripwire = new BsonDocument("find", new BsonString("users")) {
            private static final long serialVersionUID = 1L;

            @Override
            public BsonReader asBsonReader() {
                reads.incrementAndGet();
                throw new AssertionError("rendered");
            }
        };
        try (CapturedLog log = new CapturedLog("info")) {
            CommandLogSink sink = CommandLogSink.builder().loggerName(log.loggerName).keyValuePairs(true).build();
            assertFalse(sink.needsDocuments(), "no copy is asked for when DEBUG is off");
            CommandStartedEvent event = Events.startedEvent(9, FIND);
            StartedCommand started = Events.started(event, tripwire, "users", 1);
            sink.started(started);
            sink.completed(Events.succeeded(started, tripwire, 1000, 0, null));
            sink.completed(Events.failed(started, Events.commandException(2, "BadValue"), 1000));
            assertEquals(0, reads.get());
            assertEquals(List.of(), log.lines());
        }
        try (CapturedLog log = new CapturedLog("debug")) {
            CommandLogSink sink = CommandLogSink.builder().loggerName(log.loggerName).keyValuePairs(true).build();
            assertTrue(sink.needsDocuments());
            // the tripwire renders when the level is on; what it throws is caught and counted, never thrown to the driver
            sink.started(Events.started(Events.startedEvent(9, FIND), tripwire, "users", 1));
            assertEquals(1, reads.get());
            assertEquals(1, sink.getFailures());
        }
        warnings.assertSaid("failed to log a command and dropped the line");
    }

    @Test
    void slowOrFailedModeWritesOnlySlowAndFailedCommandsWithTheirCommand() {
        try (CapturedLog log = new CapturedLog("debug")) {
            CommandLogSink sink = CommandLogSink.builder().loggerName(log.loggerName).keyValuePairs(true)
                    .onlySlowOrFailed(100, TimeUnit.MILLISECONDS).build();
            StartedCommand started = find(Events.startedEvent(9, FIND));
            sink.started(started);
            sink.completed(Events.succeeded(started, Events.raw("{\"ok\": 1.0}"), TimeUnit.MILLISECONDS.toNanos(99), 0, null));
            assertEquals(List.of(), log.lines(), "fast: nothing");
            sink.completed(Events.succeeded(started, Events.raw("{\"ok\": 1.0}"), TimeUnit.MILLISECONDS.toNanos(100), 0, null));
            List<String> lines = log.lines();
            assertEquals(2, lines.size(), log.text());
            assertTrue(lines.get(0).endsWith("Command: " + FIND), lines.get(0));
            assertTrue(lines.get(1).contains("Command \"find\" succeeded on database \"test\" in 100.0 ms"), lines.get(1));
            sink.completed(Events.failed(started, Events.commandException(2, "BadValue"), 1000));
            sink.completed(Events.succeeded(started, Events.raw("{\"ok\": 1.0}"), 1000, 11000, "DuplicateKey"));
            lines = log.lines();
            assertEquals(6, lines.size(), log.text());
            assertTrue(lines.get(3).contains("failed on database"), lines.get(3));
            assertTrue(lines.get(5).contains("errorCode=11000 errorCodeName=DuplicateKey"), lines.get(5));
        }
    }

    @Test
    void slowOrFailedModeLogsTheWriteErrorOfARealDuplicateInsert() {
        try (CapturedLog log = new CapturedLog("debug"); EmbeddedServer server = new EmbeddedServer()) {
            RedactingCommandListener listener = RedactingCommandListener.builder()
                    .addSink(CommandLogSink.builder().loggerName(log.loggerName).keyValuePairs(true).onlySlowOrFailed(1, TimeUnit.HOURS)
                            .build()).build();
            MongoCollection<Document> users = server.client(listener).getDatabase("test").getCollection("users");
            users.insertOne(new Document("_id", 1).append("email", "ann@example.com"));
            users.find(new Document("_id", 1)).first();
            assertEquals(List.of(), log.lines(), "fast and clean: nothing");
            try {
                users.insertOne(new Document("_id", 1).append("email", "ann@example.com"));
                fail("duplicate key");
            } catch (com.mongodb.MongoWriteException expected) {
                assertEquals(11000, expected.getCode());
            }
            List<String> lines = log.lines();
            assertEquals(2, lines.size(), log.text());
            assertTrue(lines.get(0).contains("Command \"insert\" started on database \"test\""), lines.get(0));
            assertFalse(log.text().contains("ann@example.com"), "the default policy redacts values: " + log.text());
            assertTrue(lines.get(1).contains("errorCode=11000"), lines.get(1));
        }
    }

    @Test
    void logsOnTheHandOffThreadAndAsksForNoCopyWhenOff() {
        try (CapturedLog log = new CapturedLog("debug"); EmbeddedServer server = new EmbeddedServer()) {
            String quietName = "test.quiet." + java.util.UUID.randomUUID(); // no level set: slf4j-simple's default (warn) in the tests
            HandOffSink handOff = HandOffSink.builder(CommandLogSink.builder().loggerName(log.loggerName).keyValuePairs(true).build())
                    .threadName("log-hand-off").build();
            HandOffSink quiet = HandOffSink.builder(CommandLogSink.builder().loggerName(quietName).build()).build();
            assertTrue(handOff.needsDocuments());
            assertFalse(quiet.needsDocuments(), "the wrapped sink's answer: its level is off");
            RedactingCommandListener listener = RedactingCommandListener.builder().addSink(handOff).addSink(quiet)
                    .build();
            server.client(listener).getDatabase("test").getCollection("users")
                    .insertOne(new Document("email", "ann@example.com"));
            handOff.close();
            quiet.close();
            List<String> lines = log.lines();
            assertEquals(2, lines.size(), log.text());
            assertTrue(lines.stream().allMatch(l -> l.startsWith("[log-hand-off] DEBUG ")), lines.toString());
            assertTrue(lines.get(0).contains("Command \"insert\" started"), lines.get(0));
            assertFalse(log.text().contains("ann@example.com"));
            assertEquals(2, quiet.getDelivered());
        }
    }
}
