package io.github.mongoredact.micrometer;

import com.mongodb.ServerAddress;
import com.mongodb.connection.ClusterId;
import com.mongodb.connection.ServerId;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The front of the meter maps answers only for the exact key it holds, and never evicts. */
class RecentKeysTest {
    private static final ClusterId CLUSTER = new ClusterId("c");
    private static final ServerId SERVER = new ServerId(CLUSTER, new ServerAddress("h", 1));

    @Test
    void answersForEqualKeysOnly() {
        RecentKeys<String> keys = new RecentKeys<>();
        keys.put(SERVER, "db", "users", "find", "meters");
        assertEquals("meters", keys.get(SERVER, "db", "users", "find"));
        assertEquals("meters", keys.get(new ServerId(CLUSTER, new ServerAddress("h", 1)), new String("db"),
                new String("users"), new String("find")), "equal, not the same instances");
        assertNull(keys.get(new ServerId(CLUSTER, new ServerAddress("h", 2)), "db", "users", "find"));
        assertNull(keys.get(SERVER, "db2", "users", "find"));
        assertNull(keys.get(SERVER, "db", "orders", "find"));
        assertNull(keys.get(SERVER, "db", "users", "insert"));
    }

    @Test
    void aTakenSlotKeepsItsKey() {
        RecentKeys<String> keys = new RecentKeys<>();
        keys.put(SERVER, "db", "users", "find", "first");
        keys.put(SERVER, "db", "users", "find", "second");
        assertEquals("first", keys.get(SERVER, "db", "users", "find"));
        int held = 0;
        for (int i = 0; i < RecentKeys.SLOTS * 4; i++) {
            keys.put(SERVER, "db", "c" + i, "find", "v" + i);
        }
        for (int i = 0; i < RecentKeys.SLOTS * 4; i++) {
            String value = keys.get(SERVER, "db", "c" + i, "find");
            if (value != null) {
                assertEquals("v" + i, value);
                held++;
            }
        }
        assertEquals("first", keys.get(SERVER, "db", "users", "find"));
        assertTrue(held < RecentKeys.SLOTS, "at most one key a slot: " + held);
    }
}
