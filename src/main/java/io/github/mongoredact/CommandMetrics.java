package io.github.mongoredact;

import com.mongodb.lang.Nullable;

/**
 * The small interface between the listener and a metrics backend: one call per completed command with the facts a backend
 * turns into meters, resolved once here so that every backend names things the same way. The Micrometer backend is
 * {@link io.github.mongoredact.micrometer.MicrometerCommandSink}; another library plugs in by implementing this interface and
 * registering {@link #asSink(CommandMetrics)} with {@link RedactingCommandListener.Builder#addListener}.
 *
 * <p>Threading: {@link #record} is called on the driver's threads, concurrently; it must not block and, in steady state,
 * should not allocate. Its arguments are owned and may be kept.</p>
 *
 * @since 0.1
 */
public interface CommandMetrics {

    /** The collection value when a command names none, as Micrometer's own command listener has it. */
    String UNKNOWN_COLLECTION = "unknown";

    /**
     * Records a completed command.
     *
     * @param command the completed command; its documents are null (metrics never ask for them)
     * @param collection the collection, resolved by {@link #collectionOf(StartedCommand)}; never null
     * @param failed whether to count it as failed: the command failed, or its reply reported write errors or a write
     *               concern error under {@code ok: 1} ({@link CompletedCommand#hasError()})
     * @since 0.1
     */
    void record(CompletedCommand command, String collection, boolean failed);

    /**
     * Makes the listener's counters visible through this backend, if it can. Does nothing by default.
     *
     * @param counters the listener's live counters
     * @since 0.1
     */
    default void bindCounters(final ListenerCounters counters) {
    }

    /**
     * The collection of a command as Micrometer's {@code MongoMetricsCommandListener} names it: for the commands whose first
     * field names their collection (aggregate, count, distinct, mapReduce, geoSearch, delete, find, findAndModify, insert,
     * update, collMod, compact, convertToCapped, create, createIndexes, drop, dropIndexes, killCursors, listIndexes, reIndex),
     * that value trimmed; for {@code getMore}, its {@code collection} field; otherwise {@value #UNKNOWN_COLLECTION}.
     * Allocation-free when the name has no surrounding spaces.
     *
     * @param started the started command
     * @return the collection, never null
     * @since 0.1
     */
    static String collectionOf(final StartedCommand started) {
        String commandName = started.getCommandName();
        String name = null;
        if (MetricsNames.namesCollectionFirst(commandName) || "getMore".equals(commandName)) {
            name = started.getCollectionName();
            if (name == null && started.getCommand() != null) {
                name = MetricsNames.collectionField(started.getCommand());
            }
        }
        return nonEmptyTrimmed(name);
    }

    /**
     * @param metrics the backend
     * @return a sink that feeds the backend: it never asks for documents
     * @since 0.1
     */
    static CommandSink asSink(final CommandMetrics metrics) {
        return new MetricsNames.Sink(metrics);
    }

    /** @return the trimmed name, or {@value #UNKNOWN_COLLECTION} when null or blank */
    private static String nonEmptyTrimmed(@Nullable final String name) {
        if (name == null) {
            return UNKNOWN_COLLECTION;
        }
        String trimmed = name.trim();
        return trimmed.isEmpty() ? UNKNOWN_COLLECTION : trimmed;
    }
}
