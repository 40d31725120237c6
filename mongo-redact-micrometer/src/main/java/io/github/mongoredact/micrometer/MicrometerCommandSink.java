package io.github.mongoredact.micrometer;

import com.mongodb.connection.ServerId;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.StartedCommand;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.mongodb.MongoCommandTagsProvider;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

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
 *   <li>{@value #COMMAND_SIZE} and {@value #REPLY_SIZE} (distribution summaries, bytes): the same tags without
 *   {@code status}.</li>
 *   <li>{@value #ERRORS} (counter): the same tags without {@code status}, plus {@code error.code} and
 *   {@code error.code.name}, for failures and for replies that report errors.</li>
 *   <li>Opt-in ({@link Builder#fingerprintTag(boolean)}): a {@code query.shape} tag on all of these, the query-shape
 *   fingerprint as 16 hex digits, with at most {@link Builder#maxFingerprints(int)} distinct values, then {@code other}.</li>
 *   <li>With a {@link MongoCommandTagsProvider} ({@link Builder#commandTagsProvider(MongoCommandTagsProvider)}), the timer
 *   has the provider's tags instead, as Micrometer's listener would give it, and the other meters keep those above.</li>
 * </ul>
 *
 * <p>Cost: meters are resolved once per key and cached in nested maps keyed by the objects the listener already has (server
 * id, then database, collection and command names, then fingerprint), with a front table that finds the meters of the first
 * keys seen in one step; in steady state recording a command allocates nothing. This sink never asks for documents, nor,
 * unless tagging with it, for the fingerprint: so with it alone the listener copies nothing and reads only each command's
 * top level (collection and size) and each reply's size and errors. A tags provider costs what it allocates, an event per
 * callback and a meter lookup per command, and the copies of commands and replies that it is handed.</p>
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
    /** The value of the {@code query.shape} tag once {@link Builder#maxFingerprints(int)} values exist. */
    public static final String OTHER_FINGERPRINT = "other";

    private final MeterRegistry registry;
    private final Tags commonTags;
    private final boolean fingerprintTag;
    private final int maxFingerprints;
    private final boolean writeErrorsAsFailures;
    @Nullable
    private final ProvidedTagsTimer providedTags;
    private final ConcurrentHashMap<ServerId, ByName> servers = new ConcurrentHashMap<>();
    private final AtomicInteger fingerprints = new AtomicInteger();
    /** Without fingerprints: the meters of the keys seen first, found in one step. */
    private final RecentKeys<CommandMeters> recent = new RecentKeys<>();

    private MicrometerCommandSink(final Builder builder) {
        this.registry = builder.registry;
        this.commonTags = builder.tags;
        this.fingerprintTag = builder.fingerprintTag;
        this.maxFingerprints = builder.maxFingerprints;
        this.writeErrorsAsFailures = builder.writeErrorsAsFailures;
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
     * Records the command: its time under {@code status=FAILED} when it failed, or when its reply reported errors and
     * {@link Builder#writeErrorsAsFailures(boolean)} is on (with a tags provider: under the provider's tags); its sizes;
     * its error code.
     *
     * @param command the completed command
     */
    @Override
    public void completed(final CompletedCommand command) {
        boolean failed = command.hasError() && (writeErrorsAsFailures || !command.isSucceeded());
        CommandMeters meters = meters(command.getStarted());
        if (providedTags != null) {
            providedTags.record(command);
        } else if (failed) {
            meters.failed().record(command.getElapsedNanos(), TimeUnit.NANOSECONDS);
        } else {
            meters.succeeded().record(command.getElapsedNanos(), TimeUnit.NANOSECONDS);
        }
        int commandSize = command.getStarted().getCommandSize();
        if (commandSize > 0) {
            meters.commandSize.record(commandSize);
        }
        if (command.getReplySize() > 0) {
            meters.replySize.record(command.getReplySize());
        }
        if (command.hasError()) {
            meters.errors(command.getErrorCode(), command.getErrorCodeName()).increment();
        }
    }

    /**
     * The cached meters of a command's key; allocation-free once they exist. Without fingerprints the front table is keyed by
     * the collection name the start holds, so that a hit derives no tag: the tag is a function of the command name and that
     * name ({@link CollectionTag#of(String, String)}). A start that holds none is keyed by its tag, which that function maps to
     * itself.
     */
    private CommandMeters meters(final StartedCommand started) {
        ServerId serverId = started.getConnectionDescription().getConnectionId().getServerId();
        if (!fingerprintTag) {
            String name = started.getCollectionName();
            String key = name != null ? name : CollectionTag.of(started);
            CommandMeters recent = this.recent.get(serverId, started.getDatabaseName(), key, started.getCommandName());
            if (recent != null) {
                return recent;
            }
            CommandMeters meters = lastLevel(serverId, started, name != null ? CollectionTag.of(started) : key).meters(this);
            this.recent.put(serverId, started.getDatabaseName(), key, started.getCommandName(), meters);
            return meters;
        }
        ByName byFingerprint = lastLevel(serverId, started, CollectionTag.of(started));
        long fingerprint = started.getFingerprint();
        CommandMeters meters = byFingerprint.fingerprints.get(fingerprint);
        if (meters != null) {
            return meters;
        }
        if (fingerprints.get() >= maxFingerprints) {
            return byFingerprint.other(this);
        }
        return byFingerprint.fingerprints.computeIfAbsent(fingerprint, f -> {
            fingerprints.incrementAndGet();
            return new CommandMeters(registry, byFingerprint.tags.and("query.shape", started.getFingerprintHex()));
        });
    }

    /** The level of the nested maps that holds the meters of the key (or, with fingerprints, those of each fingerprint). */
    private ByName lastLevel(final ServerId serverId, final StartedCommand started, final String collection) {
        ByName byDatabase = servers.get(serverId);
        if (byDatabase == null) {
            byDatabase = servers.computeIfAbsent(serverId, id -> new ByName(serverTags(id)));
        }
        ByName byCollection = byDatabase.next(started.getDatabaseName(), "database");
        ByName byCommand = byCollection.next(collection, "collection");
        return byCommand.next(started.getCommandName(), "command");
    }

    private Tags serverTags(final ServerId serverId) {
        return commonTags.and(Tag.of("cluster.id", serverId.getClusterId().getValue()),
                Tag.of("server.address", serverId.getAddress().toString()));
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
                + ", writeErrorsAsFailures=" + writeErrorsAsFailures
                + (providedTags == null ? "" : ", commandTagsProvider=" + providedTags) + "}";
    }

    /** One level of the key: names to the next level, or, at the last level, the meters. */
    private static final class ByName {
        final Tags tags;
        private final ConcurrentHashMap<String, ByName> next = new ConcurrentHashMap<>();
        final LongTable<CommandMeters> fingerprints = new LongTable<>();
        private volatile CommandMeters meters;
        private volatile CommandMeters other;

        ByName(final Tags tags) {
            this.tags = tags;
        }

        ByName next(final String name, final String tagKey) {
            ByName level = next.get(name);
            if (level == null) {
                level = next.computeIfAbsent(name, n -> new ByName(tags.and(tagKey, n)));
            }
            return level;
        }

        CommandMeters meters(final MicrometerCommandSink sink) {
            CommandMeters result = meters;
            if (result == null) {
                synchronized (this) {
                    result = meters;
                    if (result == null) {
                        result = new CommandMeters(sink.registry, tags);
                        meters = result;
                    }
                }
            }
            return result;
        }

        CommandMeters other(final MicrometerCommandSink sink) {
            CommandMeters result = other;
            if (result == null) {
                synchronized (this) {
                    result = other;
                    if (result == null) {
                        result = new CommandMeters(sink.registry, tags.and("query.shape", OTHER_FINGERPRINT));
                        other = result;
                    }
                }
            }
            return result;
        }
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
        private boolean writeErrorsAsFailures = true;
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
         * @param fingerprintTag whether to tag meters with the query-shape fingerprint ({@code query.shape}); false if not set
         * @return this
         * @since 0.1
         */
        public Builder fingerprintTag(final boolean fingerprintTag) {
            this.fingerprintTag = fingerprintTag;
            return this;
        }

        /**
         * @param maxFingerprints the most distinct {@code query.shape} values, 1 or more (1000 if not set); later shapes are
         *                        tagged {@value MicrometerCommandSink#OTHER_FINGERPRINT}
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
