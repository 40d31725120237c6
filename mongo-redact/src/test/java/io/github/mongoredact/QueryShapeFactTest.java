package io.github.mongoredact;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Collation;
import com.mongodb.client.model.Filters;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static io.github.mongoredact.EmbeddedServer.tolerate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server's query shape and {@code queryShapeHash} on the started commands a sink asks them for, through the real driver
 * to the embedded server: the hash the server's own tests pin for an aggregate and for distincts, from the commands the
 * driver sends for them; literals of one type share a hash and another type does not; nothing of a value is in the shape;
 * none where the redacted copy hides what the shape would show (a key that is data), none for a sink that does not ask.
 */
class QueryShapeFactTest {
    /** {@code AggCmdShapeTest.StableQueryShapeHashValue} (src/mongo/db/query/query_shape/agg_cmd_shape_test.cpp). */
    private static final String AGGREGATE_HASH = "F5C9B81418515DE73EA3F500F7BBB7AD5ED60D4DD9E5F645825730BC0E633BF2";
    /**
     * {@code ExtractQueryShapeDistinctTest.StableQueryShapeHashValue} (distinct_cmd_shape_test.cpp): query and collation, no
     * query, no collation.
     */
    private static final String DISTINCT_HASH = "344BA27EB45373D8CACF33C7341B317B4E897877D808927683805FF553A7CC42";
    private static final String DISTINCT_NO_QUERY_HASH = "34DA6D26C35E9B941AB800E728F37DE65A43EA372F55E0715C0A91365500DF38";
    private static final String DISTINCT_NO_COLLATION_HASH = "6885616B1ACD8B4F7FB5C1EB2A17B482EBB8788D63AC033160AA3A848F125DEA";
    /**
     * {@code defaults()} with {@code let} and {@code collation} kept, which the shape shows as they are: the names of let's
     * variables and their values (redacted, a {@code "?string"} in an expression could have been a field path,
     * {@code "$x"}, which shapes otherwise) and the collation's locale.
     */
    private static final RedactionPolicy SHAPED_PARTS_KEPT = RedactionPolicy.builder(RedactionPolicy.defaults())
            .keep("let").keep("collation").build();

    /** A sink that asks for the query shape, and keeps its starts. */
    private static final class ShapeSink implements CommandSink {
        final List<StartedCommand> started = new ArrayList<>();
        private final boolean asks;

        ShapeSink(final boolean asks) {
            this.asks = asks;
        }

        @Override
        public boolean needsDocuments() {
            return false;
        }

        @Override
        public boolean needsQueryShape() {
            return asks;
        }

        @Override
        public synchronized void started(final StartedCommand command) {
            started.add(command);
        }

        synchronized List<StartedCommand> named(final String name) {
            return started.stream().filter(c -> c.getCommandName().equals(name)).collect(Collectors.toList());
        }
    }

    private static ShapeSink run(final boolean asks, final java.util.function.Consumer<MongoClient> workload) {
        return run(RedactionPolicy.defaults(), asks, workload);
    }

    private static ShapeSink run(final RedactionPolicy policy, final boolean asks,
                                 final java.util.function.Consumer<MongoClient> workload) {
        ShapeSink sink = new ShapeSink(asks);
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addSink(sink).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            workload.accept(server.client(listener));
        }
        assertEquals(0, listener.getCounters().getRedactionFailures());
        return sink;
    }

    private static void pinnedAggregate(final MongoClient client) {
        MongoCollection<Document> test = client.getDatabase("testDB").getCollection("testColl");
        tolerate(() -> test.aggregate(List.of(Aggregates.match(Filters.eq("x", 3)), Aggregates.limit(2)))
                .let(new Document("x", 4).append("y", "str")).into(new ArrayList<>()));
    }

    private static void pinnedDistincts(final MongoClient client) {
        MongoCollection<Document> area = client.getDatabase("testdb").getCollection("testcoll");
        Collation french = Collation.builder().locale("fr").build();
        tolerate(() -> area.distinct("name", Filters.eq("area", 5), String.class).collation(french).into(new ArrayList<>()));
        tolerate(() -> area.distinct("name", String.class).collation(french).into(new ArrayList<>()));
        tolerate(() -> area.distinct("name", Filters.eq("area", 5), String.class).into(new ArrayList<>()));
    }

    @Test
    void theHashesTheServersOwnTestsPinComeFromTheCommandsTheDriverSends() {
        // defaults() masks the names of let's variables (they can be data): the shape, which shows them, is not given
        StartedCommand masked = run(true, QueryShapeFactTest::pinnedAggregate).named("aggregate").get(0);
        assertNull(masked.getQueryShapeHash(), masked.getQueryShape());
        ShapeSink sink = run(SHAPED_PARTS_KEPT, true, client -> {
            pinnedAggregate(client);
            pinnedDistincts(client);
        });
        StartedCommand aggregate = sink.named("aggregate").get(0);
        assertEquals(AGGREGATE_HASH, aggregate.getQueryShapeHash(), aggregate.getQueryShape());
        List<StartedCommand> distincts = sink.named("distinct");
        assertEquals(3, distincts.size());
        assertEquals(DISTINCT_HASH, distincts.get(0).getQueryShapeHash(), distincts.get(0).getQueryShape());
        assertEquals(DISTINCT_NO_QUERY_HASH, distincts.get(1).getQueryShapeHash(), distincts.get(1).getQueryShape());
        assertEquals(DISTINCT_NO_COLLATION_HASH, distincts.get(2).getQueryShapeHash(), distincts.get(2).getQueryShape());
        // under defaults() the collation's locale is redacted: the distincts that have one get no shape, the other its hash
        List<StartedCommand> underDefaults = run(true, QueryShapeFactTest::pinnedDistincts).named("distinct");
        assertNull(underDefaults.get(0).getQueryShapeHash(), underDefaults.get(0).getQueryShape());
        assertNull(underDefaults.get(1).getQueryShapeHash(), underDefaults.get(1).getQueryShape());
        assertEquals(DISTINCT_NO_COLLATION_HASH, underDefaults.get(2).getQueryShapeHash());
        // the debug shape names types, never the values
        String shape = aggregate.getQueryShape();
        assertTrue(shape.contains("\"?number\"") && shape.contains("\"?string\""), shape);
        assertFalse(shape.contains("str\"") || shape.contains(": 3") || shape.contains(": 4"), shape);
    }

    @Test
    void literalsOfOneTypeShareTheHashAndAnotherTypeDoesNot() {
        ShapeSink sink = run(true, client -> {
            MongoCollection<Document> users = client.getDatabase("shop").getCollection("users");
            tolerate(() -> users.find(Filters.eq("name", "alice")).comment("first").into(new ArrayList<>()));
            tolerate(() -> users.find(Filters.eq("name", "bob")).maxTime(5, java.util.concurrent.TimeUnit.SECONDS)
                    .batchSize(7).into(new ArrayList<>()));
            tolerate(() -> users.find(Filters.eq("name", 42)).into(new ArrayList<>()));
        });
        List<StartedCommand> finds = sink.named("find");
        assertEquals(3, finds.size());
        String alice = finds.get(0).getQueryShapeHash();
        assertNotNull(alice, "a find by a field other than _id is shaped");
        assertEquals(64, alice.length());
        assertEquals(alice, finds.get(1).getQueryShapeHash(), "comment, maxTimeMS and batchSize are not in the shape");
        assertNotEquals(alice, finds.get(2).getQueryShapeHash(), "a number where a string was");
        assertFalse(finds.get(0).getQueryShape().contains("alice"), finds.get(0).getQueryShape());
        assertTrue(finds.get(0).getQueryShape().contains("\"shop\"") && finds.get(0).getQueryShape().contains("\"users\""),
                "the namespace is the shape's: " + finds.get(0).getQueryShape());
    }

    @Test
    void noShapeWhereTheCopyHidesWhatTheShapeWouldShowNorForASinkThatDoesNotAsk() {
        ShapeSink asking = run(true, client -> tolerate(() -> client.getDatabase("shop").getCollection("users")
                .find(Filters.exists("prefs.alice@example.com")).into(new ArrayList<>())));
        StartedCommand masked = asking.named("find").get(0);
        assertNull(masked.getQueryShapeHash(), "the copy masks the key that is data: " + masked.getQueryShape());
        assertNull(masked.getQueryShape());
        ShapeSink notAsking = run(false, client -> tolerate(() -> client.getDatabase("shop").getCollection("users")
                .find(Filters.eq("name", "alice")).into(new ArrayList<>())));
        StartedCommand find = notAsking.named("find").get(0);
        assertNull(find.getQueryShapeHash());
        assertNull(find.getCommand(), "nothing asked for the copy either");
    }
}
