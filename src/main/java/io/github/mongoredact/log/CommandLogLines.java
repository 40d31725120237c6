package io.github.mongoredact.log;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.StartedCommand;
import io.github.mongoredact.internal.json.TruncatedJson;
import org.bson.BsonDocument;

/**
 * The lines of a {@link CommandLogSink}: the driver's started, succeeded and failed messages with their key-value pairs, each
 * document rendered as relaxed extended JSON cut at the sink's {@code maxDocumentLength}. A document that cannot be read is
 * shown as {@code {"$renderError": "<exception class>"}} and handed to the sink's failure count. Immutable, thread-safe.
 */
final class CommandLogLines {
    /** Where a document that cannot be read is reported: the sink counts it. */
    interface RenderErrors {
        void unreadable(RuntimeException e, BsonDocument document);
    }

    private final int maxDocumentLength;
    private final boolean keyValuePairs;
    private final RenderErrors renderErrors;

    CommandLogLines(final int maxDocumentLength, final boolean keyValuePairs, final RenderErrors renderErrors) {
        this.maxDocumentLength = maxDocumentLength;
        this.keyValuePairs = keyValuePairs;
        this.renderErrors = renderErrors;
    }

    LogLine started(final StartedCommand started) {
        String json = render(started.getCommand());
        LogLine line = new LogLine(160 + json.length(), keyValuePairs);
        line.text("Command \"").field("commandName", started.getCommandName()).text("\" started on database \"")
                .field("databaseName", started.getDatabaseName()).text("\"")
                .connection(started)
                .text(" Command: ").field("command", json);
        return line;
    }

    LogLine completed(final CompletedCommand command) {
        StartedCommand started = command.getStarted();
        LogLine line = new LogLine(128 + (maxDocumentLength == 0 ? 256 : maxDocumentLength), keyValuePairs);
        line.text("Command \"").field("commandName", started.getCommandName()).text("\" ")
                .text(command.isSucceeded() ? "succeeded" : "failed")
                .text(" on database \"").field("databaseName", started.getDatabaseName()).text("\" in ")
                .field("durationMS", command.getElapsedNanos() / 1_000_000.0).text(" ms")
                .connection(started);
        if (command.isSucceeded()) {
            line.text(" Command reply: ").field("reply", render(command.getReply()));
        } else {
            line.structured("failure", TruncatedJson.cut(String.valueOf(command.getFailure()), maxDocumentLength));
        }
        if (command.hasError()) {
            line.structured("errorCode", command.getErrorCode());
            String codeName = command.getErrorCodeName();
            if (codeName != null) {
                line.structured("errorCodeName", codeName);
            }
        }
        return line;
    }

    private String render(@Nullable final BsonDocument document) {
        if (document == null) {
            return "{}";
        }
        try {
            return TruncatedJson.render(document, maxDocumentLength);
        } catch (RuntimeException e) {
            // bytes that are not BSON: the line still tells what ran, and the failure is counted
            renderErrors.unreadable(e, document);
            return "{\"$renderError\": \"" + e.getClass().getName() + "\"}";
        }
    }
}
