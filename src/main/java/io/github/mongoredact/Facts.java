package io.github.mongoredact;

import com.mongodb.event.CommandStartedEvent;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.event.CommandFacts;
import io.github.mongoredact.internal.event.ReplyFacts;
import org.bson.BsonDocument;

/**
 * The one maker of {@link StartedCommand} and {@link CompletedCommand}, whose constructors are package-private: the listener
 * hands this to its pipeline, which lives in an internal package. Stateless and thread-safe.
 */
final class Facts implements CommandFacts {
    static final Facts INSTANCE = new Facts();

    private Facts() {
    }

    @Override
    public StartedCommand started(final CommandStartedEvent event, @Nullable final BsonDocument command,
                                  @Nullable final String collectionName, final long fingerprint, final int commandSize,
                                  final boolean redactedBySpec, final long cursorId) {
        return new StartedCommand(event, command, collectionName, fingerprint, commandSize, redactedBySpec, cursorId);
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
}
