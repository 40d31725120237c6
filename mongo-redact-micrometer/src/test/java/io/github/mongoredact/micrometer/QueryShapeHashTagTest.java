package io.github.mongoredact.micrometer;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Filters;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

import static io.github.mongoredact.EmbeddedServer.tolerate;
import static io.github.mongoredact.micrometer.MicrometerCommandSink.COMMANDS;
import static io.github.mongoredact.micrometer.MicrometerCommandSink.FINGERPRINT_TAG;
import static io.github.mongoredact.micrometer.MicrometerCommandSink.NO_QUERY_SHAPE;
import static io.github.mongoredact.micrometer.MicrometerCommandSink.OTHER_QUERY_SHAPE;
import static io.github.mongoredact.micrometer.MicrometerCommandSink.QUERY_SHAPE_HASH_TAG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The opt-in {@value MicrometerCommandSink#QUERY_SHAPE_HASH_TAG} tag, through the real driver to the embedded server: MongoDB's
 * own {@code queryShapeHash} where the policy's copy shows the shape (the values the server's own tests pin), {@code none}
 * where it hides what the shape would show and for the commands the server does not shape, at most {@code maxQueryShapes}
 * hashes with the later ones counted under {@code other}; and our fingerprint's tag under its own name.
 */
class QueryShapeHashTagTest {
    /** {@code AggCmdShapeTest.StableQueryShapeHashValue} (src/mongo/db/query/query_shape/agg_cmd_shape_test.cpp). */
    private static final String AGGREGATE_HASH = "F5C9B81418515DE73EA3F500F7BBB7AD5ED60D4DD9E5F645825730BC0E633BF2";
    /** {@code ExtractQueryShapeDistinctTest.StableQueryShapeHashValue} (distinct_cmd_shape_test.cpp), no collation. */
    private static final String DISTINCT_HASH = "6885616B1ACD8B4F7FB5C1EB2A17B482EBB8788D63AC033160AA3A848F125DEA";
    /** {@code defaults()} with {@code let} kept: the pinned aggregate's shape shows its variables' names. */
    private static final RedactionPolicy LET_KEPT = RedactionPolicy.builder(RedactionPolicy.defaults()).keep("let").build();

    private static RedactingCommandListener run(final RedactionPolicy policy, final MicrometerCommandSink sink,
                                                final Consumer<MongoClient> workload) {
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addSink(sink).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            workload.accept(server.client(listener));
        }
        assertEquals(0, listener.getCounters().getSinkFailures());
        assertEquals(0, listener.getCounters().getRedactionFailures());
        return listener;
    }

    private static MongoCollection<Document> users(final MongoClient client) {
        return client.getDatabase("shop").getCollection("users");
    }

    private static void pinned(final MongoClient client) {
        MongoCollection<Document> test = client.getDatabase("testDB").getCollection("testColl");
        tolerate(() -> test.aggregate(List.of(Aggregates.match(Filters.eq("x", 3)), Aggregates.limit(2)))
                .let(new Document("x", 4).append("y", "str")).into(new ArrayList<>()));
        MongoCollection<Document> area = client.getDatabase("testdb").getCollection("testcoll");
        tolerate(() -> area.distinct("name", Filters.eq("area", 5), String.class).into(new ArrayList<>()));
    }

    private static long count(final SimpleMeterRegistry registry, final String command, final String hash) {
        Timer timer = registry.find(COMMANDS).tags("command", command, QUERY_SHAPE_HASH_TAG, hash).timer();
        return timer == null ? 0 : timer.count();
    }

    /** @return the values of the tag on every meter of the registry; each meter must have it */
    private static Set<String> values(final SimpleMeterRegistry registry, final String tag) {
        Set<String> values = new TreeSet<>();
        for (Meter meter : registry.getMeters()) {
            String value = meter.getId().getTag(tag);
            assertNotNull(value, tag + " on " + meter.getId());
            values.add(value);
        }
        return values;
    }

    @Test
    void tagsTheServersHashWhereTheCopyShowsTheShapeAndNoneElsewhere() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerCommandSink sink = MicrometerCommandSink.builder(registry).queryShapeHashTag(true).build();
        assertTrue(sink.needsQueryShape());
        assertFalse(sink.needsFingerprint(), "the hash tag alone asks for no fingerprint");
        assertFalse(sink.needsDocuments());
        run(LET_KEPT, sink, client -> {
            pinned(client);
            users(client).insertOne(new Document("email", "a@example.com"));
            users(client).find(Filters.eq("email", "a@example.com")).first();
            users(client).find(Filters.eq("email", "b@example.com")).first();
            // a key that is data: the copy masks it, so the shape, which would show it, is not given
            users(client).find(Filters.exists("prefs.alice@example.com")).first();
        });
        assertEquals(1, count(registry, "aggregate", AGGREGATE_HASH), registry.getMetersAsString());
        assertEquals(1, count(registry, "distinct", DISTINCT_HASH), registry.getMetersAsString());
        assertEquals(1, count(registry, "insert", NO_QUERY_SHAPE), registry.getMetersAsString());
        assertEquals(1, count(registry, "find", NO_QUERY_SHAPE), "the masked key's find: " + registry.getMetersAsString());
        List<Timer> finds = new ArrayList<>(registry.find(COMMANDS).tags("command", "find").timers());
        assertEquals(2, finds.size(), registry.getMetersAsString());
        String hash = finds.stream().map(t -> t.getId().getTag(QUERY_SHAPE_HASH_TAG)).filter(h -> !h.equals(NO_QUERY_SHAPE))
                .findFirst().orElseThrow();
        assertTrue(hash.matches("[0-9A-F]{64}"), hash);
        assertEquals(2, count(registry, "find", hash), "two e-mail addresses, one shape");
        values(registry, QUERY_SHAPE_HASH_TAG);
        assertTrue(registry.find(COMMANDS).tagKeys(FINGERPRINT_TAG).timers().isEmpty(), "no fingerprint tag asked for");
    }

    @Test
    void boundsTheHashesAndCountsTheLaterOnesUnderOther() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        run(RedactionPolicy.defaults(), MicrometerCommandSink.builder(registry).queryShapeHashTag(true).maxQueryShapes(1)
                .build(), client -> {
                    users(client).insertOne(new Document("email", "a@example.com"));
                    users(client).find(Filters.eq("email", "a@example.com")).first();
                    users(client).find(Filters.gt("age", 30)).first();
                    users(client).find(Filters.eq("email", 42)).first();
                    users(client).find(Filters.gt("age", 31)).first();
                });
        Set<String> hashes = values(registry, QUERY_SHAPE_HASH_TAG);
        hashes.remove(NO_QUERY_SHAPE);
        hashes.remove(OTHER_QUERY_SHAPE);
        assertEquals(1, hashes.size(), "one hash, the bound: " + registry.getMetersAsString());
        assertEquals(1, count(registry, "find", hashes.iterator().next()));
        assertEquals(3, count(registry, "find", OTHER_QUERY_SHAPE), "the later shapes are counted: "
                + registry.getMetersAsString());
        assertEquals(1, count(registry, "insert", NO_QUERY_SHAPE), "none is not a hash: it takes no place under the bound");
    }

    @Test
    void theFingerprintHasATagOfItsOwnBesideTheHash() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        run(RedactionPolicy.defaults(), MicrometerCommandSink.builder(registry).fingerprintTag(true).queryShapeHashTag(true)
                .build(), client -> users(client).find(Filters.eq("email", "a@example.com")).first());
        Timer find = registry.find(COMMANDS).tags("command", "find").timer();
        assertNotNull(find, registry.getMetersAsString());
        assertTrue(find.getId().getTag(FINGERPRINT_TAG).matches("[0-9a-f]{16}"), find.getId().toString());
        assertTrue(find.getId().getTag(QUERY_SHAPE_HASH_TAG).matches("[0-9A-F]{64}"), find.getId().toString());
        values(registry, FINGERPRINT_TAG);
        values(registry, QUERY_SHAPE_HASH_TAG);
        assertTrue(registry.find(COMMANDS).tagKeys("query.shape").timers().isEmpty(), "the name before 0.6 is gone");
    }

    @Test
    void theBoundIsOneOrMoreAndTheTagIsOff() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        assertThrows(IllegalArgumentException.class, () -> MicrometerCommandSink.builder(registry).maxQueryShapes(0));
        MicrometerCommandSink plain = MicrometerCommandSink.builder(registry).build();
        assertFalse(plain.needsQueryShape());
        run(RedactionPolicy.defaults(), plain, client -> users(client).find(Filters.eq("email", "a@example.com")).first());
        assertTrue(registry.find(COMMANDS).tagKeys(QUERY_SHAPE_HASH_TAG).timers().isEmpty(), registry.getMetersAsString());
        assertNotNull(registry.find(COMMANDS).tags("command", "find").timer());
    }
}
