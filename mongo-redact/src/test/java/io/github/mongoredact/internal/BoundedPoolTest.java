package io.github.mongoredact.internal;

import io.github.mongoredact.Allocations;
import io.github.mongoredact.internal.walk.DocumentRedactor;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BoundedPoolTest {

    @Test
    void borrowsWhatWasGivenBackAndCountsWhatItMakesAndDrops() {
        BoundedPool<Object> pool = new BoundedPool<>(Object::new, 2);
        Object first = pool.borrow();
        Object second = pool.borrow();
        Object third = pool.borrow();
        assertEquals(3, pool.created(), "every slot was empty");
        pool.giveBack(first);
        pool.giveBack(second);
        pool.giveBack(third);
        assertEquals(2, pool.kept());
        assertEquals(1, pool.dropped(), "the third found every slot full");
        Object again = pool.borrow();
        Object againToo = pool.borrow();
        assertTrue((again == first || again == second) && (againToo == first || againToo == second), "the kept ones");
        assertNotSame(again, againToo);
        assertEquals(3, pool.created(), "none made while one was kept");
        assertEquals(0, pool.kept());
    }

    @Test
    void aSlotLendsTheObjectItMadeAndAnObjectOfNoSlotIsDropped() {
        BoundedPool<Object> pool = new BoundedPool<>(Object::new, 1);
        Object slot = pool.borrow();
        Object extra = pool.borrow();
        assertNotSame(slot, extra);
        assertEquals(2, pool.created());
        pool.giveBack(extra);
        assertEquals(1, pool.dropped(), "the object made while the slot was taken belongs to no slot");
        assertEquals(0, pool.kept());
        pool.giveBack(slot);
        assertEquals(1, pool.kept());
        for (int i = 0; i < 3; i++) {
            Object again = pool.borrow();
            assertSame(slot, again, "the slot lends the object it made");
            pool.giveBack(again);
        }
        pool.giveBack(new Object());
        assertEquals(2, pool.dropped(), "an object the pool did not lend is dropped");
        assertEquals(2, pool.created());
        assertEquals(1, pool.kept());
    }

    @Test
    void aFactoryThatThrowsLeavesItsSlotFree() {
        AtomicInteger calls = new AtomicInteger();
        BoundedPool<Object> pool = new BoundedPool<>(() -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("no memory for a scratch");
            }
            return new Object();
        }, 1);
        IllegalStateException e = assertThrows(IllegalStateException.class, pool::borrow);
        assertEquals("no memory for a scratch", e.getMessage());
        Object made = pool.borrow();
        pool.giveBack(made);
        assertEquals(0, pool.dropped(), "the slot was free again: the second object is the slot's");
        assertSame(made, pool.borrow());
    }

    @Test
    void roundsItsSlotsUpToAPowerOfTwo() {
        assertEquals(1, new BoundedPool<>(Object::new, 1).slots());
        assertEquals(4, new BoundedPool<>(Object::new, 3).slots());
        assertEquals(8, new BoundedPool<>(Object::new, 5).slots());
        assertEquals(8, new BoundedPool<>(Object::new, 8).slots());
    }

    @Test
    void refusesAPoolWithoutSlots() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new BoundedPool<>(Object::new, 0));
        assertEquals("slots must be 1 or more, was 0", e.getMessage());
    }

    @Test
    void hasTwiceTheCoresBetweenFourAndSixtyFourSlotsInAPowerOfTwo() {
        int twice = Math.min(64, Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));
        int expected = Integer.bitCount(twice) == 1 ? twice : Integer.highestOneBit(twice) << 1;
        assertEquals(expected, BoundedPool.DEFAULT_SLOTS);
        assertEquals(expected, new BoundedPool<>(Object::new).slots());
    }

    /** Many threads borrowing at once: an object is never held by two of them, and the pool never keeps more than its slots. */
    @Test
    void neverLendsOneObjectTwiceAndKeepsAtMostItsSlots() throws Exception {
        BoundedPool<AtomicBoolean> pool = new BoundedPool<>(AtomicBoolean::new, 4);
        int threads = 16;
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger rounds = new AtomicInteger();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < 20_000; i++) {
                        AtomicBoolean held = pool.borrow();
                        if (!held.compareAndSet(false, true)) {
                            throw new AssertionError("lent while held");
                        }
                        held.set(false);
                        pool.giveBack(held);
                        rounds.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            thread.start();
            started.add(thread);
        }
        start.countDown();
        for (Thread thread : started) {
            thread.join();
        }
        assertNull(failure.get());
        assertEquals(threads * 20_000, rounds.get());
        assertTrue(pool.kept() <= 4, "kept " + pool.kept());
        assertEquals(pool.created() - pool.dropped(), pool.kept(), "made = kept + dropped");
    }

    /** A thread that finds no free redactor makes a small fresh one: its frames grow with the depth it meets. */
    @Test
    void aFreshRedactorIsSmall() {
        for (int i = 0; i < 3; i++) {
            new DocumentRedactor();
        }
        long before = Allocations.allocatedBytes();
        DocumentRedactor fresh = new DocumentRedactor();
        long bytes = Allocations.allocatedBytes() - before;
        System.out.println("a fresh redactor: " + bytes + " bytes");
        assertTrue(bytes <= 16 * 1024, "a fresh " + fresh.getClass().getSimpleName() + " took " + bytes + " bytes");
    }
}
