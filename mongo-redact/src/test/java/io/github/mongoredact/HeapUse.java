package io.github.mongoredact;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/** Heap in use after full collections, for tests that measure what stays reachable. */
public final class HeapUse {
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    private static final long SETTLED = 256 * 1024;

    private HeapUse() {
    }

    /**
     * Collects until two readings in a row agree within 256 KiB (at most ten collections): what stays is reachable.
     *
     * @return the bytes of heap in use
     */
    public static long settled() {
        long previous = Long.MAX_VALUE;
        long used = used();
        for (int i = 0; i < 10 && Math.abs(previous - used) > SETTLED; i++) {
            previous = used;
            System.gc();
            used = used();
        }
        return used;
    }

    private static long used() {
        return MEMORY.getHeapMemoryUsage().getUsed();
    }
}
