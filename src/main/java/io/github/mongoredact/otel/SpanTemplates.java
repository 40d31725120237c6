package io.github.mongoredact.otel;

import com.mongodb.ServerAddress;
import com.mongodb.UnixServerAddress;
import com.mongodb.connection.ServerId;
import com.mongodb.lang.Nullable;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the command spans of one server, database, collection and command name share ({@link SpanTemplate}: the attributes
 * that depend only on those, and the query texts of that kind of command), made once per key and cached in nested maps keyed
 * by the objects the listener already holds, so that a span in steady state takes them in one call without building anything.
 * Bounded by the keys an application uses; of those, the first {@value #MAX_KINDS_REMEMBERING_TEXTS} remember query texts
 * (two each, of at most 512 shown bytes), the later ones render every text, so that an application with many collections
 * holds at most that many kinds' texts. Thread-safe.
 */
final class SpanTemplates {
    /** The kinds of command (server, database, collection, command name) whose query texts are remembered, at most. */
    static final int MAX_KINDS_REMEMBERING_TEXTS = 1024;
    private static final String ADMIN = "admin";
    private static final String NO_COLLECTION = "";
    private final ConcurrentHashMap<ServerId, Level> servers = new ConcurrentHashMap<>();
    private final AtomicInteger remembering = new AtomicInteger();
    private final int queryTextMaxLength;

    /** @param queryTextMaxLength the maximum length of the query text, 0 when it is off */
    SpanTemplates(final int queryTextMaxLength) {
        this.queryTextMaxLength = queryTextMaxLength;
    }

    /**
     * @param collection the collection the command names, or null
     * @return the cached template; its attributes: system, namespace, collection (not on {@code admin}), command name, query
     *         summary, server address and port, network transport
     */
    SpanTemplate of(final ServerId serverId, final String database, @Nullable final String collection, final String command) {
        Level byDatabase = servers.get(serverId);
        if (byDatabase == null) {
            byDatabase = servers.computeIfAbsent(serverId, id -> new Level());
        }
        String effective = collection == null || ADMIN.equals(database) ? NO_COLLECTION : collection;
        Level byCommand = byDatabase.next(database).next(effective);
        SpanTemplate template = byCommand.templates.get(command);
        if (template == null) {
            template = byCommand.templates.computeIfAbsent(command, name -> new SpanTemplate(
                    make(serverId.getAddress(), database, effective, name), queryTextMaxLength, remembersTexts()));
        }
        return template;
    }

    /** @return whether a new kind may remember its texts: one of the first {@value #MAX_KINDS_REMEMBERING_TEXTS} */
    private boolean remembersTexts() {
        return queryTextMaxLength > 0 && remembering.get() < MAX_KINDS_REMEMBERING_TEXTS
                && remembering.incrementAndGet() <= MAX_KINDS_REMEMBERING_TEXTS;
    }

    private static Attributes make(final ServerAddress address, final String database, final String collection,
                                   final String command) {
        AttributesBuilder builder = Attributes.builder()
                .put(SpanKeys.SYSTEM, "mongodb")
                .put(SpanKeys.NAMESPACE, database)
                .put(SpanKeys.COMMAND_NAME, command)
                .put(SpanKeys.QUERY_SUMMARY, command + " " + database + (collection.isEmpty() ? "" : "." + collection))
                .put(SpanKeys.SERVER_ADDRESS, address.getHost())
                .put(SpanKeys.SERVER_PORT, (long) address.getPort())
                .put(SpanKeys.NETWORK_TRANSPORT, address instanceof UnixServerAddress ? "unix" : "tcp");
        if (!collection.isEmpty()) {
            builder.put(SpanKeys.COLLECTION, collection);
        }
        return builder.build();
    }

    /** One level of the key: a name to the next level; at the last level, the command names to their templates. */
    private static final class Level {
        private final ConcurrentHashMap<String, Level> next = new ConcurrentHashMap<>();
        final ConcurrentHashMap<String, SpanTemplate> templates = new ConcurrentHashMap<>();

        Level next(final String name) {
            Level level = next.get(name);
            if (level == null) {
                level = next.computeIfAbsent(name, n -> new Level());
            }
            return level;
        }
    }
}
