package io.github.mongoredact.log;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.otel.OpenTelemetryCommandSink;
import io.github.mongoredact.otel.Spans;
import io.opentelemetry.api.common.AttributeKey;
import org.bson.BsonDocument;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** The OpenTelemetry sink reads no reply; the log sink registered beside it still logs every reply. */
class RepliesBesideTracingTest {
    @Test
    void theLogSinkBesideTheOpenTelemetrySinkStillReceivesReplies() {
        try (Spans spans = new Spans(); EmbeddedServer server = new EmbeddedServer()) {
            logsEveryReplyBesideTheSpans(spans, server);
        }
    }

    private static void logsEveryReplyBesideTheSpans(final Spans spans, final EmbeddedServer server) {
        RecordingLog log = new RecordingLog();
        MongoClient client = server.client(RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addSink(OpenTelemetryCommandSink.builder(spans.openTelemetry).queryTextMaxLength(1000).build())
                .addSink(CommandLogSink.builder().log(log).build()).build());
        MongoCollection<Document> users = client.getDatabase("app").getCollection("users");
        for (int i = 0; i < 5; i++) {
            users.insertOne(new Document("n", i));
        }
        assertEquals(5, users.find().batchSize(2).into(new ArrayList<>()).size());

        List<RecordingLog.Line> finds = log.startingWith("Command \"find\" succeeded");
        assertEquals(1, finds.size(), log.lines.toString());
        BsonDocument reply = BsonDocument.parse(finds.get(0).field("reply"));
        long logged = reply.getDocument("cursor").getNumber("id").longValue();
        Long traced = spans.named("find").get(0).getAttributes().get(AttributeKey.longKey("db.mongodb.cursor_id"));
        assertNotNull(traced);
        assertEquals(logged, traced.longValue(), "the span's cursor id is the one the logged reply shows");
        assertEquals(2, log.startingWith("Command \"getMore\" succeeded").size());
        assertEquals(5, log.startingWith("Command \"insert\" succeeded").size());
    }
}
