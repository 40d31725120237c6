package io.github.mongoredact;

import com.mongodb.client.MongoCollection;
import com.mongodb.event.CommandStartedEvent;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The listener's bounded in-flight table, seen through its public counters and the sinks' completed commands. */
class CorrelationTest {

    private static final class RecordingSink implements CommandSink {
        final List<CompletedCommand> completed = new CopyOnWriteArrayList<>();
        final AtomicReference<ListenerCounters> counters = new AtomicReference<>();
        final AtomicInteger maxInFlight = new AtomicInteger();

        @Override
        public boolean needsDocuments() {
            return false;
        }

        @Override
        public void started(final StartedCommand command) {
            ListenerCounters c = counters.get();
            if (c != null) {
                maxInFlight.accumulateAndGet(c.getInFlight(), Math::max);
            }
        }

        @Override
        public void completed(final CompletedCommand command) {
            completed.add(command);
        }
    }

    @Test
    void completionsThatNeverComeLeaveTheTableAtItsBoundAndCountEvictions() {
        RecordingSink sink = new RecordingSink();
        RedactingCommandListener listener = RedactingCommandListener.builder().maxInFlight(64).addSink(sink).build();
        List<CommandStartedEvent> started = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            CommandStartedEvent event = Events.startedEvent(i, "{\"find\": \"users\", \"filter\": {\"_id\": " + i + "}}");
            started.add(event);
            listener.commandStarted(event);
            assertTrue(listener.getCounters().getInFlight() <= 64);
        }
        ListenerCounters counters = listener.getCounters();
        assertEquals(64, counters.getInFlight());
        assertEquals(1000 - 64, counters.getInFlightEvictions());

        for (CommandStartedEvent event : started) {
            listener.commandSucceeded(Events.succeededEvent(event, "{\"ok\": 1.0}", 1000));
        }
        assertEquals(0, counters.getInFlight(), "nothing left behind");
        assertEquals(1000 - 64, counters.getInFlightEvictions());
        assertEquals(1000, sink.completed.size());
        long known = sink.completed.stream().filter(CompletedCommand::isStartKnown).count();
        assertEquals(64, known);
        for (CompletedCommand command : sink.completed) {
            if (command.isStartKnown()) {
                assertEquals("users", command.getStarted().getCollectionName());
            } else {
                assertEquals(null, command.getStarted().getCollectionName());
                assertEquals("find", command.getStarted().getCommandName());
            }
        }
    }

    @Test
    void staysAtItsBoundUnderEightRealDriverThreads() throws Exception {
        RecordingSink sink = new RecordingSink();
        RedactingCommandListener listener = RedactingCommandListener.builder().maxInFlight(2).addSink(sink).build();
        sink.counters.set(listener.getCounters());
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoCollection<Document> users = server.client(listener).getDatabase("test").getCollection("users");
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int base = t * 1000;
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < 30; i++) {
                        users.insertOne(new Document("_id", base + i));
                    }
                });
                thread.start();
                threads.add(thread);
            }
            start.countDown();
            for (Thread thread : threads) {
                thread.join(60_000);
            }
        }
        ListenerCounters counters = listener.getCounters();
        assertEquals(0, counters.getInFlight(), "every completion came");
        assertTrue(sink.maxInFlight.get() <= 2, "bounded: " + sink.maxInFlight.get());
        long unknown = sink.completed.stream().filter(c -> !c.isStartKnown()).count();
        assertEquals(counters.getInFlightEvictions(), unknown, "each eviction shows as a completion without its start");
        assertTrue(sink.completed.size() >= 240, "" + sink.completed.size());
    }
}
