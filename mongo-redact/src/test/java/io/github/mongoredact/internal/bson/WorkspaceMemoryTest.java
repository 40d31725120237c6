package io.github.mongoredact.internal.bson;

import io.github.mongoredact.Allocations;
import io.github.mongoredact.DriverShapes.Backing;
import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.HeapUse;
import io.github.mongoredact.LastEventListener;
import io.github.mongoredact.RawBytes;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scratch space: small arrays stay with the thread, larger ones come from a shared pool of bounded size and go back to it
 * after the callback, arrays past the pool's bound are sized to the need and dropped.
 */
class WorkspaceMemoryTest {
    private static final int MIB = 1 << 20;
    private static final long POOL_BOUND = (long) Workspace.POOL_SLOTS * Workspace.MAX_POOLED_BYTES;

    @Test
    void smallScratchStaysWithTheThreadUpToItsBound() {
        Workspace workspace = new Workspace();
        byte[] small = workspace.scratch(Workspace.RETAINED_SCRATCH_BYTES);
        assertEquals(Workspace.RETAINED_SCRATCH_BYTES, small.length);
        workspace.release();
        assertSame(small, workspace.scratch(1000));
        workspace.release();
        assertSame(small, workspace.scratch(Workspace.RETAINED_SCRATCH_BYTES));
    }

    @Test
    void scratchAboveTheThreadBoundGoesBackToTheSharedPool() {
        Workspace.clearPool();
        Workspace first = new Workspace();
        byte[] array = first.scratch(MIB + 1);
        assertEquals(MIB + 64 * 1024, array.length);
        first.release();
        Workspace second = new Workspace();
        assertSame(array, second.scratch(MIB));
        // borrowed until released: a third thread gets another array
        Workspace third = new Workspace();
        byte[] other = third.scratch(MIB);
        assertNotSame(array, other);
        second.release();
        third.release();
    }

    @Test
    void poolHoldsBoundedBytesHoweverManyThreadsBorrowedAtOnce() {
        List<Workspace> workspaces = new ArrayList<>();
        for (int i = 0; i < 3 * Workspace.POOL_SLOTS; i++) {
            Workspace workspace = new Workspace();
            workspace.scratch(Workspace.MAX_POOLED_BYTES - i);
            workspaces.add(workspace);
        }
        for (Workspace workspace : workspaces) {
            workspace.release();
        }
        assertTrue(Workspace.pooledBytes() <= POOL_BOUND, "pooled=" + Workspace.pooledBytes());
        assertTrue(Workspace.pooledBytes() > 0);
    }

    @Test
    void scratchPastThePoolIsSizedToTheNeedAndNotKept() {
        Workspace.clearPool();
        Workspace workspace = new Workspace();
        byte[] twenty = workspace.scratch(20 * MIB);
        assertEquals(20 * MIB, twenty.length);
        byte[] larger = workspace.scratch(20 * MIB + 1);
        assertEquals(20 * MIB + 1, larger.length, "no growth by doubling");
        workspace.release();
        assertEquals(0, Workspace.pooledBytes());
        byte[] again = workspace.scratch(20 * MIB);
        assertNotSame(larger, again);
        workspace.release();
    }

    @Test
    void commandOf33MegabytesAllocatesItsOutputAndOneScratchOfItsSize() throws Exception {
        // the driver's shape of a large insert: a plain top level with the documents as byte-backed sequence documents, which
        // the walker needs gathered into one array where they are not in heap arrays. Run on a thread that already gathered
        // a 20 MiB command: the scratch must not grow by doubling (it did: 40 MiB), nor stay after the callback (it did, held
        // softly)
        thirtyThreeMegabytes(Backing.BYTE_BUF_DIRECT, true);
        // in heap arrays, the documents are walked where they lie: no scratch of the command's size at all
        thirtyThreeMegabytes(Backing.BYTE_BUF_HEAP_IN_MESSAGE, false);
    }

    private static void thirtyThreeMegabytes(final Backing backing, final boolean gathered) throws Exception {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(last).build();
        AtomicLong allocated = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        long heapBefore = HeapUse.settled();
        Thread thread = new Thread(() -> {
            try {
                allocated.set(twentyThenThirtyThreeMegabytes(listener, backing));
            } catch (Throwable e) {
                failure.set(e);
            }
            done.countDown();
            awaitQuietly(finish);
        });
        thread.start();
        done.await();
        // measured while the thread lives: what its workspace keeps counts
        long heapWhileAlive = HeapUse.settled();
        finish.countDown();
        thread.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        int output = RawBytes.length((RawBsonDocument) last.started.getCommand());
        System.out.println("memory: 33 MiB command (" + backing + ") after a 20 MiB one allocated " + allocated.get()
                + " bytes, output " + output + " bytes; heap after " + (heapWhileAlive - heapBefore) + " bytes more");
        assertEquals(0, listener.getCounters().getRedactionFailures());
        // one scratch of the command's size (documents plus their framing) where gathered, the output, the event: nothing
        // doubled
        long budget = (gathered ? 33L * (MIB + 64) : 0) + output + 256 * 1024;
        assertTrue(allocated.get() <= budget, "allocated=" + allocated.get() + " budget=" + budget);
        if (gathered) {
            assertTrue(allocated.get() >= 33L * MIB, "the scratch is needed: allocated=" + allocated.get());
        } else {
            assertTrue(allocated.get() >= output, "the output is counted: allocated=" + allocated.get());
        }
        assertTrue(heapWhileAlive - heapBefore < 8L * MIB, "kept " + (heapWhileAlive - heapBefore) + " bytes");
    }

    /** @return the bytes the listener allocated for the 33 MiB command (in a method of its own: its locals end here) */
    private static long twentyThenThirtyThreeMegabytes(final RedactingCommandListener listener, final Backing backing) {
        listener.commandStarted(DriverShapes.started(1, "insert", insert(20, backing)));
        BsonDocument command = insert(33, backing);
        long before = Allocations.allocatedBytes();
        listener.commandStarted(DriverShapes.started(2, "insert", command));
        return Allocations.allocatedBytes() - before;
    }

    private static void awaitQuietly(final CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return an insert of {@code megabytes} documents of 1 MiB each, as the driver hands it to listeners */
    private static BsonDocument insert(final int megabytes, final Backing backing) {
        byte[] blob = new byte[MIB];
        List<BsonDocument> documents = new ArrayList<>();
        for (int i = 0; i < megabytes; i++) {
            documents.add(new BsonDocument("_id", new BsonInt32(i)).append("blob", new BsonBinary(blob)));
        }
        BsonDocument top = new BsonDocument("insert", new BsonString("blobs")).append("ordered", new BsonInt32(1))
                .append("$db", new BsonString("shop"));
        return DriverShapes.withSequences(top, backing, "documents", documents);
    }
}
