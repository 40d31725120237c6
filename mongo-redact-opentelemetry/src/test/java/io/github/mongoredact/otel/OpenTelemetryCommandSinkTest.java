package io.github.mongoredact.otel;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.Events;
import io.github.mongoredact.LibraryWarnings;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RecordingSink;
import io.github.mongoredact.RedactionPolicy;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.bson.BsonDocument;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The OpenTelemetry sink behind the real driver against the embedded server, and with constructed events. */
class OpenTelemetryCommandSinkTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();

    private static final String EMAIL = "ada.lovelace@example.org";
    private static final AttributeKey<Long> CURSOR_ID = AttributeKey.longKey("db.mongodb.cursor_id");
    private final Spans spans = new Spans();
    private final EmbeddedServer server = new EmbeddedServer();

    @AfterEach
    void close() {
        server.close();
        spans.close();
    }

    private MongoClient client(final RedactionPolicy policy, final OpenTelemetryCommandSink sink) {
        return server.client(RedactingCommandListener.builder().policy(policy).addSink(sink).build());
    }

    private OpenTelemetryCommandSink sink(final int queryTextMaxLength) {
        return OpenTelemetryCommandSink.builder(spans.openTelemetry).queryTextMaxLength(queryTextMaxLength).build();
    }

    @Test
    void makesOneClientSpanPerCommandWithTheSpecificationsAttributesAndTypes() {
        OpenTelemetryCommandSink sink = OpenTelemetryCommandSink.builder(spans.openTelemetry)
                .environment(name -> null).build();
        assertFalse(sink.needsDocuments(), "no copy without the query text");
        assertFalse(sink.needsFingerprint());
        MongoCollection<Document> users = client(RedactionPolicy.defaults(), sink).getDatabase("app").getCollection("users");
        users.insertOne(new Document("email", EMAIL));
        users.find(new Document("email", EMAIL)).first();

        SpanData insert = spans.named("insert").get(0);
        assertEquals(SpanKind.CLIENT, insert.getKind());
        assertEquals("mongodb", insert.getAttributes().get(AttributeKey.stringKey("db.system.name")));
        assertEquals("app", insert.getAttributes().get(AttributeKey.stringKey("db.namespace")));
        assertEquals("users", insert.getAttributes().get(AttributeKey.stringKey("db.collection.name")));
        assertEquals("insert", insert.getAttributes().get(AttributeKey.stringKey("db.command.name")));
        assertEquals("insert app.users", insert.getAttributes().get(AttributeKey.stringKey("db.query.summary")));
        assertEquals("127.0.0.1", insert.getAttributes().get(AttributeKey.stringKey("server.address")));
        assertTrue(insert.getAttributes().get(AttributeKey.longKey("server.port")) > 0, "server.port is a long");
        assertEquals("tcp", insert.getAttributes().get(AttributeKey.stringKey("network.transport")));
        assertNotNull(insert.getAttributes().get(AttributeKey.longKey("db.mongodb.driver_connection_id")));
        assertNull(Spans.text(insert), "db.query.text is off by default");
        assertEquals(StatusCode.UNSET, insert.getStatus().getStatusCode());
        assertEquals("find app.users", spans.named("find").get(0).getAttributes()
                .get(AttributeKey.stringKey("db.query.summary")));
        // the handshake and heartbeats never reach listeners; a ping on admin names no collection
        client(RedactionPolicy.defaults(), sink).getDatabase("admin").runCommand(new Document("ping", 1));
        SpanData ping = spans.named("ping").get(0);
        assertEquals("ping admin", ping.getAttributes().get(AttributeKey.stringKey("db.query.summary")));
        assertNull(ping.getAttributes().get(AttributeKey.stringKey("db.collection.name")));
        assertEquals(0, sink.getFailures());
    }

    @Test
    void queryTextIsTheCommandWithoutSessionFieldsUnderSpecOnlyAndParametrizedUnderDefaults() {
        OpenTelemetryCommandSink spec = sink(10_000);
        assertTrue(spec.needsDocuments());
        client(RedactionPolicy.specOnly(), spec).getDatabase("app").getCollection("users")
                .find(new Document("email", EMAIL)).first();
        String text = Spans.text(spans.named("find").get(0));
        BsonDocument parsed = BsonDocument.parse(text);
        assertEquals(EMAIL, parsed.getDocument("filter").getString("email").getValue(), text);
        assertFalse(parsed.containsKey("$db") || parsed.containsKey("lsid") || parsed.containsKey("$clusterTime"), text);
        spans.exporter.reset();

        client(RedactionPolicy.defaults(), sink(10_000)).getDatabase("app").getCollection("users")
                .find(new Document("email", EMAIL)).limit(5).into(new ArrayList<>());
        String redacted = Spans.text(spans.named("find").get(0));
        assertFalse(redacted.contains("lovelace"), redacted);
        BsonDocument shape = BsonDocument.parse(redacted);
        assertEquals("users", shape.getString("find").getValue());
        assertEquals(5, shape.getNumber("limit").intValue(), "metadata stays: " + redacted);
        assertTrue(shape.getDocument("filter").get("email").isString(), "a placeholder: " + redacted);
    }

    @Test
    void queryTextIsCutAsTheLoggingSpecificationCutsAndComesFromTheEnvironmentWhenNotSet() {
        OpenTelemetryCommandSink sink = OpenTelemetryCommandSink.builder(spans.openTelemetry)
                .environment(Collections.singletonMap(OpenTelemetryCommandSink.QUERY_TEXT_MAX_LENGTH_VARIABLE, "20")::get)
                .build();
        assertEquals(20, sink.getQueryTextMaxLength());
        client(RedactionPolicy.specOnly(), sink).getDatabase("app").getCollection("users")
                .find(new Document("email", EMAIL)).first();
        String text = Spans.text(spans.named("find").get(0));
        assertEquals(20 + " ...".length(), text.length(), text);
        assertTrue(text.startsWith("{\"find\": \"users\", ") && text.endsWith(" ..."), text);

        assertThrows(IllegalArgumentException.class, () -> OpenTelemetryCommandSink.builder(spans.openTelemetry)
                .environment(Collections.singletonMap(OpenTelemetryCommandSink.QUERY_TEXT_MAX_LENGTH_VARIABLE, "many")::get)
                .build(), "a value that is not a length is a clear error");
        assertFalse(OpenTelemetryCommandSink.builder(spans.openTelemetry)
                .environment(Collections.singletonMap(OpenTelemetryCommandSink.ENABLED_VARIABLE, "false")::get)
                .build().isEnabled());
        assertTrue(OpenTelemetryCommandSink.builder(spans.openTelemetry).enabled(true)
                .environment(Collections.singletonMap(OpenTelemetryCommandSink.ENABLED_VARIABLE, "false")::get)
                .build().isEnabled(), "the client's setting wins over the environment");
    }

    @Test
    void makesNoSpanForSensitiveCommandsNorTheHelloFamily() {
        MongoClient client = client(RedactionPolicy.defaults(), sink(1000));
        for (String name : new String[]{"createUser", "saslStart", "hello", "isMaster"}) {
            try {
                client.getDatabase("admin").runCommand(new Document(name, "ada").append("pwd", "secret-password"));
            } catch (MongoCommandException refusedByTheEmbeddedServer) {
                // the span decision does not depend on the server's answer
            }
        }
        client.getDatabase("admin").runCommand(new Document("ping", 1));
        List<String> names = new ArrayList<>();
        spans.commands().forEach(span -> names.add(span.getName()));
        assertEquals(Collections.singletonList("ping"), names);
    }

    @Test
    void aDuplicateKeyLeavesNoValueInAnyAttributeEventOrStatus() {
        MongoClient client = client(RedactionPolicy.defaults(), sink(100_000));
        MongoCollection<Document> users = client.getDatabase("app").getCollection("users");
        users.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true));
        users.insertOne(new Document("email", EMAIL).append("n", 1));
        users.insertOne(new Document("email", "grace@example.org").append("n", 2));
        assertThrows(MongoWriteException.class, () -> users.insertOne(new Document("email", EMAIL)));
        assertThrows(MongoCommandException.class, () -> users.findOneAndUpdate(new Document("n", 2),
                new Document("$set", new Document("email", EMAIL)), new FindOneAndUpdateOptions()));

        SpanData insert = spans.named("insert").get(2);
        assertEquals(StatusCode.ERROR, insert.getStatus().getStatusCode(), "write errors under ok: 1");
        assertEquals("11000", insert.getAttributes().get(AttributeKey.stringKey("db.response.status_code")));
        SpanData findAndModify = spans.named("findAndModify").get(0);
        assertEquals(StatusCode.ERROR, findAndModify.getStatus().getStatusCode());
        assertNotNull(findAndModify.getAttributes().get(AttributeKey.stringKey("exception.message")));
        assertNotNull(findAndModify.getAttributes().get(AttributeKey.stringKey("exception.stacktrace")));
        assertEquals("exception", findAndModify.getEvents().get(0).getName());
        for (SpanData span : spans.commands()) {
            for (String text : Spans.allTexts(span)) {
                assertFalse(text.contains("lovelace") || text.contains("grace"), span.getName() + ": " + text);
            }
        }
    }

    @Test
    void theSyncDriversCallerIsTheParentOnEachOfTwoConcurrentThreads() throws Exception {
        MongoClient client = client(RedactionPolicy.defaults(), sink(0));
        Tracer tracer = spans.openTelemetry.getTracer("app");
        CountDownLatch both = new CountDownLatch(2);
        List<String> parents = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
        for (String name : new String[]{"request-a", "request-b"}) {
            threads.add(new Thread(() -> {
                Span request = tracer.spanBuilder(name).startSpan();
                try (Scope ignored = request.makeCurrent()) {
                    parents.add(request.getSpanContext().getSpanId());
                    both.countDown();
                    both.await(5, TimeUnit.SECONDS);
                    for (int i = 0; i < 20; i++) {
                        client.getDatabase("app").getCollection(name).insertOne(new Document("i", i));
                    }
                } catch (Throwable t) {
                    errors.add(t);
                } finally {
                    request.end();
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join(30_000);
        }
        assertTrue(errors.isEmpty(), errors.toString());
        for (String parent : parents) {
            List<SpanData> children = new ArrayList<>();
            for (SpanData span : spans.commands()) {
                if (span.getParentSpanId().equals(parent)) {
                    children.add(span);
                }
            }
            assertEquals(20, children.size(), "each request's inserts under its own span");
            String collection = children.get(0).getAttributes().get(AttributeKey.stringKey("db.collection.name"));
            assertTrue(children.stream().allMatch(span -> collection.equals(
                    span.getAttributes().get(AttributeKey.stringKey("db.collection.name")))), "no span of the other request");
        }
    }

    @Test
    void theSpanLastsWhatTheDriverMeasuredAndTheFailureIsTheRedactedOne() {
        OpenTelemetryCommandSink sink = sink(1000);
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addSink(sink).build();
        CommandStartedEvent started = Events.startedEvent(41, "{\"find\": \"users\", \"filter\": {\"email\": \"" + EMAIL
                + "\"}, \"lsid\": {\"id\": {\"$binary\": {\"base64\": \"AAAAAAAAQACAAAAAAAAAAQ==\", \"subType\": \"04\"}}},"
                + " \"txnNumber\": {\"$numberLong\": \"7\"}, \"$db\": \"test\"}");
        listener.commandStarted(started);
        MongoCommandException failure = new MongoCommandException(new BsonDocument("ok", new org.bson.BsonInt32(0))
                .append("code", new org.bson.BsonInt32(2)).append("codeName", new org.bson.BsonString("BadValue"))
                .append("errmsg", new org.bson.BsonString("bad value " + EMAIL)), Events.SERVER_ID.getAddress());
        listener.commandFailed(Events.failedEvent(started, failure, 1_500_000L));
        SpanData span = spans.named("find").get(0);
        assertEquals(1_500_000L, span.getEndEpochNanos() - span.getStartEpochNanos());
        assertEquals("2", span.getAttributes().get(AttributeKey.stringKey("db.response.status_code")));
        assertEquals("BadValue", span.getStatus().getDescription());
        assertEquals(7L, span.getAttributes().get(AttributeKey.longKey("db.mongodb.txn_number")));
        assertEquals("00000000-0000-4000-8000-000000000001", span.getAttributes().get(AttributeKey.stringKey("db.mongodb.lsid")));
        assertEquals(12L, span.getAttributes().get(AttributeKey.longKey("db.mongodb.server_connection_id")));
        assertEquals(3L, span.getAttributes().get(AttributeKey.longKey("db.mongodb.driver_connection_id")));
        String message = span.getAttributes().get(AttributeKey.stringKey("exception.message"));
        assertTrue(message.contains("BadValue") && !message.contains("lovelace"), message);
        assertEquals(MongoCommandException.class.getName(), span.getAttributes().get(AttributeKey.stringKey("exception.type")));
    }

    @Test
    void aCursorLeftOpenIsTheSpansCursorIdAndGetMoreCarriesIt() {
        OpenTelemetryCommandSink sink = sink(1000);
        RedactingCommandListener listener = RedactingCommandListener.builder().addSink(sink).build();
        CommandStartedEvent find = Events.startedEvent(42, "{\"find\": \"users\", \"$db\": \"test\"}");
        listener.commandStarted(find);
        listener.commandSucceeded(Events.succeededEvent(find, "{\"cursor\": {\"firstBatch\": [], \"id\": {\"$numberLong\":"
                + " \"99\"}, \"ns\": \"test.users\"}, \"ok\": 1}", 1000L));
        CommandStartedEvent getMore = Events.startedEvent(43, "{\"getMore\": {\"$numberLong\": \"99\"}, \"collection\":"
                + " \"users\", \"$db\": \"test\"}");
        listener.commandStarted(getMore);
        listener.commandSucceeded(Events.succeededEvent(getMore, "{\"cursor\": {\"nextBatch\": [], \"id\": {\"$numberLong\":"
                + " \"0\"}, \"ns\": \"test.users\"}, \"ok\": 1}", 1000L));
        assertEquals(99L, spans.named("find").get(0).getAttributes().get(AttributeKey.longKey("db.mongodb.cursor_id")));
        assertEquals(99L, spans.named("getMore").get(0).getAttributes().get(AttributeKey.longKey("db.mongodb.cursor_id")));
        assertEquals("getMore test.users", spans.named("getMore").get(0).getAttributes()
                .get(AttributeKey.stringKey("db.query.summary")));
    }

    @Test
    void aFindsCursorIdIsTheCursorOfTheGetMoreThatFollowsAndNoReplyIsCopiedForIt() {
        OpenTelemetryCommandSink sink = sink(1000);
        assertFalse(sink.needsReplyDocuments(), "the cursor id comes without the reply's copy");
        RecordingSink recorder = new RecordingSink(false, false);
        MongoClient client = server.client(RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addSink(sink).addSink(recorder).build());
        MongoCollection<Document> users = client.getDatabase("app").getCollection("users");
        for (int i = 0; i < 5; i++) {
            users.insertOne(new Document("email", i + EMAIL).append("n", i));
        }
        assertEquals(5, users.find().batchSize(2).into(new ArrayList<>()).size());

        Long findCursor = spans.named("find").get(0).getAttributes().get(CURSOR_ID);
        assertNotNull(findCursor, "the find left a cursor open");
        assertTrue(findCursor != 0);
        List<SpanData> getMores = spans.named("getMore");
        assertEquals(2, getMores.size(), "5 documents in batches of 2: find, then 2 getMores");
        for (SpanData getMore : getMores) {
            assertEquals(findCursor, getMore.getAttributes().get(CURSOR_ID), "each getMore names the find's cursor");
        }
        long recordedFind = 0;
        for (CompletedCommand completed : recorder.completed) {
            assertNull(completed.getReply(), "no sink reads replies: none is copied (" + completed + ")");
            if (completed.getStarted().getCommandName().equals("find")) {
                recordedFind = completed.getCursorId();
            }
        }
        assertEquals(findCursor.longValue(), recordedFind);
        assertEquals(0, recorder.completed.get(recorder.completed.size() - 1).getCursorId(), "the last getMore closed it");
        assertEquals(0, sink.getFailures());
    }

    @Test
    void aPolicyThatRedactsTheCursorIdGivesNoCursorIdAttribute() {
        RedactionPolicy policy = RedactionPolicy.builder(RedactionPolicy.defaults())
                .replyField("cursor.id", io.github.mongoredact.FieldAction.REDACT).build();
        MongoCollection<Document> users = client(policy, sink(1000)).getDatabase("app").getCollection("users");
        for (int i = 0; i < 5; i++) {
            users.insertOne(new Document("n", i));
        }
        assertEquals(5, users.find().batchSize(2).into(new ArrayList<>()).size());
        SpanData find = spans.named("find").get(0);
        assertNull(find.getAttributes().get(CURSOR_ID), "the copy of the reply holds a placeholder: " + find.getAttributes());
        assertEquals(2, spans.named("getMore").size(), "the cursor was left open");
    }

    @Test
    void aTracerThatThrowsIsCountedAndNeverReachesTheDriver() {
        OpenTelemetry failing = new OpenTelemetry() {
            @Override
            public io.opentelemetry.api.trace.TracerProvider getTracerProvider() {
                return new io.opentelemetry.api.trace.TracerProvider() {
                    @Override
                    public Tracer get(final String name) {
                        return spanName -> {
                            throw new IllegalStateException("no spans today");
                        };
                    }

                    @Override
                    public Tracer get(final String name, final String version) {
                        return get(name);
                    }
                };
            }

            @Override
            public io.opentelemetry.context.propagation.ContextPropagators getPropagators() {
                return io.opentelemetry.context.propagation.ContextPropagators.noop();
            }
        };
        OpenTelemetryCommandSink sink = OpenTelemetryCommandSink.builder(failing).queryTextMaxLength(100).build();
        client(RedactionPolicy.defaults(), sink).getDatabase("app").getCollection("users").insertOne(new Document("a", 1));
        assertTrue(sink.getFailures() >= 2, "started and completed each failed: " + sink.getFailures());
        warnings.assertSaid("failed to trace a command and dropped its span");
    }
}
