package io.github.mongoredact.handoff;

import com.mongodb.lang.Nullable;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A bounded, lock-free queue for many producers and one consumer (after Dmitry Vyukov's bounded queue: one sequence number
 * per slot). {@link #offer} never blocks, never takes a lock and never allocates: when the ring is full it returns false at
 * once. The ring can be closed: closing sets a bit in the producers' position with the same compare-and-set they use, so that
 * after {@link #close()} no offer can succeed, and the consumer knows exactly how many elements were accepted.
 *
 * <p>Threading: {@link #offer} from any thread; {@link #poll}, {@link #isDrained()} from one consumer thread only.</p>
 */
final class MpscRing {
    private static final long CLOSED = 1L << 62;
    private final int mask;
    private final AtomicReferenceArray<Object> slots;
    private final AtomicLongArray sequences;
    private final AtomicLong tail = new AtomicLong();
    private final AtomicLong head = new AtomicLong();

    /** @param capacity a power of two, 2 or more */
    MpscRing(final int capacity) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two, 2 or more, was " + capacity);
        }
        this.mask = capacity - 1;
        this.slots = new AtomicReferenceArray<>(capacity);
        this.sequences = new AtomicLongArray(capacity);
        for (int i = 0; i < capacity; i++) {
            sequences.set(i, i);
        }
    }

    /** @return false when full or closed; lock-free, allocation-free */
    boolean offer(final Object element) {
        while (true) {
            long position = tail.get();
            if ((position & CLOSED) != 0) {
                return false;
            }
            int index = (int) position & mask;
            long sequence = sequences.get(index);
            long difference = sequence - position;
            if (difference == 0) {
                if (tail.compareAndSet(position, position + 1)) {
                    slots.lazySet(index, element);
                    sequences.set(index, position + 1);
                    return true;
                }
            } else if (difference < 0) {
                return false;
            }
            // else another producer took this position: reread
        }
    }

    /** @return the next element, or null when none is published yet; consumer only */
    @Nullable
    Object poll() {
        long position = head.get();
        int index = (int) position & mask;
        if (sequences.get(index) != position + 1) {
            return null;
        }
        Object element = slots.get(index);
        slots.lazySet(index, null);
        sequences.set(index, position + mask + 1);
        head.lazySet(position + 1);
        return element;
    }

    /** Stops accepting: every later offer fails. Idempotent. */
    void close() {
        while (true) {
            long position = tail.get();
            if ((position & CLOSED) != 0 || tail.compareAndSet(position, position | CLOSED)) {
                return;
            }
        }
    }

    boolean isClosed() {
        return (tail.get() & CLOSED) != 0;
    }

    /** @return true when closed and every accepted element was polled; consumer only */
    boolean isDrained() {
        long position = tail.get();
        return (position & CLOSED) != 0 && head.get() == (position & ~CLOSED);
    }

    /** @return the number of elements accepted and not yet polled (approximate while producers run) */
    int size() {
        long size = (tail.get() & ~CLOSED) - head.get();
        return (int) Math.max(0, Math.min(size, mask + 1));
    }

    int capacity() {
        return mask + 1;
    }
}
