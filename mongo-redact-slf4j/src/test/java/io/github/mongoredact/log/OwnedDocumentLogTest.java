package io.github.mongoredact.log;

import com.mongodb.LoggerSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.OwnedDocument;
import io.github.mongoredact.RecordingSink;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.StartedCommand;
import io.github.mongoredact.internal.json.TruncatedJson;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The log sink prints, for every command and reply of a real driver's workload, the text of the public view
 * ({@link OwnedDocument#toJson(int)}), which is the text the sink rendered from the copy before the view existed
 * ({@code TruncatedJson}), whole and cut.
 */
class OwnedDocumentLogTest {

    @Test
    void theLogPrintsTheViewsTextWholeAndCut() {
        for (int maxDocumentLength : new int[]{1000, 25}) {
            RecordingLog log = new RecordingLog();
            RecordingSink sink = new RecordingSink(true, true);
            RedactingCommandListener listener = RedactingCommandListener.builder()
                    .addSink(CommandLogSink.builder().log(log).keyValuePairs(true)
                            .loggerSettings(LoggerSettings.builder().maxDocumentLength(maxDocumentLength).build()).build())
                    .addSink(sink)
                    .build();
            try (EmbeddedServer server = new EmbeddedServer()) {
                MongoClient client = server.client(listener);
                MongoCollection<Document> users = client.getDatabase("shop").getCollection("users");
                List<Document> many = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    many.add(new Document("name", "user" + i).append("email", "user" + i + "@example.org"));
                }
                users.insertMany(many);
                users.find(Filters.eq("email", "user2@example.org")).first();
                users.find().batchSize(2).into(new ArrayList<>());
            }
            List<RecordingLog.Line> started = log.startingWith("Command \"");
            assertFalse(sink.started.isEmpty());
            int s = 0;
            int c = 0;
            for (RecordingLog.Line line : started) {
                if (line.message.contains("\" started on database")) {
                    StartedCommand command = sink.started.get(s++);
                    OwnedDocument view = command.getCommandView();
                    assertNotNull(view, command.toString());
                    assertEquals(view.toJson(maxDocumentLength), line.field("command"), command.toString());
                    assertEquals(TruncatedJson.render(command.getCommand(), maxDocumentLength), line.field("command"));
                } else if (line.message.contains("\" succeeded on database")) {
                    CompletedCommand command = sink.completed.get(c++);
                    OwnedDocument view = command.getReplyView();
                    assertNotNull(view, command.toString());
                    assertEquals(view.toJson(maxDocumentLength), line.field("reply"), command.toString());
                    assertEquals(TruncatedJson.render(command.getReply(), maxDocumentLength), line.field("reply"));
                }
            }
            assertEquals(sink.started.size(), s, log.lines.toString());
            assertEquals(sink.completed.size(), c, log.lines.toString());
        }
    }
}
