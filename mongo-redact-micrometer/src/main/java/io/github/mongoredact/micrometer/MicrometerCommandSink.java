package io.github.mongoredact.micrometer;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.StartedCommand;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.mongodb.MongoCommandTagsProvider;

import java.util.concurrent.TimeUnit;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * A {@link CommandSink} that records command metrics in a Micrometer {@link MeterRegistry}, with the names and tags of
 * Micrometer's own {@code MongoMetricsCommandListener}, so that existing dashboards keep working.
 *
 * <pre>{@code
 * MicrometerCommandSink metrics = MicrometerCommandSink.builder(registry).build();
 * RedactingCommandListener listener = RedactingCommandListener.builder().addSink(metrics).build();
 * new ListenerCountersMetrics(listener.getCounters()).bindTo(registry);   // the listener's own counters, optional
 * }</pre>
 *
 * <p>Meters:</p>
 * <ul>
 *   <li>{@value #COMMANDS} (timer): tags {@code command}, {@code database}, {@code collection} ({@code unknown} when the
 *   command names none), {@code cluster.id}, {@code server.address}, {@code status} ({@code SUCCESS} / {@code FAILED}). A
 *   reply that reports {@code writeErrors} or {@code writeConcernError} under {@code ok: 1} counts as {@code FAILED} unless
 *   {@link Builder#writeErrorsAsFailures(boolean)} is false.</li>
 *   <li>Opt-in ({@link Builder#sizeSummaries(boolean)}, off by default as Micrometer's listener records none):
 *   {@value #COMMAND_SIZE} and {@value #REPLY_SIZE} (distribution summaries, bytes), the same tags without {@code status}.
 *   Before 0.7 they were always recorded.</li>
 *   <li>{@value #ERRORS} (counter): the same tags without {@code status}, plus {@code error.code} and
 *   {@code error.code.name}, for failures and for replies that report errors.</li>
 *   <li>Opt-in ({@link Builder#fingerprintTag(boolean)}): a {@value #FINGERPRINT_TAG} tag on all of these, this library's
 *   query fingerprint ({@link StartedCommand#getFingerprintHex()}, 16 lower-case hex digits), with at most
 *   {@link Builder#maxFingerprints(int)} distinct values, then {@value #OTHER_FINGERPRINT}. Before 0.6 it was named
 *   {@code query.shape}.</li>
 *   <li>Opt-in ({@link Builder#queryShapeHashTag(boolean)}): a {@value #QUERY_SHAPE_HASH_TAG} tag on all of these, MongoDB's
 *   own {@code queryShapeHash} of a find, aggregate, count or distinct ({@link StartedCommand#getQueryShapeHash()}, 64
 *   upper-case hex digits: the value MongoDB 8.0 and later report for the same find, aggregate and distinct, 8.1 and later
 *   for count), {@value #NO_QUERY_SHAPE} for a command that has none, with at most {@link Builder#maxQueryShapes(int)}
 *   distinct hashes, then {@value #OTHER_QUERY_SHAPE}.</li>
 *   <li>With a {@link MongoCommandTagsProvider} ({@link Builder#commandTagsProvider(MongoCommandTagsProvider)}), the timer
 *   has the provider's tags instead, as Micrometer's listener would give it, and the other meters keep those above.</li>
 * </ul>
 *
 * <p>Cost: meters are resolved once per key and cached in nested maps keyed by the objects the listener already has (server
 * id, then database, collection and command names, then fingerprint, then query shape hash), with a front table that finds
 * the meters of the first keys seen in one step (without the opt-in tags); in steady state recording a command allocates
 * nothing. This sink never asks for documents, nor, unless tagging with them, for the fingerprint or the query shape, nor,
 * unless it records the size summaries, for the command's size: so with it alone the listener copies nothing and reads only
 * each command's top level (its collection) and each reply's size and errors. The size summaries cost two more records per
 * command and, for a command the driver hands over as a plain top level (insert, update, delete), counting its encoded
 * size. The query shape hash tag costs the listener a redacted copy of each find, aggregate, count and distinct
 * and the shaping of it and of the command (the hash is given only where the two agree). A tags provider costs what it
 * allocates, an event per callback and a meter lookup per command, and the copies of commands and replies that it is
 * handed.</p>
 *
 * <p>Threading: thread-safe; called on the driver's threads.</p>
 *
 * @since 0.1
 */
public final class MicrometerCommandSink implements CommandSink {
    /** The timer's name, Micrometer's. */
    public static final String COMMANDS = "mongodb.driver.commands";
    /** The distribution summary of command sizes. */
    public static final String COMMAND_SIZE = "mongodb.driver.commands.command.size";
    /** The distribution summary of reply sizes. */
    public static final String REPLY_SIZE = "mongodb.driver.commands.reply.size";
    /** The counter of errors by code. */
    public static final String ERRORS = "mongodb.driver.commands.errors";
    /**
     * The tag of this library's query fingerprint ({@link Builder#fingerprintTag(boolean)}); {@code query.shape} before 0.6.
     *
     * @since 0.6
     */
    public static final String FINGERPRINT_TAG = "command.fingerprint";
    /** The value of the {@value #FINGERPRINT_TAG} tag once {@link Builder#maxFingerprints(int)} values exist. */
    public static final String OTHER_FINGERPRINT = "other";
    /**
     * The tag of MongoDB's own {@code queryShapeHash} ({@link Builder#queryShapeHashTag(boolean)}).
     *
     * @since 0.6
     */
    public static final String QUERY_SHAPE_HASH_TAG = "query.shape.hash";
    /**
     * The value of the {@value #QUERY_SHAPE_HASH_TAG} tag for a command the listener gives no query shape: not a find,
     * aggregate, count or distinct, or one whose redacted copy hides what the shape would show.
     *
     * @since 0.6
     */
    public static final String NO_QUERY_SHAPE = "none";
    /**
     * The value of the {@value #QUERY_SHAPE_HASH_TAG} tag once {@link Builder#maxQueryShapes(int)} hashes exist.
     *
     * @since 0.6
     */
    public static final String OTHER_QUERY_SHAPE = "other";

    private final MeterRegistry registry;
    private final boolean fingerprintTag;
    private final boolean queryShapeHashTag;
    private final boolean writeErrorsAsFailures;
    private final boolean sizeSummaries;
    @Nullable
    private final ProvidedTagsTimer providedTags;
    private final MeterKeys keys;

    private MicrometerCommandSink(final Builder builder) {
        this.registry = builder.registry;
        this.fingerprintTag = builder.fingerprintTag;
        this.queryShapeHashTag = builder.queryShapeHashTag;
        this.writeErrorsAsFailures = builder.writeErrorsAsFailures;
        this.sizeSummaries = builder.sizeSummaries;
        this.keys = new MeterKeys(registry, builder.tags, fingerprintTag, builder.maxFingerprints, queryShapeHashTag,
                builder.maxQueryShapes);
        this.providedTags = builder.tagsProvider == null ? null
                : new ProvidedTagsTimer(builder.registry, builder.tags, builder.tagsProvider);
    }

    /**
     * @param registry the registry to record in
     * @return a new builder
     * @since 0.1
     */
    public static Builder builder(final MeterRegistry registry) {
        return new Builder(registry);
    }

    /**
     * @return false, unless a {@link MongoCommandTagsProvider} is to be handed the redacted command and reply
     * @since 0.1
     */
    @Override
    public boolean needsDocuments() {
        return providedTags != null;
    }

    /**
     * Calls the tags provider's {@code commandStarted}, if there is one, with an owned event of the redacted command.
     *
     * @param command the started command
     * @since 0.6
     */
    @Override
    public void started(final StartedCommand command) {
        if (providedTags != null) {
            providedTags.started(command);
        }
    }

    /**
     * @return whether the meters are tagged with the fingerprint ({@link Builder#fingerprintTag(boolean)}); off by default,
     *         so that metrics alone never pay for the walk that computes it
     * @since 0.2
     */
    @Override
    public boolean needsFingerprint() {
        return fingerprintTag;
    }

    /**
     * @return whether the meters are tagged with MongoDB's query shape hash ({@link Builder#queryShapeHashTag(boolean)}); off
     *         by default, so that metrics alone never pay for the copy and the shaping it takes
     * @since 0.6
     */
    @Override
    public boolean needsQueryShape() {
        return queryShapeHashTag;
    }

    /**
     * @return whether the size summaries are recorded ({@link Builder#sizeSummaries(boolean)}); off by default, so that
     *         metrics alone never pay for counting a command's size
     * @since 0.7
     */
    @Override
    public boolean needsCommandSize() {
        return sizeSummaries;
    }

    /**
     * Records the command: its time under {@code status=FAILED} when it failed, or when its reply reported errors and
     * {@link Builder#writeErrorsAsFailures(boolean)} is on (with a tags provider: under the provider's tags); its sizes, with
     * {@link Builder#sizeSummaries(boolean)}; its error code.
     *
     * @param command the completed command
     */
    @Override
    public void completed(final CompletedCommand command) {
        boolean failed = command.hasError() && (writeErrorsAsFailures || !command.isSucceeded());
        CommandMeters meters = keys.meters(command.getStarted());
        if (providedTags != null) {
            providedTags.record(command);
        } else if (failed) {
            meters.failed().record(command.getElapsedNanos(), TimeUnit.NANOSECONDS);
        } else {
            meters.succeeded().record(command.getElapsedNanos(), TimeUnit.NANOSECONDS);
        }
        if (sizeSummaries) {
            int commandSize = command.getStarted().getCommandSize();
            if (commandSize > 0) {
                meters.commandSize().record(commandSize);
            }
            if (command.getReplySize() > 0) {
                meters.replySize().record(command.getReplySize());
            }
        }
        if (command.hasError()) {
            meters.errors(command.getErrorCode(), command.getErrorCodeName()).increment();
        }
    }

    /**
     * @return the registry
     * @since 0.1
     */
    public MeterRegistry getRegistry() {
        return registry;
    }

    /**
     * @return the provider of the timer's tags, or null when the timer has this sink's own
     * @since 0.6
     */
    @Nullable
    public MongoCommandTagsProvider getCommandTagsProvider() {
        return providedTags == null ? null : providedTags.provider();
    }

    @Override
    public String toString() {
        return "MicrometerCommandSink{registry=" + registry.getClass().getSimpleName() + ", fingerprintTag=" + fingerprintTag
                + ", queryShapeHashTag=" + queryShapeHashTag
                + ", writeErrorsAsFailures=" + writeErrorsAsFailures + ", sizeSummaries=" + sizeSummaries
                + (providedTags == null ? "" : ", commandTagsProvider=" + providedTags) + "}";
    }

    /**
     * Builds a {@link MicrometerCommandSink}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder {
        private final MeterRegistry registry;
        private Tags tags = Tags.empty();
        private boolean fingerprintTag;
        private int maxFingerprints = 1000;
        private boolean queryShapeHashTag;
        private int maxQueryShapes = 1000;
        private boolean writeErrorsAsFailures = true;
        private boolean sizeSummaries;
        @Nullable
        private MongoCommandTagsProvider tagsProvider;

        private Builder(final MeterRegistry registry) {
            this.registry = notNull("registry", registry);
        }

        /**
         * @param tags tags added to every meter of this sink
         * @return this
         * @since 0.1
         */
        public Builder tags(final Iterable<Tag> tags) {
            this.tags = Tags.of(notNull("tags", tags));
            return this;
        }

        /**
         * @param fingerprintTag whether to tag meters with this library's query fingerprint
         *                       ({@value MicrometerCommandSink#FINGERPRINT_TAG}, {@code query.shape} before 0.6); false if
         *                       not set
         * @return this
         * @since 0.1
         */
        public Builder fingerprintTag(final boolean fingerprintTag) {
            this.fingerprintTag = fingerprintTag;
            return this;
        }

        /**
         * @param maxFingerprints the most distinct {@value MicrometerCommandSink#FINGERPRINT_TAG} values, 1 or more (1000 if
         *                        not set); later fingerprints are tagged {@value MicrometerCommandSink#OTHER_FINGERPRINT}
         * @return this
         * @since 0.1
         */
        public Builder maxFingerprints(final int maxFingerprints) {
            if (maxFingerprints < 1) {
                throw new IllegalArgumentException("maxFingerprints must be 1 or more, was " + maxFingerprints);
            }
            this.maxFingerprints = maxFingerprints;
            return this;
        }

        /**
         * Tags every meter with MongoDB's own {@code queryShapeHash} of the command
         * ({@value MicrometerCommandSink#QUERY_SHAPE_HASH_TAG}), as the server writes it into its slow-query log, its
         * profiler, {@code $queryStats} and {@code explain}, so that the meters join the server's data:
         * {@value MicrometerCommandSink#NO_QUERY_SHAPE} for a command the listener gives no shape (see
         * {@link StartedCommand#getQueryShapeHash()}). With it on the sink asks the listener for the query shape
         * ({@link CommandSink#needsQueryShape()}), which takes a redacted copy of each find, aggregate, count and distinct.
         *
         * @param queryShapeHashTag whether to tag meters with the query shape hash; false if not set
         * @return this
         * @since 0.6
         */
        public Builder queryShapeHashTag(final boolean queryShapeHashTag) {
            this.queryShapeHashTag = queryShapeHashTag;
            return this;
        }

        /**
         * @param maxQueryShapes the most distinct hashes the {@value MicrometerCommandSink#QUERY_SHAPE_HASH_TAG} tag takes, 1 or
         *                       more (1000 if not set); the commands of later shapes are tagged
         *                       {@value MicrometerCommandSink#OTHER_QUERY_SHAPE} (and counted there)
         * @return this
         * @since 0.6
         */
        public Builder maxQueryShapes(final int maxQueryShapes) {
            if (maxQueryShapes < 1) {
                throw new IllegalArgumentException("maxQueryShapes must be 1 or more, was " + maxQueryShapes);
            }
            this.maxQueryShapes = maxQueryShapes;
            return this;
        }

        /**
         * @param writeErrorsAsFailures whether a reply that reports write errors or a write concern error under {@code ok: 1}
         *                              is timed with {@code status=FAILED}; true if not set (Micrometer's own listener
         *                              counts them as {@code SUCCESS}). They are counted in
         *                              {@value MicrometerCommandSink#ERRORS} either way.
         * @return this
         * @since 0.1
         */
        public Builder writeErrorsAsFailures(final boolean writeErrorsAsFailures) {
            this.writeErrorsAsFailures = writeErrorsAsFailures;
            return this;
        }

        /**
         * Records the sizes of commands and replies in the distribution summaries {@value MicrometerCommandSink#COMMAND_SIZE}
         * and {@value MicrometerCommandSink#REPLY_SIZE} (bytes, tagged as the timer without {@code status}). Off by default,
         * as Micrometer's own listener records none: they cost two more records per command and more series per key, and
         * the sink then asks the listener for each command's size ({@link CommandSink#needsCommandSize()}), which for a plain
         * top level (an insert, update or delete with its document sequences) is counted. Always on before 0.7.
         *
         * @param sizeSummaries whether to record the size summaries; false if not set
         * @return this
         * @since 0.7
         */
        public Builder sizeSummaries(final boolean sizeSummaries) {
            this.sizeSummaries = sizeSummaries;
            return this;
        }

        /**
         * Tags the timer {@value MicrometerCommandSink#COMMANDS} as Micrometer's own {@code MongoMetricsCommandListener} does
         * with this provider: its {@code commandStarted} is called at each start, and the timer has the tags its
         * {@code commandTags} gives at each completion (and those of {@link #tags(Iterable)}), nothing else, so the status and
         * collection tags are the provider's. The provider is handed new events of the redacted, owned command, reply and
         * failure, never the driver's, so the sink asks the listener for those copies while it has a provider. The size
         * summaries and the error counter keep this sink's tags.
         *
         * @param provider the provider, or null for this sink's own tags (the default)
         * @return this
         * @since 0.6
         */
        public Builder commandTagsProvider(@Nullable final MongoCommandTagsProvider provider) {
            this.tagsProvider = provider;
            return this;
        }

        /**
         * @return the sink
         * @since 0.1
         */
        public MicrometerCommandSink build() {
            return new MicrometerCommandSink(this);
        }
    }
}
