package io.github.mongoredact;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import org.bson.Document;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Heap that stays with parked virtual threads after the sync driver ran the listener's callbacks on them, as a service with
 * one virtual thread per request runs it (Spring Boot's {@code spring.threads.virtual.enabled}, Quarkus'
 * {@code @RunOnVirtualThread}): issue 31, item 7.
 *
 * <p>Measured through the real driver and the embedded server over TCP, on one client whose listener is switched off and then
 * on ({@link ParkedThreads.Switch}): 10,000 virtual threads, a fresh one per command, each run one find by {@code _id}
 * (at most {@value #CONCURRENT} at a time, on a connection pool of at most {@value #POOL} connections) and then park. With
 * every one of them alive and parked, the live heap is read from the JVM's class histogram after full collections (the lowest
 * of {@value ParkedThreads#SAMPLES} readings, {@link ParkedThreads.LiveHeap}). Policy {@link RedactionPolicy#defaults()}, one
 * downstream listener that keeps the copy it is given (the latest of each kind). A warm-up run with the listener off fills the
 * driver's connection and buffer pools first; the listener's state made once (a pool shared by all threads, say) is counted
 * in the extra heap, since it is first used in the run with the listener.</p>
 *
 * <p>What is compared is the live heap besides the parked threads' stack chunks ({@code jdk.internal.vm.StackChunk}, the
 * frames of a parked virtual thread, kept on the heap) and the collector's filler arrays. The chunks' size says nothing of the
 * listener, whose frames are never on the stack of a thread parked after its command, and it varies by tens of MiB between
 * two runs of the same 10,000 threads with the listener off (measured: 58 to 86 MiB, one or two chunks a thread, by how far
 * the code was compiled and where each thread last parked inside the driver), while the rest of the live heap varied by less
 * than 50 KB. Per-thread state of the listener (thread locals, anything reachable from the thread) is in that rest. Both
 * figures, and the difference with the chunks counted, are printed.</p>
 *
 * <p>Bound: the 10,000 parked threads hold at most 8 MiB ({@code 8 << 20} bytes) more heap besides their stacks with the
 * listener than without it (below 840 bytes a thread). Virtual threads need JDK 21 or later, reached here through method
 * handles since the tests compile for release 11: on an older JVM the test is skipped with a message (the default
 * execution, JDK 17); the {@code driver-5.14-full-suite} execution runs it on JDK 25 (profile {@code java-25}, when
 * {@code JAVA25_HOME} is set). The class histogram is HotSpot's: on a JVM without it the test is skipped too.</p>
 */
class VirtualThreadMemoryTest {
    private static final int THREADS = 10_000;
    private static final int WARM_UP = 1_000;
    private static final int CONCURRENT = 4;
    private static final int POOL = 8;
    private static final int DOCUMENTS = 1_000;
    private static final long BOUND = 8L << 20;

    @Test
    void tenThousandParkedVirtualThreadsThatEachRanOneFindHoldAtMost8MegabytesMore() throws Throwable {
        assumeTrue(Runtime.version().feature() >= 21,
                "virtual threads need JDK 21 or later; this JVM is " + Runtime.version() + " (the JDK 25 execution runs this test)");
        assumeTrue(ParkedThreads.LiveHeap.available(), "the live heap is read from HotSpot's class histogram"
                + " (com.sun.management:type=DiagnosticCommand), which this JVM does not have: " + System.getProperty("java.vm.name"));
        ThreadFactory virtual = virtualThreads();
        assertTrue(isVirtual(virtual.newThread(() -> { })), "the factory makes virtual threads");

        ParkedThreads.KeepsLatestCopy downstream = new ParkedThreads.KeepsLatestCopy();
        RedactingCommandListener redacting = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(downstream).build();
        ParkedThreads.Switch listener = new ParkedThreads.Switch(redacting);
        try (EmbeddedServer server = new EmbeddedServer();
             MongoClient client = MongoClients.create(MongoClientSettings.builder()
                     .applyConnectionString(new ConnectionString(server.uri()))
                     .applyToConnectionPoolSettings(pool -> pool.maxSize(POOL))
                     .addCommandListener(listener).build())) {
            MongoCollection<Document> people = client.getDatabase("memory").getCollection("people");
            List<ObjectId> ids = new ArrayList<>(DOCUMENTS);
            List<Document> documents = new ArrayList<>(DOCUMENTS);
            for (int i = 0; i < DOCUMENTS; i++) {
                ObjectId id = new ObjectId();
                ids.add(id);
                documents.add(new Document("_id", id).append("name", "person " + i).append("email", "p" + i + "@example.com"));
            }
            people.insertMany(documents);
            AtomicInteger next = new AtomicInteger();
            Runnable findById = () -> {
                ObjectId id = ids.get(Math.floorMod(next.getAndIncrement(), DOCUMENTS));
                assertNotNull(people.find(new Document("_id", id)).first(), "found " + id);
            };

            long start = System.nanoTime();
            ParkedThreads.heldAfter(virtual, WARM_UP, CONCURRENT, findById);
            ParkedThreads.LiveHeap without = ParkedThreads.heldAfter(virtual, THREADS, CONCURRENT, findById,
                    ParkedThreads::lowestLiveBesidesStacks);
            long withoutDone = System.nanoTime();
            listener.on = true;
            ParkedThreads.LiveHeap with = ParkedThreads.heldAfter(virtual, THREADS, CONCURRENT, findById,
                    ParkedThreads::lowestLiveBesidesStacks);
            long withDone = System.nanoTime();
            long extra = with.besidesStacks() - without.besidesStacks();
            System.out.println("memory: " + THREADS + " parked virtual threads after one find by _id each (JDK "
                    + Runtime.version() + "): without listener " + without + "; with " + with + "; extra besides stacks "
                    + extra + " bytes (" + ParkedThreads.mebibytes(extra) + ", " + extra / THREADS + " bytes a thread), bound "
                    + BOUND + " bytes; extra with stacks " + (with.total - without.total) + " bytes ("
                    + ParkedThreads.mebibytes(with.total - without.total) + "); warm-up and run without "
                    + (withoutDone - start) / 1_000_000 + " ms, run with " + (withDone - withoutDone) / 1_000_000 + " ms");

            assertEquals(0, redacting.getCounters().getRedactionFailures());
            assertTrue(redacting.getCounters().getEventsForwarded() >= 2L * THREADS,
                    "events forwarded=" + redacting.getCounters().getEventsForwarded());
            assertEquals("find", downstream.started.getCommandName());
            assertNotNull(downstream.succeeded, "the downstream kept a reply");
            assertTrue(extra <= BOUND, "extra heap with the listener besides stacks=" + extra + " ("
                    + ParkedThreads.mebibytes(extra) + ") bound=" + BOUND + " for " + THREADS + " parked virtual threads");
        }
    }

    /** @return {@code Thread.ofVirtual().name("find-", 0).factory()}, through method handles (JDK 21+) */
    private static ThreadFactory virtualThreads() throws Throwable {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Class<?> builder = Class.forName("java.lang.Thread$Builder");
        Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
        Object virtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtual)).invoke();
        Object named = lookup.findVirtual(builder, "name", MethodType.methodType(builder, String.class, long.class))
                .invoke(virtual, "find-", 0L);
        return (ThreadFactory) lookup.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class)).invoke(named);
    }

    /** @return {@code thread.isVirtual()}, through a method handle (JDK 21+) */
    private static boolean isVirtual(final Thread thread) throws Throwable {
        return (boolean) MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class))
                .invoke(thread);
    }
}
