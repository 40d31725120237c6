package io.github.mongoredact.handoff;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.Allocations;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.Events;
import io.github.mongoredact.LibraryWarnings;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RecordingSink;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.StartedCommand;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HandOffSinkTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();

    private static final int PRODUCERS = 8;

    /** A sink that waits for a gate on its first event, then records every event. */
    private static final class GatedSink implements CommandSink {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch gate = new CountDownLatch(1);
        final Set<Object> seen = ConcurrentHashMap.newKeySet();
        final List<Thread> threads = new CopyOnWriteArrayList<>();

        @Override
        public void started(final StartedCommand command) {
            receive(command);
        }

        @Override
        public void completed(final CompletedCommand command) {
            receive(command);
        }

        private void receive(final Object event) {
            threads.add(Thread.currentThread());
            entered.countDown();
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            seen.add(event);
        }
    }

    private static List<StartedCommand> events(final int count) {
        List<StartedCommand> events = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            events.add(Events.started(Events.startedEvent(i, "{\"find\": \"users\"}"), null, "users", i));
        }
        return events;
    }

    /** Offers the events from 8 threads at once, each taking every 8th, and waits for them. */
    private static void offerFromEightThreads(final HandOffSink handOff, final List<StartedCommand> events) throws Exception {
        for (Thread thread : startProducers(handOff, events)) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
    }

    /** Starts 8 threads that offer the events at once, each taking every 8th; returns them running. */
    private static List<Thread> startProducers(final HandOffSink handOff, final List<StartedCommand> events) {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int first = p;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = first; i < events.size(); i += PRODUCERS) {
                    handOff.started(events.get(i));
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        return threads;
    }

    @Test
    void losesNothingUpToTheCapacityUnderEightProducersAndCountsDropsBeyond() throws Exception {
        GatedSink sink = new GatedSink();
        HandOffSink handOff = HandOffSink.builder(sink).capacity(1024).build();
        assertEquals(1024, handOff.getCapacity());
        StartedCommand blocker = events(1).get(0);
        handOff.started(blocker);
        assertTrue(sink.entered.await(10, TimeUnit.SECONDS), "the hand-off thread holds the first event");

        List<StartedCommand> accepted = events(1024);
        offerFromEightThreads(handOff, accepted);
        assertEquals(0, handOff.getDropped(), "nothing lost up to the capacity");
        assertEquals(1024, handOff.getQueued());

        offerFromEightThreads(handOff, events(100));
        assertEquals(100, handOff.getDropped(), "everything beyond the capacity dropped and counted");

        sink.gate.countDown();
        handOff.close();
        assertEquals(1025, sink.seen.size());
        assertTrue(sink.seen.containsAll(accepted));
        assertEquals(1025, handOff.getDelivered());
        assertEquals(0, handOff.getQueued());
        assertTrue(sink.threads.stream().noneMatch(t -> t == Thread.currentThread()));
    }

    @Test
    void aSleepingSinkDoesNotSlowTheProducer() throws Exception {
        AtomicInteger delivered = new AtomicInteger();
        CountDownLatch sleeping = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean wake = new java.util.concurrent.atomic.AtomicBoolean();
        CommandSink sleepy = new CommandSink() {
            @Override
            public void started(final StartedCommand command) {
                sleeping.countDown();
                while (!wake.get()) {
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                delivered.incrementAndGet();
            }
        };
        HandOffSink handOff = HandOffSink.builder(sleepy).capacity(64).build();
        List<StartedCommand> events = java.util.Collections.nCopies(100_000, events(1).get(0));
        handOff.started(events.get(0));
        assertTrue(sleeping.await(10, TimeUnit.SECONDS));
        long before = Allocations.allocatedBytes();
        for (StartedCommand event : events) {
            handOff.started(event);
        }
        long allocated = Allocations.allocatedBytes() - before;
        // The producer made 100 000 offers while the sink slept on its first event: none waited for it.
        assertEquals(0, delivered.get());
        assertEquals(64, handOff.getQueued());
        assertEquals(100_000 - 64, handOff.getDropped());
        assertTrue(allocated < 100_000, "offers allocate nothing per event: " + allocated + " bytes for 100 000");
        wake.set(true);
        assertTrue(handOff.close(30, TimeUnit.SECONDS));
        assertEquals(65, delivered.get());
    }

    @Test
    void neverBlocksTheProducerWhileTheSinkHoldsItsLock() throws Exception {
        Object lock = new Object();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CommandSink locking = new CommandSink() {
            @Override
            public void started(final StartedCommand command) {
                synchronized (lock) {
                    holding.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        HandOffSink handOff = HandOffSink.builder(locking).capacity(16).build();
        List<StartedCommand> events = events(1000);
        handOff.started(events.get(0));
        assertTrue(holding.await(10, TimeUnit.SECONDS));
        Thread producer = new Thread(() -> events.forEach(handOff::started));
        producer.start();
        producer.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(producer.isAlive(), "the producer finished while the sink held its lock");
        assertEquals(1000 - 16, handOff.getDropped());
        release.countDown();
        handOff.close();
        assertEquals(17, handOff.getDelivered());
    }

    @Test
    void closeDeliversEverythingAcceptedThenDropsLaterEvents() throws Exception {
        List<Object> received = new CopyOnWriteArrayList<>();
        CommandSink slow = new CommandSink() {
            @Override
            public void completed(final CompletedCommand command) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                received.add(command);
            }
        };
        HandOffSink handOff = HandOffSink.builder(slow).capacity(512).build();
        List<CompletedCommand> events = new ArrayList<>();
        for (StartedCommand started : events(300)) {
            events.add(Events.succeeded(started, null, 1000, 0, null));
        }
        events.forEach(handOff::completed);
        long accepted = 300 - handOff.getDropped();
        assertEquals(300, accepted);
        handOff.close();
        assertEquals(events, received, "all delivered, in order");
        handOff.completed(events.get(0));
        assertEquals(1, handOff.getDropped(), "after close: dropped and counted");
        assertEquals(300, received.size());
    }

    @Test
    void closeWhileEightProducersOfferDeliversExactlyWhatWasAccepted() throws Exception {
        AtomicInteger received = new AtomicInteger();
        CommandSink counting = new CommandSink() {
            @Override
            public void started(final StartedCommand command) {
                received.incrementAndGet();
            }
        };
        HandOffSink handOff = HandOffSink.builder(counting).capacity(256).build();
        List<StartedCommand> events = java.util.Collections.nCopies(200_000, events(1).get(0));
        List<Thread> producers = startProducers(handOff, events);
        while (received.get() < 1000 && producers.stream().anyMatch(Thread::isAlive)) {
            Thread.onSpinWait();
        }
        handOff.close();
        int atClose = received.get();
        for (Thread producer : producers) {
            producer.join(30_000);
        }
        assertEquals(atClose, received.get(), "nothing delivered after close returned");
        assertEquals(200_000, received.get() + handOff.getDropped(), "every event delivered or counted as dropped");
        assertEquals(received.get(), handOff.getDelivered());
    }

    @Test
    void aThrowingSinkDoesNotKillTheThread() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        CommandSink throwing = new CommandSink() {
            @Override
            public void started(final StartedCommand command) {
                if (calls.incrementAndGet() % 2 == 1) {
                    throw new IllegalStateException("sink failure " + calls.get());
                }
            }
        };
        HandOffSink handOff = HandOffSink.builder(throwing).capacity(128).build();
        events(100).forEach(handOff::started);
        handOff.close();
        assertEquals(100, calls.get());
        assertEquals(50, handOff.getFailures());
        assertEquals(100, handOff.getDelivered());
        warnings.assertSaid("threw");
    }

    @Test
    void deliversOwnedDriverEventsToAPlainListenerFromTheRealDriver() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        CommandListener plain = new CommandListener() {
            @Override
            public void commandStarted(final CommandStartedEvent event) {
                threads.add(Thread.currentThread());
                seen.add("started " + event.getCommandName() + " " + event.getCommand().toJson());
            }

            @Override
            public void commandSucceeded(final CommandSucceededEvent event) {
                seen.add("succeeded " + event.getCommandName() + " " + event.getResponse().getNumber("ok").intValue());
            }

            @Override
            public void commandFailed(final CommandFailedEvent event) {
                seen.add("failed " + event.getCommandName());
            }
        };
        HandOffSink handOff = HandOffSink.builder(plain).threadName("test-hand-off").build();
        assertTrue(handOff.needsDocuments());
        try (EmbeddedServer server = new EmbeddedServer()) {
            RedactingCommandListener listener = RedactingCommandListener.builder().addSink(handOff).build();
            server.client(listener).getDatabase("test").getCollection("users")
                    .insertOne(new Document("email", "ann@example.com"));
            try {
                server.client(listener).getDatabase("test").runCommand(new Document("noSuchCommand", 1));
            } catch (RuntimeException expected) {
                // a failed command
            }
        }
        handOff.close();
        assertEquals(0, handOff.getFailures());
        assertTrue(seen.contains("succeeded insert 1"), seen.toString());
        assertTrue(seen.contains("failed noSuchCommand"), seen.toString());
        String insert = seen.stream().filter(s -> s.startsWith("started insert")).findFirst().orElseThrow();
        assertFalse(insert.contains("ann@example.com"), insert);
        assertTrue(threads.stream().allMatch(t -> t.getName().equals("test-hand-off")));
        assertTrue(seen.indexOf(insert) < seen.indexOf("succeeded insert 1"), "in order: " + seen);
    }

    /** Runs {@code close()} on a new thread and waits for it at most 10 s: a guard, so that a deadlock fails the test. */
    private static Thread closeOnAnotherThread(final HandOffSink handOff) throws InterruptedException {
        Thread closer = new Thread(handOff::close, "closer");
        closer.setDaemon(true);
        closer.start();
        closer.join(TimeUnit.SECONDS.toMillis(10));
        return closer;
    }

    @Test
    void aSinkThatClosesItsOwnHandOffEndsItAndLaterClosesReturn() throws Exception {
        java.util.concurrent.atomic.AtomicReference<HandOffSink> self = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicReference<Boolean> timedCloseOnItsThread = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean closeReturned = new java.util.concurrent.atomic.AtomicBoolean();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        List<Object> received = new CopyOnWriteArrayList<>();
        CommandSink closing = new CommandSink() {
            @Override
            public void started(final StartedCommand command) {
                received.add(command);
                if (received.size() == 1) {
                    entered.countDown();
                    try {
                        gate.await();
                        self.get().close();
                        closeReturned.set(true);
                        timedCloseOnItsThread.set(self.get().close(10, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        HandOffSink handOff = HandOffSink.builder(closing).build();
        self.set(handOff);
        List<StartedCommand> events = events(4);
        handOff.started(events.get(0));
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        handOff.started(events.get(1));
        handOff.started(events.get(2));
        gate.countDown();
        Thread first = closeOnAnotherThread(handOff);
        assertFalse(first.isAlive(), "close() from another thread returned after the sink closed its own hand-off");
        assertTrue(closeReturned.get(), "close() on the hand-off thread returned");
        assertEquals(Boolean.FALSE, timedCloseOnItsThread.get(), "the timed close on its own thread returns false at once");
        assertEquals(events.subList(0, 3), received, "what was accepted before the close was delivered, in order");
        assertEquals(3, handOff.getDelivered());
        handOff.started(events.get(3));
        assertEquals(1, handOff.getDropped(), "after the close: dropped and counted");
        assertFalse(closeOnAnotherThread(handOff).isAlive(), "a later close() returns too");
        assertTrue(handOff.close(10, TimeUnit.SECONDS), "the thread ended");
    }

    @Test
    void asksForDocumentsAndRepliesAsTheWrappedSinkDoesAndForNoneOnceClosed() throws Exception {
        HandOffSink plain = HandOffSink.builder(new CommandListener() {
        }).build();
        CommandSink needing = new CommandSink() {
            @Override
            public boolean needsDocuments() {
                return true;
            }

            @Override
            public boolean needsReplyDocuments() {
                return false;
            }
        };
        HandOffSink wrapping = HandOffSink.builder(needing).build();
        assertTrue(plain.needsDocuments());
        assertTrue(plain.needsReplyDocuments(), "a plain listener gets every reply");
        assertTrue(wrapping.needsDocuments());
        assertFalse(wrapping.needsReplyDocuments(), "the wrapped sink reads no reply: none is copied for it");
        plain.close();
        assertTrue(wrapping.close(10, TimeUnit.SECONDS));
        assertFalse(plain.needsDocuments(), "closed: every event would be dropped, no copy is worth making");
        assertFalse(plain.needsReplyDocuments());
        assertFalse(wrapping.needsDocuments());
    }

    @Test
    void asksForTheQueryShapeAndTheSizeAsTheWrappedSinkDoesSoThatItsEventsCarryThem() throws Exception {
        RecordingSink shapes = new RecordingSink(false, false, false) {
            @Override
            public boolean needsQueryShape() {
                return true;
            }

            @Override
            public boolean needsCommandSize() {
                return false;
            }
        };
        HandOffSink handOff = HandOffSink.builder(shapes).build();
        HandOffSink plain = HandOffSink.builder(new CommandListener() {
        }).build();
        assertTrue(handOff.needsQueryShape());
        assertFalse(handOff.needsCommandSize());
        assertFalse(plain.needsQueryShape(), "a plain listener's events carry no query shape");
        assertFalse(plain.needsCommandSize());
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                .addSink(handOff).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoCollection<Document> users = server.client(listener).getDatabase("test").getCollection("users");
            users.insertOne(new Document("_id", 1).append("name", "x"));
            users.find(Filters.eq("name", "x")).first();
        }
        assertTrue(handOff.close(10, TimeUnit.SECONDS));
        plain.close();
        StartedCommand find = shapes.started.stream().filter(s -> s.getCommandName().equals("find")).findFirst().orElseThrow();
        assertTrue(String.valueOf(find.getQueryShapeHash()).matches("[0-9A-F]{64}"), find.toString());
        StartedCommand insert = shapes.started.stream().filter(s -> s.getCommandName().equals("insert")).findFirst().orElseThrow();
        assertEquals(0, insert.getCommandSize(), "nothing downstream reads the size of the plain top level: not counted");
        assertFalse(handOff.needsQueryShape(), "closed: every event would be dropped");
    }
}
