package io.github.mongoredact.micrometer;

import com.mongodb.connection.ServerId;
import com.mongodb.lang.Nullable;

/**
 * A front for the sink's nested meter maps: the meters of a key (server, database, collection, command) found by one hash and
 * four comparisons, rather than a map lookup per level. Direct-mapped, {@link #SLOTS} entries, a key taking only an empty slot:
 * so it never evicts, and a steady mix of keys allocates nothing; keys that find their slot taken use the nested maps.
 * Thread-safe: entries are immutable and published through a plain array (a racing reader may miss and use the maps).
 *
 * @param <V> the type of the values
 */
final class RecentKeys<V> {
    static final int SLOTS = 256;
    private final Entry<?>[] entries = new Entry<?>[SLOTS];

    /** @return the value of the key, or null; allocation-free */
    @Nullable
    @SuppressWarnings("unchecked") // only put stores, and it takes a V
    V get(final ServerId server, final String database, final String collection, final String command) {
        Entry<?> entry = entries[slot(database, collection, command)];
        if (entry != null && same(entry.command, command) && same(entry.collection, collection)
                && same(entry.database, database) && (entry.server == server || entry.server.equals(server))) {
            return (V) entry.value;
        }
        return null;
    }

    /** Remembers the value of the key if its slot is free. */
    void put(final ServerId server, final String database, final String collection, final String command, final V value) {
        int slot = slot(database, collection, command);
        if (entries[slot] == null) {
            entries[slot] = new Entry<>(server, database, collection, command, value);
        }
    }

    private static boolean same(final String held, final String name) {
        // equals answers at once for the same instance, the usual case: the driver's and the listener's own strings
        return held.equals(name);
    }

    private static int slot(final String database, final String collection, final String command) {
        int h = (database.hashCode() * 31 + collection.hashCode()) * 31 + command.hashCode();
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }

    private static final class Entry<V> {
        final ServerId server;
        final String database;
        final String collection;
        final String command;
        final V value;

        Entry(final ServerId server, final String database, final String collection, final String command, final V value) {
            this.server = server;
            this.database = database;
            this.collection = collection;
            this.command = command;
            this.value = value;
        }
    }
}
