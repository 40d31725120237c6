package io.github.mongoredact.otel;

import com.mongodb.ServerAddress;
import com.mongodb.connection.ServerId;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.StartedCommand;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The metric attributes of each kind of command ({@link MetricKind}), made once per server, database, collection and
 * command name and found again in nested maps keyed by the objects the listener already holds, so that recording a command
 * in steady state builds nothing. Bounded as the spans' templates are: the first {@value #MAX_KINDS} kinds are kept, a later
 * kind's set is made for its command alone and counted ({@link #notKept()}). The sets: {@code db.system.name},
 * {@code db.namespace}, {@code db.collection.name} (where the command names one, not on {@code admin}),
 * {@code db.operation.name}, {@code server.address}, {@code server.port}. Thread-safe.
 */
final class MetricKinds {
    /** The kinds of command whose attribute sets are kept, at most (give or take threads making one at the same moment). */
    static final int MAX_KINDS = 4096;
    private static final String ADMIN = "admin";
    private static final String NO_COLLECTION = "";
    private final ConcurrentHashMap<ServerId, ConcurrentHashMap<String, ConcurrentHashMap<String,
            ConcurrentHashMap<String, MetricKind>>>> servers = new ConcurrentHashMap<>();
    private final AtomicInteger kept = new AtomicInteger();
    private final LongAdder notKept = new LongAdder();

    /** @return the kind of the started command, kept or (past the bound) made for it alone */
    MetricKind of(final StartedCommand command) {
        ServerId serverId = command.getConnectionDescription().getConnectionId().getServerId();
        String database = command.getDatabaseName();
        String collection = collection(database, command.getCollectionName());
        String name = command.getCommandName();
        ConcurrentHashMap<String, ConcurrentHashMap<String, ConcurrentHashMap<String, MetricKind>>> byDatabase =
                servers.get(serverId);
        ConcurrentHashMap<String, ConcurrentHashMap<String, MetricKind>> byCollection =
                byDatabase == null ? null : byDatabase.get(database);
        ConcurrentHashMap<String, MetricKind> byCommand = byCollection == null ? null : byCollection.get(collection);
        MetricKind kind = byCommand == null ? null : byCommand.get(name);
        if (kind != null) {
            return kind;
        }
        if (kept.get() >= MAX_KINDS) {
            notKept.increment();
            return new MetricKind(make(serverId.getAddress(), database, collection, name));
        }
        return servers.computeIfAbsent(serverId, id -> new ConcurrentHashMap<>())
                .computeIfAbsent(database, d -> new ConcurrentHashMap<>())
                .computeIfAbsent(collection, c -> new ConcurrentHashMap<>())
                .computeIfAbsent(name, n -> {
                    kept.incrementAndGet();
                    return new MetricKind(make(serverId.getAddress(), database, collection, n));
                });
    }

    /** @return the commands whose kind came past the bound, their sets made for them alone */
    long notKept() {
        return notKept.sum();
    }

    private static String collection(final String database, @Nullable final String collection) {
        return collection == null || ADMIN.equals(database) ? NO_COLLECTION : collection;
    }

    private static Attributes make(final ServerAddress address, final String database, final String collection,
                                   final String command) {
        AttributesBuilder builder = Attributes.builder()
                .put(SpanKeys.SYSTEM, "mongodb")
                .put(SpanKeys.NAMESPACE, database)
                .put(SpanKeys.OPERATION_NAME, command)
                .put(SpanKeys.SERVER_ADDRESS, address.getHost())
                .put(SpanKeys.SERVER_PORT, (long) address.getPort());
        if (!collection.isEmpty()) {
            builder.put(SpanKeys.COLLECTION, collection);
        }
        return builder.build();
    }
}
