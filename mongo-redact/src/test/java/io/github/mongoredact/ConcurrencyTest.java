package io.github.mongoredact;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.DriverShapes.Backing;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * One listener called from several driver threads at once: every thread gets exactly the output a lone call gives, with
 * commands small and large (a large one grows and then drops the thread's scratch array).
 */
class ConcurrencyTest {
    private static final int THREADS = 4;
    private static final int ROUNDS = 200;

    @Test
    void concurrentCallsForwardExactlyWhatSingleCallsForward() throws Exception {
        List<BsonDocument> inputs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            names.add("find");
            inputs.add(DriverShapes.byteBacked(new BsonDocument("find", new BsonString("c" + i))
                    .append("filter", new BsonDocument("email", new BsonString("user" + i + "@example.com"))
                            .append("n", new BsonDocument("$in", new BsonArray(Arrays.asList(new BsonInt32(i), new BsonInt64(i))))))
                    .append("$db", new BsonString("shop")), Backing.values()[i % Backing.values().length]));
        }
        for (int size : new int[]{1, 10, 200, 9_000}) {
            List<BsonDocument> documents = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                documents.add(new BsonDocument("email", new BsonString("bulk" + i + "@example.com"))
                        .append("score", new BsonDouble(i / 3.0)).append("pad", new BsonString("x".repeat(80))));
            }
            names.add("insert");
            inputs.add(DriverShapes.withSequences(new BsonDocument("insert", new BsonString("bulk" + size))
                    .append("$db", new BsonString("shop")), size % 2 == 0 ? Backing.BYTE_BUF_DIRECT : Backing.BYTE_BUF_HEAP,
                    "documents", documents));
        }
        for (RedactionPolicy policy : new RedactionPolicy[]{RedactionPolicy.defaults(), RedactionPolicy.specOnly()}) {
            byte[][] expected = new byte[inputs.size()][];
            for (int i = 0; i < inputs.size(); i++) {
                expected[i] = ExactCopyTest.startedBytes(policy, names.get(i), inputs.get(i));
            }
            AtomicInteger checked = new AtomicInteger();
            AtomicReference<String> mismatch = new AtomicReference<>();
            CommandListener checking = new CommandListener() {
                @Override
                public void commandStarted(final CommandStartedEvent event) {
                    int index = event.getRequestId() % inputs.size();
                    if (!Arrays.equals(expected[index], DriverShapes.ownedBytes(event.getCommand()))) {
                        mismatch.compareAndSet(null, "request " + event.getRequestId() + " " + event.getCommand().toJson());
                    }
                    checked.incrementAndGet();
                }

                @Override
                public void commandSucceeded(final CommandSucceededEvent event) {
                    checked.incrementAndGet();
                }
            };
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(checking).build();
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int r = 0; r < ROUNDS; r++) {
                        int index = (r * 7 + thread * 5) % inputs.size();
                        int requestId = (thread * ROUNDS + r) * inputs.size() + index;
                        listener.commandStarted(DriverShapes.started(requestId, names.get(index), inputs.get(index)));
                        listener.commandSucceeded(DriverShapes.succeeded(requestId, names.get(index), inputs.get(index)));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
            pool.shutdown();
            assertNull(mismatch.get());
            assertEquals(2 * THREADS * ROUNDS, checked.get());
            assertEquals(2L * THREADS * ROUNDS, listener.getCounters().getEventsForwarded());
            assertEquals(0, listener.getCounters().getRedactionFailures());
            assertEquals(0, listener.getCounters().getSinkFailures());
        }
    }

    @Test
    void sinkThatNeedsNoDocumentsGetsFactsWithoutCopies() {
        RecordingSink metricsLike = new RecordingSink(false, false);
        List<StartedCommand> started = metricsLike.started;
        List<CompletedCommand> completed = metricsLike.completed;
        RedactingCommandListener listener = RedactingCommandListener.builder().addSink(metricsLike).build();
        BsonDocument find = new BsonDocument("find", new BsonString("users"))
                .append("filter", new BsonDocument("email", new BsonString("a@example.com"))).append("$db", new BsonString("shop"));
        listener.commandStarted(DriverShapes.started(5, "find", DriverShapes.byteBacked(find, Backing.BYTE_BUF_HEAP)));
        BsonDocument reply = ExactCopyTest.findReply(ExactCopyTest.customers(2));
        listener.commandSucceeded(DriverShapes.succeeded(5, "find", DriverShapes.byteBacked(reply, Backing.RAW)));
        assertNull(started.get(0).getCommand());
        assertEquals("users", started.get(0).getCollectionName());
        assertEquals(DriverShapes.encode(find).length, started.get(0).getCommandSize());
        assertEquals(FingerprintTest.fingerprint("find", DriverShapes.byteBacked(find, Backing.RAW)),
                started.get(0).getFingerprint());
        assertNull(completed.get(0).getReply());
        assertEquals(DriverShapes.encode(reply).length, completed.get(0).getReplySize());
        assertEquals(true, completed.get(0).isStartKnown());
        assertEquals(0, listener.getCounters().getInFlight());
    }
}
