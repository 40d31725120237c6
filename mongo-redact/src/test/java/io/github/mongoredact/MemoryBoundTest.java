package io.github.mongoredact;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.event.CommandListener;
import org.bson.Document;
import org.junit.jupiter.api.Test;

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
        ParkedThreads.Switch listener = new ParkedThreads.Switch(redacting);
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
        int[] named = {0};
        return ParkedThreads.heldAfter(task -> new Thread(task, "request-" + named[0]++), count, CONCURRENT,
                ParkedThreads.duplicateInsert(blobs, blob), HeapUse::settled);
    }
}
