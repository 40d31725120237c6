package io.github.mongoredact.otel;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.LibraryWarnings;
import io.github.mongoredact.RecordingSink;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.StartedCommand;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;

import static io.github.mongoredact.EmbeddedServer.tolerate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code db.mongodb.query_shape} and {@code db.mongodb.query_shape_hash} on the command spans, through the real driver
 * against the embedded server: the server's own shape and hash (a hash the server's tests pin, from the command the driver
 * sends), with the option on, none where the redacted copy hides what the shape would show, and none, with nothing asked or
 * copied for it, by default (the option off).
 */
class QueryShapeSpanTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();

    private static final AttributeKey<String> SHAPE = AttributeKey.stringKey("db.mongodb.query_shape");
    private static final AttributeKey<String> HASH = AttributeKey.stringKey("db.mongodb.query_shape_hash");
    /** {@code ExtractQueryShapeDistinctTest.StableQueryShapeHashValue}, no collation (distinct_cmd_shape_test.cpp). */
    private static final String DISTINCT_NO_COLLATION_HASH = "6885616B1ACD8B4F7FB5C1EB2A17B482EBB8788D63AC033160AA3A848F125DEA";

    private static void workload(final EmbeddedServer server, final RedactingCommandListener listener) {
        MongoCollection<Document> users = server.client(listener).getDatabase("shop").getCollection("users");
        users.insertOne(new Document("name", "alice"));
        users.find(Filters.eq("name", "alice")).into(new ArrayList<>());
        users.find(Filters.exists("prefs.alice@example.com")).into(new ArrayList<>());
        MongoCollection<Document> area = server.client(listener).getDatabase("testdb").getCollection("testcoll");
        tolerate(() -> area.distinct("name", Filters.eq("area", 5), String.class).into(new ArrayList<>()));
    }

    @Test
    void spansOfShapedCommandsCarryTheServersShapeAndHashWithTheOptionOn() {
        try (Spans spans = new Spans(); EmbeddedServer server = new EmbeddedServer()) {
            OpenTelemetryCommandSink sink = OpenTelemetryCommandSink.builder(spans.openTelemetry).queryShape(true).build();
            assertTrue(sink.isQueryShape());
            assertTrue(sink.needsQueryShape());
            RecordingSink recorder = new RecordingSink(false, false, false);
            workload(server, RedactingCommandListener.builder().policy(RedactionPolicy.defaults()).addSink(sink)
                    .addSink(recorder).build());

            Attributes find = spans.named("find").get(0).getAttributes();
            String hash = find.get(HASH);
            assertNotNull(hash, find.toString());
            assertTrue(hash.matches("[0-9A-F]{64}"), hash);
            String shape = find.get(SHAPE);
            assertTrue(shape.contains("\"?string\"") && shape.contains("\"users\""), shape);
            assertFalse(shape.contains("alice"), shape);
            Attributes masked = spans.named("find").get(1).getAttributes();
            assertNull(masked.get(HASH), "the copy masks the key that is data: no shape " + masked);
            assertNull(masked.get(SHAPE));
            assertEquals(DISTINCT_NO_COLLATION_HASH, spans.named("distinct").get(0).getAttributes().get(HASH));
            assertNull(spans.named("insert").get(0).getAttributes().get(HASH), "an insert has no query shape");
            // the cost: the shaped commands are copied (the shape takes the copy), the others not
            for (StartedCommand started : recorder.started) {
                boolean shaped = started.getCommandName().equals("find") || started.getCommandName().equals("distinct");
                assertEquals(shaped, started.getCommand() != null, started.toString());
            }
            assertEquals(0, sink.getFailures());
        }
    }

    @Test
    void offByDefaultNoShapeIsAskedForNorCarried() {
        try (Spans spans = new Spans(); EmbeddedServer server = new EmbeddedServer()) {
            OpenTelemetryCommandSink sink = OpenTelemetryCommandSink.builder(spans.openTelemetry).build();
            assertFalse(sink.isQueryShape() || sink.needsQueryShape());
            RecordingSink recorder = new RecordingSink(false, false, false);
            workload(server, RedactingCommandListener.builder().addSink(sink).addSink(recorder).build());
            spans.commands().forEach(span -> assertNull(span.getAttributes().get(HASH), span.toString()));
            recorder.started.forEach(started -> assertNull(started.getCommand(), started.toString()));
            recorder.started.forEach(started -> assertNull(started.getQueryShapeHash(), started.toString()));
        }
    }
}
