package io.github.mongoredact.internal;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * A bounded pool of reusable scratch objects shared by every thread: a callback borrows one, uses it, and gives it back before
 * it returns. Nothing is kept per thread, so memory does not grow with the number of threads, and a virtual thread costs what
 * a platform thread costs (the scratch a {@code ThreadLocal} would hold is made afresh for every new thread).
 *
 * <p>At most {@link #slots()} objects are kept, {@link #DEFAULT_SLOTS} unless told otherwise: a small multiple of the
 * cores, since only as many callbacks as there are running threads use a scratch at once (a count of slots is rounded up to
 * a power of two, so that a thread's first slot is its id masked). Each slot owns the one object it made, the first time a
 * borrower took the slot, for the pool's life: borrowing takes a free slot (one compare-and-set of its flag per slot tried,
 * starting at a slot chosen by the thread's id so that threads spread over the slots) and never blocks; when every slot is
 * taken it makes a fresh object that belongs to none ({@link #created()} counts every object made). Giving back frees the
 * object's slot by a plain ordered write of its flag, or drops an object of no slot for the collector ({@link #dropped()}).
 * Neither moves a reference: a reference stored into a long-lived array costs the collector's write barrier, a flag does
 * not.</p>
 *
 * <p>The objects must hold nothing of a callback once given back (the borrower clears them); the pool never reads them.</p>
 *
 * @param <T> the scratch type
 */
public final class BoundedPool<T> {
    /** Slots of a pool unless told otherwise: twice the cores rounded up to a power of two, at least 4 and at most 64. */
    public static final int DEFAULT_SLOTS = powerOfTwo(Math.min(64, Math.max(4, 2 * Runtime.getRuntime().availableProcessors())));
    /** Ints between two slots' flags: one flag a 64-byte cache line, so that threads on different slots do not share one. */
    private static final int FLAG_STRIDE = 16;
    private static final int FREE = 0;
    private static final int TAKEN = 1;
    /**
     * Per slot, its object once made, written only by the borrower that holds the slot's flag and read after taking it, so
     * that the flag's compare-and-set and ordered write carry it from thread to thread.
     */
    private final Object[] objects;
    /** Per slot, at {@code FLAG_STRIDE * slot}: {@code FREE} or {@code TAKEN}. */
    private final AtomicIntegerArray flags;
    private final int mask;
    private final Supplier<T> factory;
    private final LongAdder created = new LongAdder();
    private final LongAdder dropped = new LongAdder();

    /** @param factory makes a fresh object for a slot that has none, or when every slot is taken */
    public BoundedPool(final Supplier<T> factory) {
        this(factory, DEFAULT_SLOTS);
    }

    /**
     * @param factory makes a fresh object for a slot that has none, or when every slot is taken
     * @param slots the most objects kept, 1 or more, rounded up to a power of two
     */
    public BoundedPool(final Supplier<T> factory, final int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be 1 or more, was " + slots);
        }
        this.factory = factory;
        int count = powerOfTwo(slots);
        this.objects = new Object[count];
        this.flags = new AtomicIntegerArray(count * FLAG_STRIDE);
        this.mask = count - 1;
    }

    private static int powerOfTwo(final int count) {
        return count <= 1 ? 1 : Integer.highestOneBit(Math.min(count, 1 << 30) - 1) << 1;
    }

    /**
     * @return an object now owned by the caller until {@link #giveBack}: a free slot's (made when the slot has none yet), or a
     *         fresh one of no slot when every slot is taken
     */
    @SuppressWarnings("unchecked") // a slot holds only what the factory made
    public T borrow() {
        int at = start();
        for (int i = 0; i <= mask; i++) {
            int flag = at * FLAG_STRIDE;
            if (flags.get(flag) == FREE && flags.compareAndSet(flag, FREE, TAKEN)) {
                T held = (T) objects[at];
                if (held == null) {
                    held = makeFor(flag);
                    objects[at] = held;
                }
                return held;
            }
            at = (at + 1) & mask;
        }
        return make();
    }

    private T make() {
        created.increment();
        return factory.get();
    }

    /** Makes the object of the slot whose flag is at {@code flag}, which the caller took; a factory that throws frees it. */
    private T makeFor(final int flag) {
        try {
            return make();
        } catch (RuntimeException | Error e) {
            flags.lazySet(flag, FREE);
            throw e;
        }
    }

    /** Frees the object's slot for a later {@link #borrow}; drops an object of no slot. */
    public void giveBack(final T object) {
        int at = start();
        for (int i = 0; i <= mask; i++) {
            // only this slot's borrower wrote this object here; another slot's object is never this one, read stale or not
            if (objects[at] == object) {
                flags.lazySet(at * FLAG_STRIDE, FREE);
                return;
            }
            at = (at + 1) & mask;
        }
        dropped.increment();
    }

    /** @return the most objects this pool keeps */
    public int slots() {
        return objects.length;
    }

    /** @return the objects made: the first of each slot, and those made while every slot was taken */
    public long created() {
        return created.sum();
    }

    /** @return the objects given back that belong to no slot, left to the collector */
    public long dropped() {
        return dropped.sum();
    }

    /** @return the objects kept and free now (tests and diagnostics; racy) */
    public int kept() {
        int count = 0;
        for (int i = 0; i < objects.length; i++) {
            if (flags.get(i * FLAG_STRIDE) == FREE && objects[i] != null) {
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
