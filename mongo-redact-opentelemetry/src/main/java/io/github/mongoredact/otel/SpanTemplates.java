package io.github.mongoredact.otel;

import com.mongodb.ServerAddress;
import com.mongodb.UnixServerAddress;
import com.mongodb.connection.ServerId;
import com.mongodb.lang.Nullable;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the command spans of one server, database, collection and command name share ({@link SpanTemplate}: the attributes
 * that depend only on those, and the query texts of that kind of command), made once per key and cached in nested maps keyed
 * by the objects the listener already holds, so that a span in steady state takes them in one call without building anything.
 * Bounded: the first {@value #MAX_KINDS} kinds an application uses are kept (a few more where threads make new kinds at the
 * same moment), and a span of a later kind gets a template made for it alone, counted ({@link #notKept()}), so that
 * collections named at run time (one per tenant, per day) cost a template per span rather than memory without end. Of the
 * kinds kept, the first {@value #MAX_KINDS_REMEMBERING_TEXTS} remember query texts (two each, of at most 512 shown bytes),
 * the later ones render every text. Thread-safe.
 */
final class SpanTemplates {
    /** The kinds of command (server, database, collection, command name) whose query texts are remembered, at most. */
    static final int MAX_KINDS_REMEMBERING_TEXTS = 1024;
    /** The kinds of command whose templates are kept, at most (give or take the threads making one at the same moment). */
    static final int MAX_KINDS = 4096;
    private static final String ADMIN = "admin";
    private static final String NO_COLLECTION = "";
    private final ConcurrentHashMap<ServerId, Level> servers = new ConcurrentHashMap<>();
    private final AtomicInteger kept = new AtomicInteger();
    private final LongAdder notKept = new LongAdder();
    private final int queryTextMaxLength;
    private final SpanNaming naming;
    /** The template found or made last: a run of one kind of command takes it without a map read. */
    @Nullable
    private SpanTemplate last;

    /**
     * @param queryTextMaxLength the maximum length of the query text, 0 when it is off
     * @param naming the form of the span names and summaries
     */
    SpanTemplates(final int queryTextMaxLength, final SpanNaming naming) {
        this.queryTextMaxLength = queryTextMaxLength;
        this.naming = naming;
    }

    /**
     * @param collection the collection the command names, or null
     * @return the cached template; its attributes: system, namespace, collection (not on {@code admin}), command name,
     *         operation name, query summary, server address and port, network transport
     */
    SpanTemplate of(final ServerId serverId, final String database, @Nullable final String collection, final String command) {
        String effective = collection == null || ADMIN.equals(database) ? NO_COLLECTION : collection;
        SpanTemplate known = last;
        if (known != null && known.is(serverId, database, effective, command)) {
            return known;
        }
        Level byDatabase = servers.get(serverId);
        Level byCollection = byDatabase == null ? null : byDatabase.next.get(database);
        Level byCommand = byCollection == null ? null : byCollection.next.get(effective);
        SpanTemplate template = byCommand == null ? null : byCommand.templates.get(command);
        if (template != null) {
            last = template;
            return template;
        }
        if (kept.get() >= MAX_KINDS) {
            // past the bound: made for this span alone (its texts rendered, not remembered), and counted
            notKept.increment();
            return make(new SpanTemplate.Kind(serverId, database, effective, command), false);
        }
        Level level = servers.computeIfAbsent(serverId, id -> new Level()).next(database).next(effective);
        SpanTemplate made = level.templates.computeIfAbsent(command, name -> {
            // the first kinds kept are the ones that remember their texts (when the text is on)
            int nth = kept.incrementAndGet();
            return make(new SpanTemplate.Kind(serverId, database, effective, name), nth <= MAX_KINDS_REMEMBERING_TEXTS);
        });
        last = made;
        return made;
    }

    /** @return the kinds whose templates are kept */
    int kept() {
        return kept.get();
    }

    /** @return the spans that got a template made for them alone, their kind being past {@value #MAX_KINDS} */
    long notKept() {
        return notKept.sum();
    }

    private SpanTemplate make(final SpanTemplate.Kind kind, final boolean remembersTexts) {
        ServerAddress address = kind.serverId.getAddress();
        String summary = QuerySummary.of(naming, kind.command, kind.database, kind.collection);
        AttributesBuilder builder = Attributes.builder()
                .put(SpanKeys.SYSTEM, "mongodb")
                .put(SpanKeys.NAMESPACE, kind.database)
                .put(SpanKeys.COMMAND_NAME, kind.command)
                .put(SpanKeys.OPERATION_NAME, kind.command)
                .put(SpanKeys.QUERY_SUMMARY, summary)
                .put(SpanKeys.SERVER_ADDRESS, address.getHost())
                .put(SpanKeys.SERVER_PORT, (long) address.getPort())
                .put(SpanKeys.NETWORK_TRANSPORT, address instanceof UnixServerAddress ? "unix" : "tcp");
        if (!kind.collection.isEmpty()) {
            builder.put(SpanKeys.COLLECTION, kind.collection);
        }
        String name = naming == SpanNaming.DRIVER_SPECIFICATION ? kind.command : summary;
        return new SpanTemplate(kind, builder.build(), name, summary, queryTextMaxLength, remembersTexts);
    }

    /** One level of the key: a name to the next level; at the last level, the command names to their templates. */
    private static final class Level {
        private final ConcurrentHashMap<String, Level> next = new ConcurrentHashMap<>();
        final ConcurrentHashMap<String, SpanTemplate> templates = new ConcurrentHashMap<>();

        Level next(final String name) {
            return next.computeIfAbsent(name, n -> new Level());
        }
    }
}
