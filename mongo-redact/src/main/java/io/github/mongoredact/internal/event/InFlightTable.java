package io.github.mongoredact.internal.event;

import com.mongodb.lang.Nullable;

import java.util.concurrent.atomic.LongAdder;

/**
 * Started commands waiting for their completion, keyed by connection and request id. Bounded: when full, the oldest entry is
 * evicted and counted, so a completion that never comes can not leak. Its critical sections are a few array operations under
 * one lock and never call out, so a driver thread waits at most for another driver thread's bookkeeping, never for a sink.
 * Allocation-free after construction.
 *
 * @param <V> the type of the entries
 */
final class InFlightTable<V> {
    private final Stripe table;
    private final LongAdder evictions = new LongAdder();

    InFlightTable(final int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be 1 or more, was " + capacity);
        }
        table = new Stripe(capacity);
    }

    static long key(final long connectionId, final int requestId) {
        return connectionId << 32 ^ (requestId & 0xffffffffL);
    }

    void put(final long key, final V value) {
        if (table.put(key, value, false)) {
            evictions.increment();
        }
    }

    /** {@link #put}, and counts one event in {@link #counted()} under the same lock, which costs no atomic operation more. */
    void putAndCount(final long key, final V value) {
        if (table.put(key, value, true)) {
            evictions.increment();
        }
    }

    @Nullable
    @SuppressWarnings("unchecked") // only put stores, and it takes a V
    V remove(final long key) {
        return (V) table.remove(key, false);
    }

    /** {@link #remove}, and counts one event in {@link #counted()} under the same lock (whether or not the key was there). */
    @Nullable
    @SuppressWarnings("unchecked") // only put stores, and it takes a V
    V removeAndCount(final long key) {
        return (V) table.remove(key, true);
    }

    /** @return the events counted by {@link #putAndCount} and {@link #removeAndCount} */
    long counted() {
        return table.counted();
    }

    long evictions() {
        return evictions.sum();
    }

    int size() {
        return table.size();
    }

    /** A bounded hash map in arrays with chained buckets and an insertion-ordered list for eviction. */
    private static final class Stripe {
        private final int capacity;
        private final int[] buckets;
        private final long[] keys;
        private final Object[] values;
        private final int[] chain;
        private final int[] older;
        private final int[] newer;
        private int free;
        private int oldest = -1;
        private int newest = -1;
        private int size;
        private long counted;

        Stripe(final int capacity) {
            this.capacity = capacity;
            int bucketCount = Integer.highestOneBit(Math.max(2, capacity * 2 - 1)) << 1;
            buckets = new int[bucketCount];
            java.util.Arrays.fill(buckets, -1);
            keys = new long[capacity];
            values = new Object[capacity];
            chain = new int[capacity];
            older = new int[capacity];
            newer = new int[capacity];
            for (int i = 0; i < capacity; i++) {
                chain[i] = i + 1 < capacity ? i + 1 : -1;
            }
            free = 0;
        }

        /** @return true if an entry was evicted to make room */
        synchronized boolean put(final long key, final Object value, final boolean count) {
            if (count) {
                counted++;
            }
            int existing = find(key);
            if (existing >= 0) {
                values[existing] = value;
                return false;
            }
            boolean evicted = false;
            if (size == capacity) {
                removeSlot(oldest);
                evicted = true;
            }
            int slot = free;
            free = chain[slot];
            keys[slot] = key;
            values[slot] = value;
            int bucket = bucket(key);
            chain[slot] = buckets[bucket];
            buckets[bucket] = slot;
            older[slot] = newest;
            newer[slot] = -1;
            if (newest >= 0) {
                newer[newest] = slot;
            }
            newest = slot;
            if (oldest < 0) {
                oldest = slot;
            }
            size++;
            return evicted;
        }

        @Nullable
        synchronized Object remove(final long key, final boolean count) {
            if (count) {
                counted++;
            }
            int slot = find(key);
            if (slot < 0) {
                return null;
            }
            Object value = values[slot];
            removeSlot(slot);
            return value;
        }

        synchronized int size() {
            return size;
        }

        synchronized long counted() {
            return counted;
        }

        private int find(final long key) {
            for (int slot = buckets[bucket(key)]; slot >= 0; slot = chain[slot]) {
                if (keys[slot] == key) {
                    return slot;
                }
            }
            return -1;
        }

        private void removeSlot(final int slot) {
            int bucket = bucket(keys[slot]);
            if (buckets[bucket] == slot) {
                buckets[bucket] = chain[slot];
            } else {
                int previous = buckets[bucket];
                while (chain[previous] != slot) {
                    previous = chain[previous];
                }
                chain[previous] = chain[slot];
            }
            if (older[slot] >= 0) {
                newer[older[slot]] = newer[slot];
            } else {
                oldest = newer[slot];
            }
            if (newer[slot] >= 0) {
                older[newer[slot]] = older[slot];
            } else {
                newest = older[slot];
            }
            values[slot] = null;
            chain[slot] = free;
            free = slot;
            size--;
        }

        /**
         * The bucket of a key: the low bits of its request id, as they are. The driver numbers the requests of all its
         * connections from one counter, so the commands in flight fall into buckets of their own, and a command's bucket
         * lies on the cache line of the one before it: hashed, every start read a line of the table that no recent command
         * had touched (in the round trip, the largest share of the listener's own time).
         */
        private int bucket(final long key) {
            return (int) key & (buckets.length - 1);
        }
    }
}
