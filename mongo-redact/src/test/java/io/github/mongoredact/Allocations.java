package io.github.mongoredact;

import java.lang.management.ManagementFactory;

/** Bytes allocated by the current thread, from {@code com.sun.management.ThreadMXBean}. */
public final class Allocations {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private Allocations() {
    }

    /** @return the bytes the current thread allocated so far */
    public static long allocatedBytes() {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /** @return the bytes allocated by {@code work}, run {@code times} times after as many warm-up runs, per run */
    public static double perRun(final int times, final Runnable work) {
        for (int i = 0; i < times; i++) {
            work.run();
        }
        long before = allocatedBytes();
        for (int i = 0; i < times; i++) {
            work.run();
        }
        long after = allocatedBytes();
        return (double) (after - before) / times;
    }

    /**
     * The steady state of {@code work}: the lowest of {@code measurements} {@link #perRun} measurements, each after its own
     * warm-up. A one-off allocation (a late compilation on a loaded machine) can land inside one measured loop; work that
     * allocates more for good shows in every one.
     *
     * @return the lowest of the measurements' bytes per run
     */
    public static double lowestPerRun(final int measurements, final int times, final Runnable work) {
        double lowest = Double.MAX_VALUE;
        for (int i = 0; i < measurements; i++) {
            lowest = Math.min(lowest, perRun(times, work));
        }
        return lowest;
    }
}
