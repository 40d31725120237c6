package io.github.mongoredact.micrometer;

import com.mongodb.connection.ServerId;
import io.github.mongoredact.StartedCommand;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static io.github.mongoredact.micrometer.MicrometerCommandSink.FINGERPRINT_TAG;
import static io.github.mongoredact.micrometer.MicrometerCommandSink.NO_QUERY_SHAPE;
import static io.github.mongoredact.micrometer.MicrometerCommandSink.OTHER_FINGERPRINT;
import static io.github.mongoredact.micrometer.MicrometerCommandSink.OTHER_QUERY_SHAPE;
import static io.github.mongoredact.micrometer.MicrometerCommandSink.QUERY_SHAPE_HASH_TAG;

/**
 * The meters of a {@link MicrometerCommandSink} by their key: nested {@link KeyLevel}s keyed by the objects the listener
 * already has (server id, then database, collection and command names, then with the opt-in tags the fingerprint and the
 * query shape hash, each bounded), and without the opt-in tags a front table ({@link RecentKeys}) that finds the meters of
 * the first keys seen in one step. Thread-safe; allocation-free once a key's meters exist.
 */
final class MeterKeys {
    private final MeterRegistry registry;
    private final Tags commonTags;
    private final boolean fingerprintTag;
    private final int maxFingerprints;
    private final boolean queryShapeHashTag;
    private final int maxQueryShapes;
    private final ConcurrentHashMap<ServerId, KeyLevel> servers = new ConcurrentHashMap<>();
    private final AtomicInteger fingerprints = new AtomicInteger();
    private final AtomicInteger queryShapes = new AtomicInteger();
    /** Without the opt-in tags: the meters of the keys seen first, found in one step. */
    private final RecentKeys<CommandMeters> recent = new RecentKeys<>();

    MeterKeys(final MeterRegistry registry, final Tags commonTags, final boolean fingerprintTag, final int maxFingerprints,
              final boolean queryShapeHashTag, final int maxQueryShapes) {
        this.registry = registry;
        this.commonTags = commonTags;
        this.fingerprintTag = fingerprintTag;
        this.maxFingerprints = maxFingerprints;
        this.queryShapeHashTag = queryShapeHashTag;
        this.maxQueryShapes = maxQueryShapes;
    }

    /**
     * The cached meters of a command's key; allocation-free once they exist. Without the opt-in tags the front table is keyed
     * by the collection name the start holds, so that a hit derives no tag: the tag is a function of the command name and
     * that name ({@link CollectionTag#of(String, String)}). A start that holds none is keyed by its tag, which that function
     * maps to itself.
     */
    CommandMeters meters(final StartedCommand started) {
        ServerId serverId = started.getConnectionDescription().getConnectionId().getServerId();
        if (!fingerprintTag && !queryShapeHashTag) {
            String name = started.getCollectionName();
            String key = name != null ? name : CollectionTag.of(started);
            CommandMeters recent = this.recent.get(serverId, started.getDatabaseName(), key, started.getCommandName());
            if (recent != null) {
                return recent;
            }
            CommandMeters meters = lastLevel(serverId, started, name != null ? CollectionTag.of(started) : key)
                    .meters(registry);
            this.recent.put(serverId, started.getDatabaseName(), key, started.getCommandName(), meters);
            return meters;
        }
        KeyLevel level = lastLevel(serverId, started, CollectionTag.of(started));
        if (fingerprintTag) {
            level = byFingerprint(level, started);
        }
        if (queryShapeHashTag) {
            level = byQueryShape(level, started);
        }
        return level.meters(registry);
    }

    /** The level of the start's fingerprint: at most {@code maxFingerprints} of them, then {@value #OTHER_FINGERPRINT}. */
    private KeyLevel byFingerprint(final KeyLevel level, final StartedCommand started) {
        long fingerprint = started.getFingerprint();
        KeyLevel next = level.fingerprints.get(fingerprint);
        if (next != null) {
            return next;
        }
        if (fingerprints.get() >= maxFingerprints) {
            return level.next(OTHER_FINGERPRINT, FINGERPRINT_TAG);
        }
        return level.fingerprint(fingerprint, started.getFingerprintHex(), FINGERPRINT_TAG, fingerprints);
    }

    /**
     * The level of the start's query shape hash: {@value #NO_QUERY_SHAPE} where it has none, at most {@code maxQueryShapes}
     * hashes, then {@value #OTHER_QUERY_SHAPE}. A hash is hex digits, never one of those two words.
     */
    private KeyLevel byQueryShape(final KeyLevel level, final StartedCommand started) {
        String hash = started.getQueryShapeHash();
        if (hash == null) {
            return level.next(NO_QUERY_SHAPE, QUERY_SHAPE_HASH_TAG);
        }
        KeyLevel next = level.existing(hash);
        if (next != null) {
            return next;
        }
        if (queryShapes.get() >= maxQueryShapes) {
            return level.next(OTHER_QUERY_SHAPE, QUERY_SHAPE_HASH_TAG);
        }
        return level.next(hash, QUERY_SHAPE_HASH_TAG, queryShapes);
    }

    /** The level of the key's command name: its meters, or the levels of the opt-in tags below it. */
    private KeyLevel lastLevel(final ServerId serverId, final StartedCommand started, final String collection) {
        KeyLevel byDatabase = servers.get(serverId);
        if (byDatabase == null) {
            byDatabase = servers.computeIfAbsent(serverId, id -> new KeyLevel(serverTags(id)));
        }
        KeyLevel byCollection = byDatabase.next(started.getDatabaseName(), "database");
        KeyLevel byCommand = byCollection.next(collection, "collection");
        return byCommand.next(started.getCommandName(), "command");
    }

    private Tags serverTags(final ServerId serverId) {
        return commonTags.and(Tag.of("cluster.id", serverId.getClusterId().getValue()),
                Tag.of("server.address", serverId.getAddress().toString()));
    }
}
