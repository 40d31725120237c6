package io.github.mongoredact.log;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Filters;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.github.mongoredact.EmbeddedServer.tolerate;
import static io.github.mongoredact.micrometer.MicrometerCommandSink.COMMANDS;
import static io.github.mongoredact.micrometer.MicrometerCommandSink.FINGERPRINT_TAG;
import static io.github.mongoredact.micrometer.MicrometerCommandSink.NO_QUERY_SHAPE;
import static io.github.mongoredact.micrometer.MicrometerCommandSink.QUERY_SHAPE_HASH_TAG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The log and the meters on one listener, through the real driver to the embedded server: MongoDB's {@code queryShapeHash}
 * is the same text in the log's started line and in the meters' {@code query.shape.hash} tag, and it is the value the server's
 * own tests pin for the commands the driver sends, so either joins the server's slow-query log, profiler and
 * {@code $queryStats}; it is there only where the policy's copy shows the shape. Our fingerprint joins the two under names of
 * its own ({@code fingerprint}, {@code command.fingerprint}), never the server's.
 */
class ServerQueryShapeJoinTest {
    /** {@code AggCmdShapeTest.StableQueryShapeHashValue} (src/mongo/db/query/query_shape/agg_cmd_shape_test.cpp). */
    private static final String AGGREGATE_HASH = "F5C9B81418515DE73EA3F500F7BBB7AD5ED60D4DD9E5F645825730BC0E633BF2";
    /** {@code ExtractQueryShapeDistinctTest.StableQueryShapeHashValue} (distinct_cmd_shape_test.cpp), no collation. */
    private static final String DISTINCT_HASH = "6885616B1ACD8B4F7FB5C1EB2A17B482EBB8788D63AC033160AA3A848F125DEA";

    /** The two sinks of one run. */
    private static final class Run {
        final RecordingLog log = new RecordingLog();
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();

        Run(final RedactionPolicy policy) {
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy)
                    .addSink(CommandLogSink.builder().log(log).build())
                    .addSink(MicrometerCommandSink.builder(registry).fingerprintTag(true).queryShapeHashTag(true).build())
                    .build();
            try (EmbeddedServer server = new EmbeddedServer()) {
                workload(server.client(listener));
            }
            assertEquals(0, listener.getCounters().getSinkFailures());
        }

        /** @return the started line of the only command of that name on that collection */
        RecordingLog.Line started(final String commandName, final String collection) {
            List<RecordingLog.Line> lines = new ArrayList<>();
            for (RecordingLog.Line line : log.startingWith("Command \"" + commandName + "\" started")) {
                if (line.field("command").startsWith("{\"" + commandName + "\": \"" + collection + "\"")) {
                    lines.add(line);
                }
            }
            assertEquals(1, lines.size(), log.lines.toString());
            return lines.get(0);
        }

        /** @return the timer of the only command of that name on that collection */
        Timer timer(final String commandName, final String collection) {
            List<Timer> timers = new ArrayList<>(registry.find(COMMANDS).tags("command", commandName, "collection", collection)
                    .timers());
            assertEquals(1, timers.size(), registry.getMetersAsString());
            return timers.get(0);
        }

        /**
         * The log's hash and the tag agree, and so do the log's fingerprint and the fingerprint tag.
         *
         * @return the hash, or null where there is none
         */
        String joined(final String commandName, final String collection) {
            RecordingLog.Line line = started(commandName, collection);
            Timer timer = timer(commandName, collection);
            assertEquals(line.field("fingerprint"), timer.getId().getTag(FINGERPRINT_TAG), commandName);
            assertTrue(line.field("fingerprint").matches("[0-9a-f]{16}"), line.toString());
            String hash = (String) line.fields.get("queryShapeHash");
            assertEquals(hash == null ? NO_QUERY_SHAPE : hash, timer.getId().getTag(QUERY_SHAPE_HASH_TAG), line.toString());
            assertEquals(hash == null, line.fields.get("queryShape") == null, line.toString());
            return hash;
        }
    }

    private static void workload(final MongoClient client) {
        MongoCollection<Document> test = client.getDatabase("testDB").getCollection("testColl");
        tolerate(() -> test.aggregate(List.of(Aggregates.match(Filters.eq("x", 3)), Aggregates.limit(2)))
                .let(new Document("x", 4).append("y", "str")).into(new ArrayList<>()));
        MongoCollection<Document> area = client.getDatabase("testdb").getCollection("testcoll");
        tolerate(() -> area.distinct("name", Filters.eq("area", 5), String.class).into(new ArrayList<>()));
        MongoCollection<Document> users = client.getDatabase("shop").getCollection("users");
        users.insertOne(new Document("email", "ann@example.com"));
        users.find(Filters.eq("email", "ann@example.com")).first();
        tolerate(() -> client.getDatabase("shop").getCollection("prefs").find(Filters.exists("prefs.alice@example.com"))
                .first());
    }

    @Test
    void theLogAndTheMetersCarryTheServersHashWhereTheCopyShowsTheShape() {
        Run run = new Run(RedactionPolicy.defaults());
        assertEquals(DISTINCT_HASH, run.joined("distinct", "testcoll"), "the value the server's own test pins");
        String find = run.joined("find", "users");
        assertNotNull(find, "a find filtered on a plain field has a shape under defaults()");
        assertTrue(find.matches("[0-9A-F]{64}"), find);
        String shape = run.started("find", "users").field("queryShape");
        assertTrue(shape.contains("\"db\": \"shop\"") && shape.contains("\"?string\"") && !shape.contains("ann@"), shape);
        assertNull(run.joined("aggregate", "testColl"), "defaults() redacts let's names, which the shape would show");
        assertNull(run.joined("insert", "users"), "the server shapes no insert");
        assertNull(run.joined("find", "prefs"), "the copy masks the key that is data, which the shape would show");
        assertNotEquals(run.started("find", "users").field("fingerprint"), find, "ours and the server's are two values");
    }

    @Test
    void aPolicyThatKeepsLetGivesTheAggregateItsPinnedHashAndAMaskedKeyStillNone() {
        Run run = new Run(RedactionPolicy.builder(RedactionPolicy.defaults()).keep("let").build());
        assertEquals(AGGREGATE_HASH, run.joined("aggregate", "testColl"), "the value the server's own test pins");
        assertEquals(DISTINCT_HASH, run.joined("distinct", "testcoll"));
        assertNotNull(run.joined("find", "users"));
        RecordingLog.Line masked = run.started("find", "prefs");
        assertNull(run.joined("find", "prefs"), masked.toString());
        assertFalse(masked.toString().contains("alice"), masked.toString());
    }
}
