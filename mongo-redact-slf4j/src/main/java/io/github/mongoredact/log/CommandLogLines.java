package io.github.mongoredact.log;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.OwnedDocument;
import io.github.mongoredact.StartedCommand;
import org.bson.BsonDocument;

/**
 * The lines of a {@link CommandLogSink}: the driver's started, succeeded and failed messages with their key-value pairs, each
 * document rendered as relaxed extended JSON cut at the sink's {@code maxDocumentLength}. A document that cannot be read is
 * shown as {@code {"$renderError": "<exception class>"}} and handed to the sink's failure count. Immutable, thread-safe.
 */
final class CommandLogLines {
    /** What the driver appends to a cut text. */
    static final String ELLIPSIS = " ...";
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
        String json = render(started.getCommandView(), started.getCommand());
        LogLine line = new LogLine(160 + json.length(), keyValuePairs);
        line.text("Command \"").field("commandName", started.getCommandName()).text("\" started on database \"")
                .field("databaseName", started.getDatabaseName()).text("\"")
                .connection(started)
                .text(" Command: ").field("command", json);
        if (keyValuePairs) {
            queryShape(line, started);
        }
        return line;
    }

    /**
     * MongoDB's own query shape of the started command, where the listener gave one (structured only): its
     * {@code queryShapeHash} as the server reports it, and the debug shape, cut as a document is. Read only for a line with
     * key-value pairs: the debug shape's JSON is rendered on first read.
     */
    private void queryShape(final LogLine line, final StartedCommand started) {
        String hash = started.getQueryShapeHash();
        String shape = started.getQueryShape();
        if (hash != null && shape != null) {
            line.structured("queryShapeHash", hash).structured("queryShape", cut(shape, maxDocumentLength));
        }
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
            line.text(" Command reply: ").field("reply", render(command.getReplyView(), command.getReply()));
        } else {
            line.structured("failure", cut(String.valueOf(command.getFailure()), maxDocumentLength));
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

    /** @param document the document the view shows, handed to the sink's report when it cannot be read */
    private String render(@Nullable final OwnedDocument view, @Nullable final BsonDocument document) {
        if (view == null || document == null) {
            return "{}";
        }
        try {
            return view.toJson(maxDocumentLength);
        } catch (RuntimeException e) {
            // bytes that are not BSON: the line still tells what ran, and the failure is counted
            renderErrors.unreadable(e, document);
            return "{\"$renderError\": \"" + e.getClass().getName() + "\"}";
        }
    }

    /**
     * A text cut as the driver cuts a document's: past {@code maxLength} characters, its end replaced by {@code " ..."}; never
     * half of a surrogate pair.
     *
     * @param maxLength the most characters shown, 0 for no limit
     */
    static String cut(final String text, final int maxLength) {
        if (maxLength == 0 || text.length() <= maxLength) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(maxLength - 1)) ? maxLength - 1 : maxLength;
        return text.substring(0, end) + ELLIPSIS;
    }
}
