package io.github.mongoredact;

import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Heap that stays with long-lived application threads after the sync driver ran the listener's callbacks on them, measured
 * through the real driver and the embedded server: the same client and the same threads' work with the listener switched off,
 * then on, each time with every thread alive and parked after its command.
 */
class MemoryBoundTest {
    private static final int THREADS = 200;
    private static final int CONCURRENT = 4;
    private static final int BLOB = 1_000_000;
    private static final long BOUND = 48L << 20;

    @Test
    void requestThreadsThatEachSentOneMegabyteCommandHoldAtMost48MegabytesMore() throws Exception {
        RedactingCommandListener redacting = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(new CommandListener() { }).build();
        Switch listener = new Switch(redacting);
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(listener);
            MongoCollection<Document> blobs = client.getDatabase("memory").getCollection("blobs");
            blobs.insertOne(new Document("_id", 0));
            // every insert repeats _id 0: the server refuses it (a write error in an ok reply) and keeps none of the blobs,
            // while the driver sends the whole ~1 MB document, which the listener gathers and redacts
            String blob = "x".repeat(BLOB);
            // a first, smaller run fills the driver's connection pool and buffer pool, which both measured runs then share
            heldByParkedThreads(blobs, blob, THREADS / 10);
            long without = heldByParkedThreads(blobs, blob, THREADS);
            listener.on = true;
            long with = heldByParkedThreads(blobs, blob, THREADS);
            long extra = with - without;
            System.out.println("memory: " + THREADS + " threads after one " + BLOB + " byte insert each: without listener "
                    + without + " bytes, with " + with + " bytes, extra " + extra + " bytes");
            assertEquals(0, redacting.getCounters().getRedactionFailures());
            assertTrue(redacting.getCounters().getEventsForwarded() >= 2L * THREADS,
                    "events forwarded=" + redacting.getCounters().getEventsForwarded());
            assertTrue(extra <= BOUND, "extra heap with the listener=" + extra + " bound=" + BOUND);
        }
    }

    /** @return heap in use while {@code count} threads, each after one insert of the blob, are parked */
    private static long heldByParkedThreads(final MongoCollection<Document> blobs, final String blob, final int count)
            throws Exception {
        Semaphore sending = new Semaphore(CONCURRENT);
        CountDownLatch sent = new CountDownLatch(count);
        CountDownLatch finish = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Thread thread = new Thread(() -> {
                try {
                    sending.acquire();
                    try {
                        blobs.insertOne(new Document("_id", 0).append("blob", blob));
                        failure.compareAndSet(null, new AssertionError("duplicate _id accepted"));
                    } catch (MongoWriteException expected) {
                        // the duplicate key: the command went out whole
                    } finally {
                        sending.release();
                    }
                    sent.countDown();
                    finish.await();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    sent.countDown();
                }
            }, "request-" + i);
            thread.start();
            threads.add(thread);
        }
        sent.await();
        long held = HeapUse.settled();
        finish.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        return held;
    }

    /** Forwards to the listener only when on, so that both runs share one client, its pool and its buffers. */
    private static final class Switch implements CommandListener {
        private final CommandListener listener;
        volatile boolean on;

        Switch(final CommandListener listener) {
            this.listener = listener;
        }

        @Override
        public void commandStarted(final CommandStartedEvent event) {
            if (on) {
                listener.commandStarted(event);
            }
        }

        @Override
        public void commandSucceeded(final CommandSucceededEvent event) {
            if (on) {
                listener.commandSucceeded(event);
            }
        }

        @Override
        public void commandFailed(final CommandFailedEvent event) {
            if (on) {
                listener.commandFailed(event);
            }
        }
    }
}
