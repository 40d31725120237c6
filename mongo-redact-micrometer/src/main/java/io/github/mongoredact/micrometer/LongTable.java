package io.github.mongoredact.micrometer;

import com.mongodb.lang.Nullable;

import java.util.function.LongFunction;

/**
 * A map from {@code long} to values without boxing: reads are lock-free and allocation-free (one volatile read of an
 * immutable snapshot), insertions copy the snapshot under a lock. Meant for small, slowly growing key sets such as error codes
 * and query-shape fingerprints. Thread-safe.
 *
 * @param <V> the value type
 */
final class LongTable<V> {
    private volatile Snapshot snapshot = new Snapshot(new long[2], new Object[2], 0);

    /** @return the value of the key, or null; allocation-free */
    @Nullable
    @SuppressWarnings("unchecked")
    V get(final long key) {
        Snapshot current = snapshot;
        long[] keys = current.keys;
        Object[] values = current.values;
        int mask = keys.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            Object value = values[i];
            if (value == null) {
                return null;
            }
            if (keys[i] == key) {
                return (V) value;
            }
        }
    }

    /** @return the value of the key, made by {@code factory} and added when absent */
    V computeIfAbsent(final long key, final LongFunction<V> factory) {
        V value = get(key);
        if (value != null) {
            return value;
        }
        synchronized (this) {
            value = get(key);
            if (value != null) {
                return value;
            }
            value = factory.apply(key);
            Snapshot current = snapshot;
            int size = current.size + 1;
            int capacity = current.keys.length;
            while (size * 2 > capacity) {
                capacity *= 2;
            }
            long[] keys = new long[capacity];
            Object[] values = new Object[capacity];
            for (int i = 0; i < current.keys.length; i++) {
                if (current.values[i] != null) {
                    put(keys, values, current.keys[i], current.values[i]);
                }
            }
            put(keys, values, key, value);
            snapshot = new Snapshot(keys, values, size);
            return value;
        }
    }

    /** @return the number of keys */
    int size() {
        return snapshot.size;
    }

    private static void put(final long[] keys, final Object[] values, final long key, final Object value) {
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (values[i] != null) {
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
    }

    private static int slot(final long key, final int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    private static final class Snapshot {
        final long[] keys;
        final Object[] values;
        final int size;

        Snapshot(final long[] keys, final Object[] values, final int size) {
            this.keys = keys;
            this.values = values;
            this.size = size;
        }
    }
}
