package io.github.mongoredact.internal.event;

import com.mongodb.event.CommandStartedEvent;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.shape.QueryShape;
import org.bson.BsonDocument;

/**
 * Makes the public value types, whose constructors are not API. Implemented in the API package by a package-private class,
 * which the listener hands to its {@link CommandProcessor}: so only the listener's own pipeline builds these facts, and the
 * value types need no public constructor. The types are parameters, so that this package uses none of the API's.
 *
 * @param <S> the facts of a started command
 * @param <C> the facts of a completed command
 */
public interface CommandFacts<S, C> {

    /**
     * @param event the started event whose metadata is taken (its command is not read)
     * @param command the redacted, owned command, or null when no copy was made
     * @param collectionName the collection the command names, or null
     * @param fingerprint the query-shape fingerprint of the redacted command
     * @param commandSize the size in bytes of the command as the driver sent it, or -1 when unknown
     * @param redactedBySpec whether the command was one of the spec's sensitive commands
     * @param cursorId the cursor id of a {@code getMore} where its copy would show it, else 0
     * @param queryShape the server's query shape of the command where a sink asked for it and its copy shows it, else null
     * @return the facts of a started command
     */
    S started(CommandStartedEvent event, @Nullable BsonDocument command, @Nullable String collectionName,
              long fingerprint, int commandSize, boolean redactedBySpec, long cursorId, @Nullable QueryShape queryShape);

    /**
     * @param started the facts of a start, as {@link #started} made them
     * @return whether that command was one of the spec's sensitive commands
     */
    boolean isRedactedBySpec(S started);

    /**
     * @param started the facts of the start, or those rebuilt from the completion when the start was not tracked (their
     *                command size -1)
     * @param elapsedNanos the elapsed time the driver measured
     * @param reply the redacted, owned reply, or null
     * @param replyFacts what was read from the reply without a copy: taken out during the call
     * @return the facts of a command that succeeded
     */
    C succeeded(S started, long elapsedNanos, @Nullable BsonDocument reply, ReplyFacts replyFacts);

    /**
     * @param started the facts of the start, or those rebuilt from the completion when the start was not tracked (their
     *                command size -1)
     * @param elapsedNanos the elapsed time the driver measured
     * @param failure the redacted failure
     * @param errorCode the error code, 0 when there is none
     * @param errorCodeName the error's code name, or null
     * @return the facts of a command that failed
     */
    C failed(S started, long elapsedNanos, Throwable failure, int errorCode, @Nullable String errorCodeName);
}
