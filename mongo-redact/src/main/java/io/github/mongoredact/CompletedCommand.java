package io.github.mongoredact;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;

import java.util.concurrent.TimeUnit;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * The owned, immutable facts of a completed command: the started command's facts (when the listener still held them) and the
 * outcome, redacted.
 *
 * <p>Lifetime and threading: every field is owned; an instance may be kept forever and read from any thread.</p>
 *
 * @since 0.1
 */
public final class CompletedCommand {
    private final StartedCommand started;
    private final long elapsedNanos;
    /** The reply of a succeeded command (or null), or the failure: one field, so that the facts of a pair stay 112 bytes. */
    @Nullable
    private final Object content;
    private final int replySize;
    private final int errorCode;
    @Nullable
    private final String errorCodeName;
    private final long cursorId;

    /**
     * Creates the facts of a completed command.
     *
     * @param started the facts of the start; when the start was not tracked (evicted), facts made from the completion event,
     *                whose command size is -1 ({@link #isStartKnown()})
     * @param elapsedNanos the elapsed time the driver measured
     * @param reply the redacted, owned reply of a succeeded command, or null (failed, or no downstream needed documents)
     * @param replySize the size in bytes of the reply as received, or -1 for a failure
     * @param failure the redacted failure, or null when the command succeeded
     * @param errorCode the error code: of the failure, or of the first write error or write concern error of an {@code ok: 1}
     *                  reply; 0 when there is none
     * @param errorCodeName the error's code name, or null
     * @param cursorId the reply's {@code cursor.id} where it is not 0 and the policy's copy of the reply shows it, else 0
     * @since 0.1
     */
    CompletedCommand(final StartedCommand started, final long elapsedNanos, @Nullable final BsonDocument reply,
                     final int replySize, @Nullable final Throwable failure, final int errorCode,
                     @Nullable final String errorCodeName, final long cursorId) {
        this.started = notNull("started", started);
        if (reply != null && failure != null) {
            throw new IllegalArgumentException("a completed command has a reply or a failure, not both: "
                    + started.getCommandName());
        }
        this.elapsedNanos = elapsedNanos;
        this.content = failure != null ? failure : reply;
        this.replySize = replySize;
        this.errorCode = errorCode;
        this.errorCodeName = errorCodeName;
        this.cursorId = cursorId;
    }

    /**
     * @return the facts of the start; check {@link #isStartKnown()} before relying on its command, collection or fingerprint
     * @since 0.1
     */
    public StartedCommand getStarted() {
        return started;
    }

    /**
     * @return false when the listener no longer held the start (its bounded in-flight table evicted it); then
     *         {@link #getStarted()} carries only the completion event's metadata
     * @since 0.1
     */
    public boolean isStartKnown() {
        // the facts rebuilt from the completion, and only they, have the size -1
        return started.getCommandSize() >= 0;
    }

    /**
     * @return true when the command succeeded (the reply may still report write errors: see {@link #hasError()})
     * @since 0.1
     */
    public boolean isSucceeded() {
        return !(content instanceof Throwable);
    }

    /**
     * @return true when the command failed, or succeeded with a reply that reports {@code writeErrors} or
     *         {@code writeConcernError} under {@code ok: 1}
     * @since 0.1
     */
    public boolean hasError() {
        return content instanceof Throwable || errorCode != 0;
    }

    /**
     * @return the elapsed time in nanoseconds
     * @since 0.1
     */
    public long getElapsedNanos() {
        return elapsedNanos;
    }

    /**
     * @param unit the unit
     * @return the elapsed time in the unit
     * @since 0.1
     */
    public long getElapsedTime(final TimeUnit unit) {
        return unit.convert(elapsedNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * @return the redacted, owned reply, or null for a failure or when no downstream needed reply documents (no plain listener
     *         and no sink whose {@link CommandSink#needsReplyDocuments()} was true for this event)
     * @since 0.1
     */
    @Nullable
    public BsonDocument getReply() {
        return content instanceof BsonDocument ? (BsonDocument) content : null;
    }

    /**
     * The read-only view of {@link #getReply()}: its size, its text as the driver's log shows it, its top-level fields. Made
     * on each call, over the same bytes (no copy).
     *
     * @return the view of the redacted, owned reply, or null when {@link #getReply()} is null
     * @since 0.5
     */
    @Nullable
    public OwnedDocument getReplyView() {
        return StartedCommand.view(getReply());
    }

    /**
     * @return the reply's size in bytes as received, or -1 for a failure
     * @since 0.1
     */
    public int getReplySize() {
        return replySize;
    }

    /**
     * @return the redacted failure, or null when the command succeeded
     * @since 0.1
     */
    @Nullable
    public Throwable getFailure() {
        return content instanceof Throwable ? (Throwable) content : null;
    }

    /**
     * @return the error code of the failure or of the reply's first write error, 0 when there is none
     * @since 0.1
     */
    public int getErrorCode() {
        return errorCode;
    }

    /**
     * @return the error's code name, or null
     * @since 0.1
     */
    @Nullable
    public String getErrorCodeName() {
        return errorCodeName;
    }

    /**
     * The id of the cursor the command left open: the reply's {@code cursor.id} (an {@code int64}) when the command succeeded
     * and the id is not 0. Read from the driver's reply as the listener reads its error fields, without a copy, so a sink can
     * have it without asking for reply documents ({@link CommandSink#needsReplyDocuments()}). Given only where the policy's
     * copy of the reply would show the same id with its type (where the reply rules of the command keep {@code cursor.id}, and
     * not under a {@code maxDocumentBytes} cap, past which only the copy knows whether the id survived): so it tells nothing the
     * redacted reply hides. Under {@link RedactionPolicy#specOnly()} and {@link RedactionPolicy#defaults()} the cursor ids of
     * {@code find}, {@code aggregate}, {@code getMore} and the other cursor replies are given.
     *
     * @return the cursor id, or 0 for a failure, an exhausted cursor, a reply without one, or an id the copy does not show
     * @since 0.4
     */
    public long getCursorId() {
        return cursorId;
    }

    /**
     * @return a new succeeded event with the owned reply (an empty document when none was copied)
     * @throws IllegalStateException if the command failed
     * @since 0.1
     */
    public CommandSucceededEvent toSucceededEvent() {
        if (!isSucceeded()) {
            throw new IllegalStateException("the command failed: " + started.getCommandName());
        }
        BsonDocument reply = getReply();
        return new CommandSucceededEvent(started.getRequestContext(), started.getOperationId(), started.getRequestId(),
                started.getConnectionDescription(), started.getDatabaseName(), started.getCommandName(),
                reply == null ? new BsonDocument() : reply, elapsedNanos);
    }

    /**
     * @return a new failed event with the redacted failure
     * @throws IllegalStateException if the command succeeded
     * @since 0.1
     */
    public CommandFailedEvent toFailedEvent() {
        Throwable failure = getFailure();
        if (failure == null) {
            throw new IllegalStateException("the command succeeded: " + started.getCommandName());
        }
        return new CommandFailedEvent(started.getRequestContext(), started.getOperationId(), started.getRequestId(),
                started.getConnectionDescription(), started.getDatabaseName(), started.getCommandName(), elapsedNanos, failure);
    }

    @Override
    public String toString() {
        return "CompletedCommand{commandName=" + started.getCommandName() + ", succeeded=" + isSucceeded()
                + ", elapsedNanos=" + elapsedNanos + ", replySize=" + replySize + ", errorCode=" + errorCode
                + (cursorId != 0 ? ", cursorId=" + cursorId : "") + "}";
    }
}
