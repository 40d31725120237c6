package io.github.mongoredact.otel;

import com.mongodb.client.MongoCollection;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.FieldAction;
import io.github.mongoredact.LibraryWarnings;
import io.github.mongoredact.RecordingSink;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.StartedCommand;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code db.mongodb.cursor_id} with the query text off ({@code queryTextMaxLength(0)}), through the real driver and the
 * embedded server: the find that opened a cursor and each {@code getMore} that read it carry its id, as with the text on,
 * while no command nor reply is copied for it (the ids are read by the listener without a copy), and a policy that hides
 * {@code getMore}'s cursor id in the copy hides it from the span too.
 */
class CursorIdWithoutQueryTextTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();

    private static final AttributeKey<Long> CURSOR_ID = AttributeKey.longKey("db.mongodb.cursor_id");

    /** Five documents read in batches of two: a find that leaves a cursor open, then two getMores (the last one closes it). */
    private static void run(final RedactionPolicy policy, final int queryTextMaxLength, final Spans spans,
                            final RecordingSink recorder) {
        OpenTelemetryCommandSink sink = OpenTelemetryCommandSink.builder(spans.openTelemetry)
                .queryTextMaxLength(queryTextMaxLength).build();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addSink(sink).addSink(recorder)
                .build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoCollection<Document> users = server.client(listener).getDatabase("app").getCollection("users");
            for (int i = 0; i < 5; i++) {
                users.insertOne(new Document("n", i));
            }
            assertEquals(5, users.find().batchSize(2).into(new ArrayList<>()).size());
        }
        assertEquals(0, sink.getFailures());
        assertEquals(0, listener.getCounters().getRedactionFailures());
    }

    @Test
    void theFindAndEachGetMoreCarryTheCursorIdWithTheTextOffAndNothingIsCopiedForIt() {
        RecordingSink recorder = new RecordingSink(false, false);
        try (Spans spans = new Spans()) {
            run(RedactionPolicy.defaults(), 0, spans, recorder);
            SpanData find = spans.named("find").get(0);
            assertNull(Spans.text(find), "the text is off");
            Long cursor = find.getAttributes().get(CURSOR_ID);
            assertNotNull(cursor, "the find left a cursor open: " + find.getAttributes());
            assertTrue(cursor != 0);
            List<SpanData> getMores = spans.named("getMore");
            assertEquals(2, getMores.size(), "5 documents in batches of 2: find, then 2 getMores");
            for (SpanData getMore : getMores) {
                assertEquals(cursor, getMore.getAttributes().get(CURSOR_ID), "each getMore names the find's cursor, the last"
                        + " one (whose reply closes it) too: " + getMore.getAttributes());
            }
        }
        // cost follows what sinks read: neither sink reads documents, so none was copied for the cursor ids
        for (StartedCommand started : recorder.started) {
            assertNull(started.getCommand(), started.toString());
        }
        for (CompletedCommand completed : recorder.completed) {
            assertNull(completed.getReply(), completed.toString());
        }
        long getMores = recorder.started.stream().filter(s -> s.getCommandName().equals("getMore")).count();
        assertEquals(2, getMores);
        for (StartedCommand started : recorder.started) {
            assertEquals(started.getCommandName().equals("getMore"), started.getCursorId() != 0, started.toString());
        }
    }

    @Test
    void aPolicyThatRedactsGetMoresCursorIdHidesItFromTheSpanWithTheTextOff() {
        RedactionPolicy policy = RedactionPolicy.builder(RedactionPolicy.defaults())
                .field("getMore", "getMore", FieldAction.REDACT).build();
        for (int length : new int[]{0, 1000}) {
            RecordingSink recorder = new RecordingSink(false, false);
            try (Spans spans = new Spans()) {
                run(policy, length, spans, recorder);
                Long cursor = spans.named("find").get(0).getAttributes().get(CURSOR_ID);
                assertNotNull(cursor, "the find's reply still shows the cursor it opened (text " + length + ")");
                List<SpanData> getMores = spans.named("getMore");
                assertEquals(2, getMores.size());
                // the first getMore's reply shows the still open cursor
                assertEquals(cursor, getMores.get(0).getAttributes().get(CURSOR_ID));
                if (length == 0) {
                    // the last one's reply shows 0 and its command is not shown: no id (with the text on, the copy's stand-in
                    // for the redacted first field, an int64 1, is read as the id: left as it is)
                    assertNull(getMores.get(1).getAttributes().get(CURSOR_ID), getMores.get(1).getAttributes().toString());
                }
            }
            for (StartedCommand started : recorder.started) {
                assertEquals(0, started.getCursorId(), started.toString());
            }
        }
        RecordingSink capped = new RecordingSink(false, false);
        try (Spans spans = new Spans()) {
            run(RedactionPolicy.builder(RedactionPolicy.defaults()).maxDocumentBytes(4096).build(), 0, spans, capped);
        }
        assertFalse(capped.started.stream().anyMatch(s -> s.getCursorId() != 0), "past a cap only the copy knows the id");
    }
}
