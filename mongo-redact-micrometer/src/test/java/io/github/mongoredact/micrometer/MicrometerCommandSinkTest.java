package io.github.mongoredact.micrometer;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.Updates;
import com.mongodb.event.CommandListener;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.github.mongoredact.ListenerCounters;
import io.github.mongoredact.RedactingCommandListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.mongodb.MongoMetricsCommandListener;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MicrometerCommandSinkTest {
    private MongoServer server;
    private String uri;
    private final List<MongoClient> clients = new ArrayList<>();

    @BeforeEach
    void startServer() {
        server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        uri = "mongodb://127.0.0.1:" + server.getLocalAddress().getPort();
    }

    @AfterEach
    void stopServer() {
        clients.forEach(MongoClient::close);
        server.shutdownNow();
    }

    private MongoClient client(final CommandListener... listeners) {
        MongoClientSettings.Builder builder = MongoClientSettings.builder().applyConnectionString(new ConnectionString(uri));
        for (CommandListener listener : listeners) {
            builder.addCommandListener(listener);
        }
        MongoClient client = MongoClients.create(builder.build());
        clients.add(client);
        return client;
    }

    private static void workload(final MongoDatabase db) {
        MongoCollection<Document> users = db.getCollection("users");
        users.insertMany(List.of(new Document("_id", 1).append("email", "a@example.com"),
                new Document("_id", 2).append("email", "b@example.com")));
        users.insertOne(new Document("_id", 3).append("email", "c@example.com"));
        users.find(Filters.eq("email", "a@example.com")).first();
        assertEquals(3, users.find().batchSize(1).into(new ArrayList<>()).size()); // getMore
        users.countDocuments(Filters.gt("_id", 1));
        users.updateOne(Filters.eq("_id", 2), Updates.set("email", "z@example.com"));
        users.deleteOne(Filters.eq("_id", 3));
        db.getCollection("orders").insertOne(new Document("_id", 1));
        db.runCommand(new Document("ping", 1));
        assertThrows(MongoCommandException.class, () -> db.runCommand(new Document("noSuchCommand", 1)));
    }

    /** @return each timer of mongodb.driver.commands as its sorted tags, with its count */
    private static Map<String, Long> timers(final SimpleMeterRegistry registry) {
        Map<String, Long> timers = new TreeMap<>();
        for (Timer timer : registry.find(MicrometerCommandSink.COMMANDS).timers()) {
            timers.put(new TreeSet<>(timer.getId().getTags()).toString(), timer.count());
        }
        return timers;
    }

    @Test
    void recordsTheSameTimersAsMicrometersOwnListener() {
        SimpleMeterRegistry ours = new SimpleMeterRegistry();
        SimpleMeterRegistry theirs = new SimpleMeterRegistry();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .addSink(MicrometerCommandSink.builder(ours).build()).build();
        workload(client(listener, new MongoMetricsCommandListener(theirs)).getDatabase("test"));

        Map<String, Long> expected = timers(theirs);
        assertTrue(expected.size() >= 8, expected.toString());
        assertEquals(expected, timers(ours));
        Timer insert = ours.find(MicrometerCommandSink.COMMANDS).tags("command", "insert", "collection", "users",
                "database", "test", "status", "SUCCESS", "server.address", "127.0.0.1:" + server.getLocalAddress().getPort())
                .timer();
        assertNotNull(insert, ours.getMetersAsString());
        assertEquals(2, insert.count());
        assertEquals(1, ours.find(MicrometerCommandSink.COMMANDS).tags("command", "noSuchCommand", "collection", "unknown",
                "status", "FAILED").timer().count());
        assertEquals(2, ours.find(MicrometerCommandSink.COMMANDS).tags("command", "getMore", "collection", "users",
                "status", "SUCCESS").timer().count());
        assertEquals(1, ours.find(MicrometerCommandSink.COMMANDS).tags("command", "ping", "collection", "unknown",
                "status", "SUCCESS").timer().count());
        Set<String> keys = new TreeSet<>();
        insert.getId().getTags().forEach(tag -> keys.add(tag.getKey()));
        assertEquals(Set.of("command", "database", "collection", "cluster.id", "server.address", "status"), keys);
    }

    @Test
    void recordsNoSizeSummaryByDefault() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerCommandSink sink = MicrometerCommandSink.builder(registry).build();
        assertFalse(sink.needsCommandSize());
        RedactingCommandListener listener = RedactingCommandListener.builder().addSink(sink).build();
        MongoCollection<Document> users = client(listener).getDatabase("test").getCollection("users");
        users.insertOne(new Document("_id", 1).append("payload", "x".repeat(5000)));
        users.find().first();
        assertEquals(2, registry.find(MicrometerCommandSink.COMMANDS).timers().stream().mapToLong(Timer::count).sum());
        assertTrue(registry.find(MicrometerCommandSink.COMMAND_SIZE).meters().isEmpty(), registry.getMetersAsString());
        assertTrue(registry.find(MicrometerCommandSink.REPLY_SIZE).meters().isEmpty(), registry.getMetersAsString());
    }

    @Test
    void recordsSizesOfCommandsAndRepliesWhenAskedTo() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerCommandSink sink = MicrometerCommandSink.builder(registry).sizeSummaries(true).build();
        assertTrue(sink.needsCommandSize());
        RedactingCommandListener listener = RedactingCommandListener.builder().addSink(sink).build();
        MongoCollection<Document> users = client(listener).getDatabase("test").getCollection("users");
        users.insertOne(new Document("_id", 1).append("payload", "x".repeat(5000)));
        DistributionSummary commandSize = registry.find(MicrometerCommandSink.COMMAND_SIZE).tags("command", "insert")
                .summary();
        assertEquals(1, commandSize.count());
        assertTrue(commandSize.totalAmount() > 5000 && commandSize.totalAmount() < 5300, "" + commandSize.totalAmount());
        DistributionSummary replySize = registry.find(MicrometerCommandSink.REPLY_SIZE).tags("command", "insert").summary();
        assertEquals(1, replySize.count());
        assertTrue(replySize.totalAmount() > 10 && replySize.totalAmount() < 100, "" + replySize.totalAmount());
        assertEquals("bytes", commandSize.getId().getBaseUnit());
    }

    @Test
    void countsWriteErrorsUnderOkOneAsFailuresWithTheirCode() {
        SimpleMeterRegistry ours = new SimpleMeterRegistry();
        SimpleMeterRegistry theirs = new SimpleMeterRegistry();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .addSink(MicrometerCommandSink.builder(ours).build()).build();
        MongoCollection<Document> users = client(listener, new MongoMetricsCommandListener(theirs)).getDatabase("test")
                .getCollection("users");
        users.insertOne(new Document("_id", 1));
        assertThrows(MongoWriteException.class, () -> users.insertOne(new Document("_id", 1)));
        users.createIndex(new Document("email", 1), new com.mongodb.client.model.IndexOptions().unique(true));
        users.insertOne(new Document("_id", 2).append("email", "x"));
        assertThrows(MongoCommandException.class, () -> users.findOneAndUpdate(Filters.eq("_id", 1),
                Updates.set("email", "x"), new FindOneAndUpdateOptions()));

        assertNull(theirs.find(MicrometerCommandSink.COMMANDS).tags("command", "insert", "status", "FAILED").timer(),
                "Micrometer's own listener counts the write error as a success");
        assertEquals(3, theirs.find(MicrometerCommandSink.COMMANDS).tags("command", "insert", "status", "SUCCESS").timer()
                .count());
        assertEquals(1, ours.find(MicrometerCommandSink.COMMANDS).tags("command", "insert", "status", "FAILED").timer()
                .count());
        assertEquals(2, ours.find(MicrometerCommandSink.COMMANDS).tags("command", "insert", "status", "SUCCESS").timer()
                .count());
        Counter insertErrors = ours.find(MicrometerCommandSink.ERRORS).tags("command", "insert", "error.code", "11000")
                .counter();
        assertNotNull(insertErrors, ours.getMetersAsString());
        assertEquals(1, insertErrors.count());
        Counter findAndModifyErrors = ours.find(MicrometerCommandSink.ERRORS).tags("command", "findAndModify").counter();
        assertNotNull(findAndModifyErrors, ours.getMetersAsString());
        assertEquals(1, findAndModifyErrors.count());
        assertEquals(1, ours.find(MicrometerCommandSink.COMMANDS).tags("command", "findAndModify", "status", "FAILED")
                .timer().count());
    }

    @Test
    void keepsWriteErrorsAsSuccessesWhenAskedButStillCountsTheirCode() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .addSink(MicrometerCommandSink.builder(registry).writeErrorsAsFailures(false).build()).build();
        MongoCollection<Document> users = client(listener).getDatabase("test").getCollection("users");
        users.insertOne(new Document("_id", 1));
        assertThrows(MongoWriteException.class, () -> users.insertOne(new Document("_id", 1)));
        assertEquals(2, registry.find(MicrometerCommandSink.COMMANDS).tags("command", "insert", "status", "SUCCESS").timer()
                .count());
        assertEquals(1, registry.find(MicrometerCommandSink.ERRORS).tags("error.code", "11000").counter().count());
    }

    @Test
    void countsEveryCommandFromEightThreads() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .addSink(MicrometerCommandSink.builder(registry).build()).build();
        MongoDatabase db = client(listener).getDatabase("test");
        int threads = 8;
        int perThread = 40;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String collection = "c" + t;
            futures.add(pool.submit(() -> {
                start.await();
                MongoCollection<Document> c = db.getCollection(collection);
                for (int i = 0; i < perThread; i++) {
                    c.insertOne(new Document("_id", i).append("v", "value " + i));
                    c.find(Filters.eq("_id", i)).first();
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> future : futures) {
            future.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        for (int t = 0; t < threads; t++) {
            for (String command : new String[]{"insert", "find"}) {
                Timer timer = registry.find(MicrometerCommandSink.COMMANDS).tags("command", command, "collection", "c" + t,
                        "status", "SUCCESS").timer();
                assertNotNull(timer, command + " c" + t);
                assertEquals(perThread, timer.count(), command + " c" + t);
            }
        }
        long all = registry.find(MicrometerCommandSink.COMMANDS).timers().stream().mapToLong(Timer::count).sum();
        assertEquals(listener.getCounters().getEventsForwarded() / 2, all);
        assertEquals(0, listener.getCounters().getInFlight());
        assertEquals(0, listener.getCounters().getSinkFailures());
    }

    @Test
    void tagsTheFingerprintOnlyWhenAskedAndBoundsItsValues() {
        SimpleMeterRegistry plain = new SimpleMeterRegistry();
        SimpleMeterRegistry shaped = new SimpleMeterRegistry();
        SimpleMeterRegistry bounded = new SimpleMeterRegistry();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .addSink(MicrometerCommandSink.builder(plain).build())
                .addSink(MicrometerCommandSink.builder(shaped).fingerprintTag(true).build())
                .addSink(MicrometerCommandSink.builder(bounded).fingerprintTag(true).maxFingerprints(1).build())
                .build();
        MongoCollection<Document> users = client(listener).getDatabase("test").getCollection("users");
        users.find(Filters.eq("email", "a@example.com")).first();
        users.find(Filters.eq("email", "b@example.com")).first();
        users.find(Filters.gt("age", 30)).first();

        assertNull(plain.find(MicrometerCommandSink.COMMANDS).tagKeys(MicrometerCommandSink.FINGERPRINT_TAG).timer());
        List<Timer> finds = new ArrayList<>(shaped.find(MicrometerCommandSink.COMMANDS).tags("command", "find").timers());
        assertEquals(2, finds.size(), "two shapes: " + shaped.getMetersAsString());
        for (Timer timer : finds) {
            assertTrue(timer.getId().getTag("command.fingerprint").matches("[0-9a-f]{16}"), timer.getId().toString());
            assertNull(timer.getId().getTag("query.shape"), "the tag's name before 0.6: " + timer.getId());
        }
        assertEquals(3, finds.stream().mapToLong(Timer::count).sum());
        assertEquals(1, bounded.find(MicrometerCommandSink.COMMANDS).tags("command", "find", "command.fingerprint",
                MicrometerCommandSink.OTHER_FINGERPRINT).timer().count());
    }

    @Test
    void exposesTheListenersCountersAsMeters() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerCommandSink sink = MicrometerCommandSink.builder(registry).tags(List.of(Tag.of("app", "demo"))).build();
        // a plain listener next to the sink makes the listener copy (and so redact) documents: the metrics path alone
        // copies none and replaces no value (MetricsOnlyPathTest)
        RedactingCommandListener listener = RedactingCommandListener.builder().addSink(sink)
                .addListener(new CommandListener() { }).build();
        new ListenerCountersMetrics(listener.getCounters(), List.of(Tag.of("app", "demo"))).bindTo(registry);
        workload(client(listener).getDatabase("test"));
        ListenerCounters counters = listener.getCounters();
        FunctionCounter forwarded = registry.find("mongoredact.listener.events.forwarded").tags("app", "demo")
                .functionCounter();
        assertTrue(counters.getEventsForwarded() > 10);
        assertEquals(counters.getEventsForwarded(), (long) forwarded.count());
        assertEquals(counters.getInFlightEvictions(),
                (long) registry.find("mongoredact.listener.inflight.evictions").functionCounter().count());
        assertEquals(counters.getSinkFailures(),
                (long) registry.find("mongoredact.listener.sink.failures").functionCounter().count());
        assertEquals(counters.getRedactionFailures(),
                (long) registry.find("mongoredact.listener.redaction.failures").functionCounter().count());
        assertEquals(counters.getValuesRedacted(),
                (long) registry.find("mongoredact.listener.values.redacted").functionCounter().count());
        assertTrue(counters.getValuesRedacted() > 0);
        assertEquals(0.0, registry.find("mongoredact.listener.inflight").gauge().value());
        for (Meter meter : registry.getMeters()) {
            assertEquals("demo", meter.getId().getTag("app"), meter.getId().toString());
        }
    }

    @Test
    void namesCollectionsAsMicrometerDoes() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .addSink(MicrometerCommandSink.builder(registry).build())
                .build();
        MongoDatabase db = client(listener).getDatabase("test");
        db.getCollection("users").insertOne(new Document("_id", 1));
        db.runCommand(new Document("listCollections", 1));
        db.runCommand(new Document("collStats", "users"));
        assertEquals(1, registry.find(MicrometerCommandSink.COMMANDS).tags("command", "insert", "collection", "users",
                "status", "SUCCESS").timer().count());
        assertEquals(1, registry.find(MicrometerCommandSink.COMMANDS).tags("command", "listCollections", "collection",
                "unknown").timer().count());
        assertEquals(1, registry.find(MicrometerCommandSink.COMMANDS).tags("command", "collStats", "collection", "unknown")
                .timer().count(), "collStats is not among the commands Micrometer takes the collection of");
        assertFalse(listener.getCounters().getEventsForwarded() == 0);
    }

    @Test
    void findsEachCommandsOwnMetersAgainOnRepeatedCommands() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MongoDatabase db = client(RedactingCommandListener.builder().addSink(MicrometerCommandSink.builder(registry).build())
                .build()).getDatabase("test");
        for (int i = 0; i < 3; i++) {
            db.getCollection("users").insertOne(new Document("_id", i));
            db.getCollection("users").find(Filters.eq("_id", i)).first();
            db.runCommand(new Document("collStats", "users"));
            db.runCommand(new Document("ping", 1));
            db.getCollection("unknown").find(Filters.eq("_id", 1)).first();
        }
        // the same collection name under a command Micrometer does not take it from, a command that names none, and a
        // collection named as the tag of none: each keeps its own tags when its meters are found again
        assertEquals(Map.of(
                "[tag(collection=unknown), tag(command=collStats)]", 3L,
                "[tag(collection=unknown), tag(command=find)]", 3L,
                "[tag(collection=unknown), tag(command=ping)]", 3L,
                "[tag(collection=users), tag(command=find)]", 3L,
                "[tag(collection=users), tag(command=insert)]", 3L), commandsByCollection(registry));
    }

    /** @return the SUCCESS timers' counts by their collection and command tags */
    private static Map<String, Long> commandsByCollection(final SimpleMeterRegistry registry) {
        Map<String, Long> counts = new TreeMap<>();
        for (Timer timer : registry.find(MicrometerCommandSink.COMMANDS).tags("status", "SUCCESS").timers()) {
            Set<Tag> tags = new TreeSet<>();
            for (Tag tag : timer.getId().getTags()) {
                if (tag.getKey().equals("collection") || tag.getKey().equals("command")) {
                    tags.add(tag);
                }
            }
            counts.merge(tags.toString(), timer.count(), Long::sum);
        }
        return counts;
    }
}
