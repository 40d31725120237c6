package io.github.mongoredact;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A downstream listener or sink that throws is isolated: the others still get every event, the failures are counted, and the
 * driver, against the real server, sees nothing of it.
 */
class ThrowingDownstreamTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();


    static final class ThrowingListener implements CommandListener {
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public void commandStarted(final CommandStartedEvent event) {
            calls.incrementAndGet();
            throw new IllegalStateException("downstream started");
        }

        @Override
        public void commandSucceeded(final CommandSucceededEvent event) {
            calls.incrementAndGet();
            throw new IllegalStateException("downstream succeeded");
        }

        @Override
        public void commandFailed(final CommandFailedEvent event) {
            calls.incrementAndGet();
            throw new IllegalStateException("downstream failed");
        }
    }

    static final class ThrowingSink implements CommandSink {
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public void started(final StartedCommand command) {
            calls.incrementAndGet();
            throw new UnsupportedOperationException("sink started");
        }

        @Override
        public void completed(final CompletedCommand command) {
            calls.incrementAndGet();
            throw new UnsupportedOperationException("sink completed");
        }
    }

    @Test
    void throwingListenerAndSinkDoNotStopOthersNorTheDriver() {
        ThrowingListener first = new ThrowingListener();
        ThrowingSink sink = new ThrowingSink();
        KeepingListener kept = new KeepingListener();
        List<StartedCommand> sinkStarted = new ArrayList<>();
        CommandSink goodSink = new CommandSink() {
            @Override
            public void started(final StartedCommand command) {
                sinkStarted.add(command);
            }
        };
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(first).addSink(sink).addListener(kept).addSink(goodSink).build();
        long found;
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(listener);
            MongoCollection<Document> customers = client.getDatabase("shop").getCollection("customers");
            customers.insertOne(new Document("email", "alice@example.com"));
            customers.insertOne(new Document("email", "bob@example.com"));
            found = customers.countDocuments(Filters.eq("email", "alice@example.com"));
            // a failing command: the failure path is isolated as well
            assertThrows(com.mongodb.MongoCommandException.class,
                    () -> client.getDatabase("shop").runCommand(new Document("noSuchCommand", 1)));
        }
        assertEquals(1, found, "the driver works as if nothing had thrown");
        int events = kept.started.size() + kept.succeeded.size() + kept.failed.size();
        assertTrue(kept.started.size() >= 4, "started " + kept.started.size());
        assertEquals(kept.started.size(), kept.succeeded.size() + kept.failed.size());
        assertEquals(1, kept.failed.size());
        assertEquals(kept.started.size(), sinkStarted.size());
        assertEquals(events, first.calls.get());
        assertEquals(events, sink.calls.get());
        assertEquals(2L * events, listener.getCounters().getSinkFailures());
        assertEquals(events, listener.getCounters().getEventsForwarded());
        assertEquals(0, listener.getCounters().getRedactionFailures());
        warnings.assertSaid("threw from commandStarted");
    }

    @Test
    void throwingNeedsDocumentsIsCountedAndDocumentsAreStillMade() {
        List<StartedCommand> started = new ArrayList<>();
        CommandSink flaky = new CommandSink() {
            @Override
            public boolean needsDocuments() {
                throw new IllegalStateException("needsDocuments");
            }

            @Override
            public void started(final StartedCommand command) {
                started.add(command);
            }
        };
        RedactingCommandListener listener = RedactingCommandListener.builder().addSink(flaky).build();
        listener.commandStarted(DriverShapes.started(1, "find", DriverShapes.byteBacked(
                new org.bson.BsonDocument("find", new org.bson.BsonString("customers"))
                        .append("$db", new org.bson.BsonString("shop")), DriverShapes.Backing.BYTE_BUF_HEAP)));
        assertEquals(1, started.size());
        assertEquals("{\"find\": \"customers\", \"$db\": \"shop\"}", started.get(0).getCommand().toJson());
        assertEquals(1, listener.getCounters().getSinkFailures());
        warnings.assertSaid("threw from needsDocuments");
    }

    @Test
    void downstreamErrorsOtherThanVirtualMachineErrorsAreIsolatedToo() {
        // a sink whose optional dependency is missing throws NoClassDefFoundError; a test listener throws AssertionError
        CommandListener linkage = new CommandListener() {
            @Override
            public void commandStarted(final CommandStartedEvent event) {
                throw new NoClassDefFoundError("io/micrometer/core/instrument/MeterRegistry");
            }
        };
        CommandListener assertion = new CommandListener() {
            @Override
            public void commandStarted(final CommandStartedEvent event) {
                throw new AssertionError("downstream assertion");
            }
        };
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().addListener(linkage).addListener(assertion)
                .addListener(last).build();
        org.junit.jupiter.api.Assertions.assertDoesNotThrow(() -> listener.commandStarted(DriverShapes.started(1, "ping",
                DriverShapes.byteBacked(new org.bson.BsonDocument("ping", new org.bson.BsonInt32(1))
                        .append("$db", new org.bson.BsonString("admin")), DriverShapes.Backing.RAW))));
        assertEquals("ping", last.started.getCommandName());
        assertEquals(2, listener.getCounters().getSinkFailures());
        warnings.assertSaid("threw from commandStarted");
    }
}
