package io.github.mongoredact.micrometer;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Updates;
import com.mongodb.event.CommandEvent;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.RedactingCommandListener;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.mongodb.DefaultMongoCommandTagsProvider;
import io.micrometer.core.instrument.binder.mongodb.MongoCommandTagsProvider;
import io.micrometer.core.instrument.binder.mongodb.MongoMetricsCommandListener;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@link MongoCommandTagsProvider} on the sink, through the real driver against the embedded server: the timer carries the
 * provider's tags exactly as Micrometer's own {@link MongoMetricsCommandListener} gives them on the same client (the control),
 * and the provider is handed only owned, redacted events.
 */
class CommandTagsProviderTest {
    private static final String PLANTED_EMAIL = "planted-5d1e@example.invalid";
    private static final String PLANTED_NAME = "Planted-Name-0b7c";
    /** createIndexes, insert, insert (duplicate key), find, update, aggregate (count), delete, a refused command. */
    private static final int COMMANDS = 8;

    /** The provider of the issue: the command name and a fixed tenant, nothing read from the event's documents. */
    private static final MongoCommandTagsProvider TENANT = event -> Tags.of("command", event.getCommandName(), "tenant", "acme");

    /** Micrometer's default tags plus a tenant: reads the collection from the started command, as applications extend it. */
    static final class TenantTagsProvider extends DefaultMongoCommandTagsProvider {
        @Override
        public Iterable<Tag> commandTags(final CommandEvent event) {
            return Tags.of(super.commandTags(event)).and("tenant", "acme");
        }
    }

    /** Keeps every event it is handed, and the JSON of each started command as read in the callback. */
    static final class KeepingProvider implements MongoCommandTagsProvider {
        final List<CommandStartedEvent> started = new CopyOnWriteArrayList<>();
        final List<String> startedJson = new CopyOnWriteArrayList<>();
        final List<CommandEvent> completed = new CopyOnWriteArrayList<>();
        final List<String> completedText = new CopyOnWriteArrayList<>();

        @Override
        public void commandStarted(final CommandStartedEvent event) {
            started.add(event);
            startedJson.add(event.getCommand().toJson());
        }

        @Override
        public Iterable<Tag> commandTags(final CommandEvent event) {
            completed.add(event);
            completedText.add(event instanceof CommandSucceededEvent ? ((CommandSucceededEvent) event).getResponse().toJson()
                    : String.valueOf(((CommandFailedEvent) event).getThrowable()));
            return Tags.of("command", event.getCommandName());
        }

        String everything() {
            return startedJson + " " + completedText;
        }
    }

    private static void workload(final MongoDatabase db) {
        MongoCollection<Document> users = db.getCollection("users");
        users.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true));
        users.insertOne(new Document("email", PLANTED_EMAIL).append("name", "Ada"));
        assertThrows(MongoWriteException.class, () -> users.insertOne(new Document("email", PLANTED_EMAIL)));
        users.find(Filters.eq("email", PLANTED_EMAIL)).first();
        users.updateOne(Filters.eq("email", PLANTED_EMAIL), Updates.set("name", PLANTED_NAME));
        users.countDocuments(Filters.eq("email", PLANTED_EMAIL));
        users.deleteOne(Filters.eq("email", PLANTED_EMAIL));
        assertThrows(MongoCommandException.class, () -> db.runCommand(new Document("noSuchCommand", PLANTED_EMAIL)));
    }

    /** @return each timer of mongodb.driver.commands as its sorted tags, with its count */
    private static Map<String, Long> timers(final SimpleMeterRegistry registry) {
        Map<String, Long> timers = new TreeMap<>();
        for (Timer timer : registry.find(MicrometerCommandSink.COMMANDS).timers()) {
            timers.put(new TreeSet<>(timer.getId().getTags()).toString(), timer.count());
        }
        return timers;
    }

    /** Micrometer's listener and ours on one client (one cluster id), each with the same provider: the same timers. */
    private static void assertSameTimersAsMicrometersListener(final MongoCommandTagsProvider ourProvider,
                                                            final MongoCommandTagsProvider theirProvider) {
        SimpleMeterRegistry ours = new SimpleMeterRegistry();
        SimpleMeterRegistry theirs = new SimpleMeterRegistry();
        MicrometerCommandSink sink = MicrometerCommandSink.builder(ours).commandTagsProvider(ourProvider).build();
        assertSame(ourProvider, sink.getCommandTagsProvider());
        RedactingCommandListener listener = RedactingCommandListener.builder().addSink(sink).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            workload(server.client(listener, new MongoMetricsCommandListener(theirs, theirProvider)).getDatabase("test"));
        }
        Map<String, Long> expected = timers(theirs);
        assertEquals(COMMANDS, expected.values().stream().mapToLong(Long::longValue).sum(), expected.toString());
        assertEquals(expected, timers(ours));
        for (Timer timer : ours.find(MicrometerCommandSink.COMMANDS).timers()) {
            assertEquals("acme", timer.getId().getTag("tenant"), timer.getId().toString());
        }
        assertEquals(0, listener.getCounters().getSinkFailures());
    }

    @Test
    void theIssuesProviderTagsEveryTimerAsOnMicrometersOwnListener() {
        assertSameTimersAsMicrometersListener(TENANT, TENANT);
    }

    @Test
    void aProviderExtendingMicrometersDefaultGivesTheSameTimersWithTheCollectionFromTheRedactedCommand() {
        SimpleMeterRegistry ours = new SimpleMeterRegistry();
        assertSameTimersAsMicrometersListener(new TenantTagsProvider(), new TenantTagsProvider());
        // the collection comes from the owned, redacted command: the default policy keeps the namespace
        MicrometerCommandSink sink = MicrometerCommandSink.builder(ours).commandTagsProvider(new TenantTagsProvider()).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            workload(server.client(RedactingCommandListener.builder().addSink(sink).build()).getDatabase("test"));
        }
        assertEquals(1, ours.find(MicrometerCommandSink.COMMANDS).tags("command", "find", "collection", "users",
                "status", "SUCCESS", "tenant", "acme").timer().count());
        assertEquals(1, ours.find(MicrometerCommandSink.COMMANDS).tags("command", "noSuchCommand", "status", "FAILED")
                .timer().count());
    }

    @Test
    void theProviderIsHandedOnlyOwnedRedactedEventsWhileMicrometersListenerGetsTheDriversOwn() {
        KeepingProvider ours = new KeepingProvider();
        KeepingProvider theirs = new KeepingProvider();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .addSink(MicrometerCommandSink.builder(new SimpleMeterRegistry()).commandTagsProvider(ours).build()).build();
        List<String> readAgain = new ArrayList<>();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoDatabase db = server.client(listener, new MongoMetricsCommandListener(new SimpleMeterRegistry(), theirs))
                    .getDatabase("test");
            workload(db);
            for (int i = 0; i < 50; i++) { // the driver reuses its buffers meanwhile
                db.getCollection("other").insertOne(new Document("i", i).append("filler", "x".repeat(200)));
            }
            for (CommandStartedEvent event : ours.started.subList(0, COMMANDS)) {
                readAgain.add(event.getCommand().toJson());
            }
        }
        assertEquals(COMMANDS, ours.completed.subList(0, COMMANDS).size());
        assertTrue(theirs.everything().contains(PLANTED_EMAIL), "the control: the driver's events carry the values");
        assertFalse(ours.everything().contains(PLANTED_EMAIL), ours.everything());
        assertFalse(ours.everything().contains(PLANTED_NAME), ours.everything());
        assertEquals(ours.startedJson.subList(0, COMMANDS), readAgain, "kept events read back as they were");
        for (CommandStartedEvent event : ours.started) {
            assertFalse(event.getCommand().getClass().getName().contains("ByteBuf"), event.getCommand().getClass().getName());
        }
        assertTrue(ours.startedJson.get(1).contains("\"documents\": [{"), "the redacted command, not an empty document: "
                + ours.startedJson.get(1));
    }

    @Test
    void withoutAProviderTheSinkAsksForNoCopyAndWithOneItDoes() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerCommandSink plain = MicrometerCommandSink.builder(registry).build();
        assertNull(plain.getCommandTagsProvider());
        assertFalse(plain.needsDocuments());
        assertFalse(plain.needsReplyDocuments());
        MicrometerCommandSink provided = MicrometerCommandSink.builder(registry).commandTagsProvider(TENANT).build();
        assertTrue(provided.needsDocuments());
        assertTrue(provided.needsReplyDocuments());
        assertFalse(provided.needsFingerprint());

        RedactingCommandListener withoutProvider = RedactingCommandListener.builder().addSink(plain).build();
        RedactingCommandListener withProvider = RedactingCommandListener.builder()
                .addSink(MicrometerCommandSink.builder(new SimpleMeterRegistry()).commandTagsProvider(TENANT).build()).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            workload(server.client(withoutProvider, withProvider).getDatabase("test"));
        }
        assertEquals(0, withoutProvider.getCounters().getValuesRedacted(), "nothing copied for metrics alone");
        assertTrue(withProvider.getCounters().getValuesRedacted() > 0, "copied and redacted for the provider");
    }

    /** The interface's {@code commandStarted} does nothing: a provider that does not override it is handed no start events. */
    @Test
    void onlyAProviderThatOverridesCommandStartedIsHandedTheStarts() {
        MongoCommandTagsProvider lambda = event -> Tags.of("command", event.getCommandName());
        assertFalse(ProvidedTagsTimer.overridesCommandStarted(lambda));
        assertFalse(new ProvidedTagsTimer(new SimpleMeterRegistry(), Tags.empty(), lambda).readsStarts());
        assertTrue(ProvidedTagsTimer.overridesCommandStarted(new KeepingProvider()));
        assertTrue(ProvidedTagsTimer.overridesCommandStarted(new TenantTagsProvider()), "Micrometer's default remembers starts");
    }

    @Test
    void aProviderThatThrowsIsCountedAsASinkFailureAndNeverReachesTheDriver() {
        MongoCommandTagsProvider throwing = event -> {
            throw new IllegalStateException("provider failed");
        };
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .addSink(MicrometerCommandSink.builder(new SimpleMeterRegistry()).commandTagsProvider(throwing).build()).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            workload(server.client(listener).getDatabase("test"));
        }
        assertEquals(COMMANDS, listener.getCounters().getSinkFailures());
    }
}
