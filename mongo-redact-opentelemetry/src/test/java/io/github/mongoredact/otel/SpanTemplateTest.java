package io.github.mongoredact.otel;

import com.mongodb.ServerAddress;
import com.mongodb.connection.ClusterId;
import com.mongodb.connection.ServerId;
import io.github.mongoredact.Events;
import io.github.mongoredact.StartedCommand;
import io.github.mongoredact.internal.json.QueryText;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A template remembers the last redacted copy it described: a copy of the same bytes gets its text and session facts without
 * being read again, any other copy (another session, another transaction number) its own; a kind whose copies keep differing
 * stops remembering them, and still describes each.
 */
class SpanTemplateTest {
    private static final ServerId SERVER = new ServerId(new ClusterId(), new ServerAddress("localhost", 27017));
    private static final AttributeKey<String> LSID = AttributeKey.stringKey("db.mongodb.lsid");
    private static final AttributeKey<Long> TXN_NUMBER = AttributeKey.longKey("db.mongodb.txn_number");

    @Test
    void aCopyOfTheSameBytesGetsItsTextAndFactsAndAnyOtherCopyItsOwn() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        UUID[] sessions = {a, a, b, b, a, a};
        long[] transactions = {1, 1, 1, 2, 2, 2};
        try (Spans spans = new Spans()) {
            SpanTemplate template = new SpanTemplates(1000, SpanNaming.DRIVER_SPECIFICATION).of(SERVER, "app", "users", "update");
            Tracer tracer = spans.openTelemetry.getTracer("test");
            for (int i = 0; i < sessions.length; i++) {
                SpanBuilder span = tracer.spanBuilder("update");
                template.describe(started(copy(sessions[i], transactions[i])), span);
                span.startSpan().end();
            }
            List<SpanData> finished = spans.finished();
            assertEquals(sessions.length, finished.size());
            for (int i = 0; i < sessions.length; i++) {
                SpanData span = finished.get(i);
                assertEquals(sessions[i].toString(), span.getAttributes().get(LSID), "span " + i);
                assertEquals(transactions[i], span.getAttributes().get(TXN_NUMBER), "span " + i);
                assertEquals(QueryText.render(copy(sessions[i], transactions[i]), 1000), Spans.text(span), "span " + i);
            }
            assertTrue(template.remembersCopies());
        }
    }

    @Test
    void aKindWhoseCopiesKeepDifferingStopsRememberingThemAndDescribesEachStill() {
        try (Spans spans = new Spans()) {
            SpanTemplate template = new SpanTemplates(1000, SpanNaming.DRIVER_SPECIFICATION).of(SERVER, "app", "users", "update");
            Tracer tracer = spans.openTelemetry.getTracer("test");
            List<UUID> sessions = new ArrayList<>();
            for (int i = 0; i < SpanTemplate.TRIAL + 4; i++) {
                UUID session = UUID.randomUUID();
                sessions.add(session);
                SpanBuilder span = tracer.spanBuilder("update");
                // the same text (the session is not in it), another session each time
                template.describe(started(copy(session, 5)), span);
                span.startSpan().end();
            }
            assertFalse(template.remembersCopies(), "every copy differed from the one before");
            List<SpanData> finished = spans.finished();
            for (int i = 0; i < sessions.size(); i++) {
                assertEquals(sessions.get(i).toString(), finished.get(i).getAttributes().get(LSID), "span " + i);
                assertEquals(5L, finished.get(i).getAttributes().get(TXN_NUMBER), "span " + i);
            }
        }
    }

    /** The started command whose redacted, owned copy is {@code copy}, as the listener hands it to a sink. */
    private static StartedCommand started(final RawBsonDocument copy) {
        return Events.started(Events.startedEvent(1, "{\"update\": \"users\", \"$db\": \"app\"}"), copy, "users", 0);
    }

    /** A redacted update as the listener hands it over: a placeholder for its updates, its session kept. */
    private static RawBsonDocument copy(final UUID session, final long txnNumber) {
        BsonDocument command = new BsonDocument("update", new BsonString("users"))
                .append("updates", new BsonString("?"))
                .append("lsid", new BsonDocument("id", new BsonBinary(session)))
                .append("txnNumber", new BsonInt64(txnNumber))
                .append("$db", new BsonString("app"));
        return new RawBsonDocument(command, new BsonDocumentCodec());
    }
}
