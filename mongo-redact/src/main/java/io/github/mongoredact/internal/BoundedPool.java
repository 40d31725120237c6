package io.github.mongoredact.internal;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * A bounded pool of reusable scratch objects shared by every thread: a callback borrows one, uses it, and gives it back before
 * it returns. Nothing is kept per thread, so memory does not grow with the number of threads, and a virtual thread costs what
 * a platform thread costs (the scratch a {@code ThreadLocal} would hold is made afresh for every new thread).
 *
 * <p>At most {@link #slots()} objects are kept, {@link #DEFAULT_SLOTS} unless told otherwise: a small multiple of the
 * cores, since only as many callbacks as there are running threads use a scratch at once (a count of slots is rounded up to
 * a power of two, so that a thread's first slot is its id masked). Borrowing never blocks: it takes the
 * first object it finds (one compare-and-set per slot tried, starting at a slot chosen by the thread's id so that threads
 * spread over the slots), or makes a fresh one when every slot is empty ({@link #created()} counts them). Giving back puts
 * the object into an empty slot, or drops it for the collector when every slot is full ({@link #dropped()}).</p>
 *
 * <p>The objects must hold nothing of a callback once given back (the borrower clears them); the pool never reads them.</p>
 *
 * @param <T> the scratch type
 */
public final class BoundedPool<T> {
    /** Slots of a pool unless told otherwise: twice the cores rounded up to a power of two, at least 4 and at most 64. */
    public static final int DEFAULT_SLOTS = powerOfTwo(Math.min(64, Math.max(4, 2 * Runtime.getRuntime().availableProcessors())));
    private final AtomicReferenceArray<T> slots;
    private final int mask;
    private final Supplier<T> factory;
    private final LongAdder created = new LongAdder();
    private final LongAdder dropped = new LongAdder();

    /** @param factory makes a fresh object when no slot holds one */
    public BoundedPool(final Supplier<T> factory) {
        this(factory, DEFAULT_SLOTS);
    }

    /**
     * @param factory makes a fresh object when no slot holds one
     * @param slots the most objects kept, 1 or more, rounded up to a power of two
     */
    public BoundedPool(final Supplier<T> factory, final int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be 1 or more, was " + slots);
        }
        this.factory = factory;
        this.slots = new AtomicReferenceArray<>(powerOfTwo(slots));
        this.mask = this.slots.length() - 1;
    }

    private static int powerOfTwo(final int count) {
        return count <= 1 ? 1 : Integer.highestOneBit(Math.min(count, 1 << 30) - 1) << 1;
    }

    /** @return an object now owned by the caller until {@link #giveBack}: a kept one, or a fresh one when none is free */
    public T borrow() {
        int at = start();
        for (int i = 0; i <= mask; i++) {
            T held = slots.get(at);
            if (held != null && slots.compareAndSet(at, held, null)) {
                return held;
            }
            at = (at + 1) & mask;
        }
        created.increment();
        return factory.get();
    }

    /** Keeps the object for a later {@link #borrow} in an empty slot; drops it when every slot is full. */
    public void giveBack(final T object) {
        int at = start();
        for (int i = 0; i <= mask; i++) {
            if (slots.get(at) == null && slots.compareAndSet(at, null, object)) {
                return;
            }
            at = (at + 1) & mask;
        }
        dropped.increment();
    }

    /** @return the most objects this pool keeps */
    public int slots() {
        return slots.length();
    }

    /** @return the objects made because no slot held one (the first of each slot included) */
    public long created() {
        return created.sum();
    }

    /** @return the objects given back while every slot was full, left to the collector */
    public long dropped() {
        return dropped.sum();
    }

    /** @return the objects kept now (tests and diagnostics; racy) */
    public int kept() {
        int count = 0;
        for (int i = 0; i < slots.length(); i++) {
            if (slots.get(i) != null) {
                count++;
            }
        }
        return count;
    }

    @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+; getId() is the same number
    private int start() {
        return (int) Thread.currentThread().getId() & mask;
    }
}
