package io.github.mongoredact;

import com.mongodb.event.CommandStartedEvent;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.event.CommandFacts;
import io.github.mongoredact.internal.event.ReplyFacts;
import io.github.mongoredact.internal.event.SinkCalls;
import io.github.mongoredact.internal.shape.QueryShape;
import org.bson.BsonDocument;

/**
 * The one maker of {@link StartedCommand} and {@link CompletedCommand}, whose constructors are package-private, and the caller
 * of {@link CommandSink}s: the listener hands this to its pipeline, which lives in an internal package and knows these types
 * only as its type parameters. Stateless and thread-safe.
 */
final class Facts implements CommandFacts<StartedCommand, CompletedCommand>,
        SinkCalls<CommandSink, StartedCommand, CompletedCommand> {
    static final Facts INSTANCE = new Facts();

    private Facts() {
    }

    @Override
    public StartedCommand started(final CommandStartedEvent event, @Nullable final BsonDocument command,
                                  @Nullable final String collectionName, final long fingerprint, final int commandSize,
                                  final boolean redactedBySpec, final long cursorId, @Nullable final QueryShape queryShape) {
        return new StartedCommand(event, command, collectionName, fingerprint, commandSize, redactedBySpec, cursorId,
                queryShape);
    }

    @Override
    public CompletedCommand succeeded(final StartedCommand started, final long elapsedNanos, @Nullable final BsonDocument reply,
                                      final ReplyFacts replyFacts) {
        return new CompletedCommand(started, elapsedNanos, reply, replyFacts.size(), null, replyFacts.errorCode(),
                replyFacts.errorCodeName(), replyFacts.cursorId());
    }

    @Override
    public CompletedCommand failed(final StartedCommand started, final long elapsedNanos, final Throwable failure,
                                   final int errorCode, @Nullable final String errorCodeName) {
        return new CompletedCommand(started, elapsedNanos, null, -1, failure, errorCode, errorCodeName, 0);
    }

    @Override
    public boolean isRedactedBySpec(final StartedCommand started) {
        return started.isRedactedBySpec();
    }

    @Override
    public boolean needsDocuments(final CommandSink sink) {
        return sink.needsDocuments();
    }

    @Override
    public boolean needsReplyDocuments(final CommandSink sink) {
        return sink.needsReplyDocuments();
    }

    @Override
    public boolean needsFingerprint(final CommandSink sink) {
        return sink.needsFingerprint();
    }

    @Override
    public boolean needsQueryShape(final CommandSink sink) {
        return sink.needsQueryShape();
    }

    @Override
    public boolean needsCommandSize(final CommandSink sink) {
        return sink.needsCommandSize();
    }

    @Override
    public void started(final CommandSink sink, final StartedCommand command) {
        sink.started(command);
    }

    @Override
    public void completed(final CommandSink sink, final CompletedCommand command) {
        sink.completed(command);
    }
}
