package io.github.mongoredact;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The listener's heap does not grow with the number of application threads it ran on: issue 31, item 7 ("50 and 400 platform
 * threads after a 1 MB insert each hold the same within 6 MB").
 *
 * <p>Interpretation: what the listener adds to the heap held by parked platform threads, {@code extra(n) = with(n) -
 * without(n)}, is the same at 50 and at 400 threads within 6 MiB: {@code |extra(400) - extra(50)| <= 6 MiB}. That is also
 * {@code |(with(400) - with(50)) - (without(400) - without(50))|}: the 350 more threads hold no more than 6 MiB more because of
 * the listener (below 18 KiB a thread), so nothing the size of a 1 MB command's scratch stays with each thread. The listener's
 * state made once (a pool shared by all threads) is in both {@code with} figures and cancels out; {@link MemoryBoundTest}
 * bounds the whole extra at 200 threads.</p>
 *
 * <p>Measured through the real driver and the embedded server over TCP, on one client whose listener is switched off and then
 * on ({@link ParkedThreads.Switch}): each of {@code n} new platform threads sends one insert of a ~1 MB document (at most
 * {@value #CONCURRENT} at a time, on a connection pool of at most {@value #POOL} connections) and parks; with all of them alive
 * and parked, the heap in use is read after full collections (the lowest of {@value ParkedThreads#SAMPLES} settled readings).
 * Every insert repeats {@code _id} 0, so the server refuses it (a write error in an ok reply) and keeps none of the blobs,
 * while the driver sends the whole document, which the listener gathers and redacts. Policy {@link RedactionPolicy#defaults()},
 * one downstream listener that keeps the copy it is given. Order: a warm-up with the listener off (fills the driver's pools),
 * without at 50 and 400 threads, then with at 50 and 400.</p>
 */
class PlatformThreadMemoryTest {
    private static final int FEW = 50;
    private static final int MANY = 400;
    private static final int WARM_UP = 40;
    private static final int CONCURRENT = 4;
    private static final int POOL = 8;
    private static final int BLOB = 1_000_000;
    private static final long BOUND = 6L << 20;

    @Test
    void fiftyAndFourHundredThreadsAfterAOneMegabyteInsertEachHoldTheSameExtraWithin6Megabytes() throws Exception {
        ParkedThreads.KeepsLatestCopy downstream = new ParkedThreads.KeepsLatestCopy();
        RedactingCommandListener redacting = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(downstream).build();
        ParkedThreads.Switch listener = new ParkedThreads.Switch(redacting);
        try (EmbeddedServer server = new EmbeddedServer();
             MongoClient client = MongoClients.create(MongoClientSettings.builder()
                     .applyConnectionString(new ConnectionString(server.uri()))
                     .applyToConnectionPoolSettings(pool -> pool.maxSize(POOL))
                     .addCommandListener(listener).build())) {
            MongoCollection<Document> blobs = client.getDatabase("memory").getCollection("blobs");
            blobs.insertOne(new Document("_id", 0));
            String blob = "x".repeat(BLOB);
            Runnable insert = ParkedThreads.duplicateInsert(blobs, blob);
            AtomicInteger named = new AtomicInteger();
            ThreadFactory platform = task -> new Thread(task, "request-" + named.getAndIncrement());

            long start = System.nanoTime();
            ParkedThreads.heldAfter(platform, WARM_UP, CONCURRENT, insert);
            long withoutFew = ParkedThreads.heldAfter(platform, FEW, CONCURRENT, insert);
            long withoutMany = ParkedThreads.heldAfter(platform, MANY, CONCURRENT, insert);
            long withoutDone = System.nanoTime();
            listener.on = true;
            long withFew = ParkedThreads.heldAfter(platform, FEW, CONCURRENT, insert);
            long withMany = ParkedThreads.heldAfter(platform, MANY, CONCURRENT, insert);
            long withDone = System.nanoTime();
            long extraFew = withFew - withoutFew;
            long extraMany = withMany - withoutMany;
            long growth = extraMany - extraFew;
            System.out.println("memory: platform threads parked after one " + BLOB + " byte insert each (JDK " + Runtime.version()
                    + "): " + FEW + " threads without listener " + withoutFew + " bytes (" + ParkedThreads.mebibytes(withoutFew)
                    + "), with " + withFew + " (" + ParkedThreads.mebibytes(withFew) + "), extra " + extraFew + " ("
                    + ParkedThreads.mebibytes(extraFew) + "); " + MANY + " threads without " + withoutMany + " ("
                    + ParkedThreads.mebibytes(withoutMany) + "), with " + withMany + " (" + ParkedThreads.mebibytes(withMany)
                    + "), extra " + extraMany + " (" + ParkedThreads.mebibytes(extraMany) + "); extra(" + MANY + ") - extra("
                    + FEW + ") = " + growth + " bytes (" + ParkedThreads.mebibytes(growth) + ", " + growth / (MANY - FEW)
                    + " bytes a thread), bound +-" + BOUND + "; runs without " + (withoutDone - start) / 1_000_000
                    + " ms, with " + (withDone - withoutDone) / 1_000_000 + " ms");

            assertEquals(0, redacting.getCounters().getRedactionFailures());
            assertTrue(redacting.getCounters().getEventsForwarded() >= 2L * (FEW + MANY),
                    "events forwarded=" + redacting.getCounters().getEventsForwarded());
            assertEquals("insert", downstream.started.getCommandName());
            assertTrue(Math.abs(growth) <= BOUND, "extra heap with the listener at " + MANY + " threads=" + extraMany + ", at "
                    + FEW + " threads=" + extraFew + ": differ by " + growth + " (" + ParkedThreads.mebibytes(growth)
                    + ") bound=" + BOUND);
        }
    }
}
