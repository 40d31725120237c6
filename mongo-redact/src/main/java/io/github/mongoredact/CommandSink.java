package io.github.mongoredact;

/**
 * A consumer of the owned, redacted events of a {@link RedactingCommandListener}, with richer callbacks than a plain
 * {@code com.mongodb.event.CommandListener}: the correlated start and completion, the collection, the query-shape fingerprint,
 * sizes and error codes.
 *
 * <p>Register a sink with {@link RedactingCommandListener.Builder#addSink(CommandSink)}. A sink is not a
 * {@code CommandListener} on purpose: it cannot be handed to {@code MongoClientSettings.Builder.addCommandListener}, where it
 * would receive the driver's borrowed events and record nothing.</p>
 *
 * <p>Threading: the callbacks run on the driver's thread, concurrently for different connections. A sink must not block; one
 * that does slow work wraps itself in {@link io.github.mongoredact.handoff.HandOffSink}. Exceptions thrown by a sink are
 * caught, counted and logged by the listener and never reach the driver.</p>
 *
 * <p>Lifetime: the {@link StartedCommand} and {@link CompletedCommand} handed to a sink are immutable and own all their data; a
 * sink may keep them forever and read them from any thread.</p>
 *
 * @since 0.1
 */
public interface CommandSink {

    /**
     * Whether this sink reads {@link StartedCommand#getCommand()} or {@link CompletedCommand#getReply()} right now. When no
     * downstream needs documents, the listener does not copy them, and those methods return {@code null}. Called once per
     * event, so a sink may answer from a cheap check such as its logger's level. It decides the copy of the started command;
     * the copy of the reply is decided by {@link #needsReplyDocuments()}, which answers the same unless the sink says
     * otherwise.
     *
     * @return true if the owned documents must be made for the next event
     * @since 0.1
     */
    default boolean needsDocuments() {
        return true;
    }

    /**
     * Whether this sink reads {@link CompletedCommand#getReply()} right now. The listener copies (and redacts) a reply only when
     * a plain downstream listener or a sink needs reply documents; otherwise {@code getReply()} returns {@code null}, while the
     * facts read from the reply without a copy ({@link CompletedCommand#getReplySize()}, the error code,
     * {@link CompletedCommand#getCursorId()}) are still given. By default what {@link #needsDocuments()} answers, so that a
     * sink written before this method keeps its replies; a sink that reads the started command but not the reply answers
     * false. Called once per succeeded event, so a sink may answer from a cheap check.
     *
     * @return true if the owned reply must be made for the next succeeded event
     * @since 0.4
     */
    default boolean needsReplyDocuments() {
        return needsDocuments();
    }

    /**
     * Whether this sink reads {@link StartedCommand#getFingerprint()} right now. When no sink does, the listener does not
     * compute the query-shape fingerprint (the walk over the command's structure that it takes), and the started commands
     * carry 0. True unless a sink says otherwise, so that a sink written before this method keeps its fingerprints. Called
     * once per started event, so a sink may answer from a cheap check. When no sink reads documents nor fingerprints (metrics
     * alone), nor the query shape of a command the server shapes ({@link #needsQueryShape()}), the listener reads only the
     * command's top level: its collection (first field, or getMore's {@code collection}) and its size, from the driver's
     * buffers in O(1).
     *
     * @return true if the fingerprint must be computed for the next started event
     * @since 0.2
     */
    default boolean needsFingerprint() {
        return true;
    }

    /**
     * Whether this sink reads {@link StartedCommand#getQueryShape()} or {@link StartedCommand#getQueryShapeHash()} right now:
     * MongoDB's own query shape of a {@code find}, {@code aggregate}, {@code count} or {@code distinct} and its
     * {@code queryShapeHash}, as the server writes them into its slow-query log, profiler, {@code $queryStats} and
     * {@code explain}. Computed only when a sink asks, and only with the redacted copy of the command: the listener shapes the
     * command and its copy and gives the shape only where the two agree, so that it tells nothing the copy hides. False unless
     * a sink says otherwise. Called once per started event, so a sink may answer from a cheap check.
     *
     * @return true if the query shape must be computed for the next started event
     * @since 0.6
     */
    default boolean needsQueryShape() {
        return false;
    }

    /**
     * Whether this sink reads {@link StartedCommand#getCommandSize()} right now. A command the driver hands over as bytes has
     * its size for free; a plain top level (an insert, update or delete with its document sequences) is counted, encoded size
     * by encoded size, and the listener does that only when a sink reads the size or a copy is made anyway. When no sink does
     * and no copy is made, such a command's size is 0. True unless a sink says otherwise, so that a sink written before this
     * method keeps its sizes. Called once per started event, so a sink may answer from a cheap check.
     *
     * @return true if the size of the next started command must be known
     * @since 0.7
     */
    default boolean needsCommandSize() {
        return true;
    }

    /**
     * A command was started.
     *
     * @param command the owned facts of the started command
     * @since 0.1
     */
    default void started(final StartedCommand command) {
    }

    /**
     * A command succeeded or failed.
     *
     * @param command the owned facts of the completed command, with those of its start
     * @since 0.1
     */
    default void completed(final CompletedCommand command) {
    }
}
