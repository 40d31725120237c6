package io.github.mongoredact.internal.event;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class InFlightTableTest {

    @Test
    void returnsWhatWasPutOnceThenNothing() {
        InFlightTable<Object> table = new InFlightTable<>(100);
        Object value = new Object();
        table.put(InFlightTable.key(7, 42), value);
        assertEquals(1, table.size());
        assertSame(value, table.remove(InFlightTable.key(7, 42)));
        assertNull(table.remove(InFlightTable.key(7, 42)));
        assertEquals(0, table.size());
    }

    @Test
    void completionsThatNeverComeLeaveTheTableAtItsBoundAndAreCounted() {
        InFlightTable<Object> table = new InFlightTable<>(1000);
        for (int i = 0; i < 25_000; i++) {
            table.put(InFlightTable.key(i % 50, i), "started " + i);
        }
        assertEquals(1000, table.size());
        assertEquals(24_000, table.evictions());
    }

    @Test
    void evictsTheOldestFirst() {
        InFlightTable<Object> table = new InFlightTable<>(1);
        table.put(InFlightTable.key(1, 1), "first");
        table.put(InFlightTable.key(1, 2), "second");
        assertNull(table.remove(InFlightTable.key(1, 1)));
        assertEquals("second", table.remove(InFlightTable.key(1, 2)));
        assertEquals(1, table.evictions());
    }

    @Test
    void keepsTheNewestWhenOlderOnesCompleteOutOfOrder() {
        InFlightTable<Object> table = new InFlightTable<>(16);
        for (int i = 0; i < 16; i++) {
            table.put(InFlightTable.key(0, i), i);
        }
        // complete every other one, then fill again: nothing still in flight is evicted while there is room
        for (int i = 0; i < 16; i += 2) {
            assertEquals(i, table.remove(InFlightTable.key(0, i)));
        }
        for (int i = 16; i < 24; i++) {
            table.put(InFlightTable.key(0, i), i);
        }
        assertEquals(0, table.evictions());
        for (int i = 1; i < 16; i += 2) {
            assertEquals(i, table.remove(InFlightTable.key(0, i)));
        }
    }

    @Test
    void staysConsistentUnderConcurrentStartsAndCompletions() throws Exception {
        InFlightTable<Object> table = new InFlightTable<>(10_000);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                final int connection = t;
                results.add(pool.submit(() -> {
                    int matched = 0;
                    for (int i = 0; i < 20_000; i++) {
                        long key = InFlightTable.key(connection, i);
                        table.put(key, i);
                        if (Integer.valueOf(i).equals(table.remove(key))) {
                            matched++;
                        }
                    }
                    return matched;
                }));
            }
            for (Future<Integer> result : results) {
                assertEquals(20_000, result.get(30, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, table.size());
        assertEquals(0, table.evictions());
    }

    @Test
    void keysThatShareABucketStayApart() {
        // a bucket is the request id's low bits: the same id on other connections, and ids a multiple of the bucket count
        // (256 for 100 entries) apart, share one
        InFlightTable<Object> table = new InFlightTable<>(100);
        for (int connection = 0; connection < 50; connection++) {
            table.put(InFlightTable.key(connection, 5), "connection " + connection);
        }
        for (int i = 0; i < 50; i++) {
            table.put(InFlightTable.key(3, 7 + i * 256), "request " + (7 + i * 256));
        }
        assertEquals(100, table.size());
        for (int connection = 49; connection >= 0; connection -= 2) {
            assertEquals("connection " + connection, table.remove(InFlightTable.key(connection, 5)));
        }
        for (int i = 0; i < 50; i += 3) {
            assertEquals("request " + (7 + i * 256), table.remove(InFlightTable.key(3, 7 + i * 256)));
        }
        assertNull(table.remove(InFlightTable.key(49, 5)));
        assertEquals("connection 0", table.remove(InFlightTable.key(0, 5)));
        assertNull(table.remove(InFlightTable.key(3, 7)), "removed once already");
        assertEquals(100 - 25 - 17 - 1, table.size());
        assertEquals(0, table.evictions());
    }

    @Test
    void rejectsABoundBelowOne() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new InFlightTable(0));
        assertEquals("capacity must be 1 or more, was 0", e.getMessage());
    }

    @Test
    void countsOnlyTheOperationsAskedToCountMissingKeysIncluded() {
        InFlightTable<Object> table = new InFlightTable<>(2);
        table.put(1, "a");
        table.remove(1);
        assertEquals(0, table.counted());
        table.putAndCount(2, "b");
        table.putAndCount(3, "c");
        table.putAndCount(4, "d");
        assertEquals("c", table.removeAndCount(3));
        assertNull(table.removeAndCount(2), "evicted, and still counted");
        assertNull(table.removeAndCount(99));
        assertEquals(6, table.counted());
        assertEquals(1, table.evictions());
    }
}
