package io.github.mongoredact.demo;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.StartedCommand;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * Measures the bytes the listener allocates in the driver's callbacks, with
 * {@link com.sun.management.ThreadMXBean#getThreadAllocatedBytes(long)} read before and after each callback: in total, and
 * the share of the sinks, each wrapped the same way. The cost of the measurement itself (the bytes allocated between two
 * reads with nothing in between) is measured first and taken off each figure. The sizes of the redacted documents handed to
 * the sinks are added up after each callback, outside the measured window. Callbacks of the sync driver run on the
 * application's thread; the bookkeeping is synchronized for other drivers.
 */
final class AllocationMeter {
    private final com.sun.management.ThreadMXBean threads;
    private final long overhead;
    private long[] perEvent = new long[256];
    private int events;
    private long total;
    private long sinks;
    private long copied;
    private long pendingSinks;
    @Nullable
    private BsonDocument pendingDocument;

    private AllocationMeter(final com.sun.management.ThreadMXBean threads, final long overhead) {
        this.threads = threads;
        this.overhead = overhead;
    }

    /**
     * @return a meter, or null when this JVM can not count allocated bytes per thread
     */
    static AllocationMeter createOrNull() {
        if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean)) {
            return null;
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        if (!threads.isThreadAllocatedMemorySupported()) {
            return null;
        }
        if (!threads.isThreadAllocatedMemoryEnabled()) {
            threads.setThreadAllocatedMemoryEnabled(true);
        }
        long id = Thread.currentThread().getId();
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 20_000; i++) {
            long before = threads.getThreadAllocatedBytes(id);
            long after = threads.getThreadAllocatedBytes(id);
            least = Math.min(least, after - before);
        }
        return new AllocationMeter(threads, least);
    }

    private long now() {
        return threads.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /**
     * @param listener the listener to register on the driver
     * @return a listener that measures each of its callbacks
     */
    CommandListener wrap(final CommandListener listener) {
        return new CommandListener() {
            @Override
            public void commandStarted(final CommandStartedEvent event) {
                long before = now();
                listener.commandStarted(event);
                long after = now();
                recordEvent(after - before - overhead);
            }

            @Override
            public void commandSucceeded(final CommandSucceededEvent event) {
                long before = now();
                listener.commandSucceeded(event);
                long after = now();
                recordEvent(after - before - overhead);
            }

            @Override
            public void commandFailed(final CommandFailedEvent event) {
                long before = now();
                listener.commandFailed(event);
                long after = now();
                recordEvent(after - before - overhead);
            }
        };
    }

    /**
     * @param sink a sink to add to the listener
     * @return a sink that measures each of its callbacks as the sinks' share
     */
    CommandSink wrap(final CommandSink sink) {
        return new CommandSink() {
            @Override
            public boolean needsDocuments() {
                return sink.needsDocuments();
            }

            @Override
            public void started(final StartedCommand command) {
                long before = now();
                sink.started(command);
                long after = now();
                recordSink(after - before - overhead, command.getCommand());
            }

            @Override
            public void completed(final CompletedCommand command) {
                long before = now();
                sink.completed(command);
                long after = now();
                recordSink(after - before - overhead, command.getReply());
            }

            @Override
            public String toString() {
                return sink.toString();
            }
        };
    }

    /** Inside the listener's window: allocates nothing. */
    private synchronized void recordSink(final long bytes, @Nullable final BsonDocument document) {
        sinks += bytes;
        pendingSinks += bytes;
        if (document != null) {
            pendingDocument = document;
        }
    }

    /** After the listener's window. */
    private synchronized void recordEvent(final long bytes) {
        if (events == perEvent.length) {
            perEvent = Arrays.copyOf(perEvent, events * 2);
        }
        perEvent[events++] = bytes - pendingSinks;
        total += bytes;
        pendingSinks = 0;
        if (pendingDocument instanceof RawBsonDocument) {
            copied += ((RawBsonDocument) pendingDocument).getByteBuffer().remaining();
        }
        pendingDocument = null;
    }

    synchronized int events() {
        return events;
    }

    /** @return all bytes allocated in the listener's callbacks, sinks included */
    synchronized long total() {
        return total;
    }

    /** @return the bytes allocated in the sinks' callbacks */
    synchronized long sinks() {
        return sinks;
    }

    /** @return the bytes of the redacted documents the listener handed to the sinks */
    synchronized long copied() {
        return copied;
    }

    /** @return the median of the bytes the listener itself allocated per callback, sinks not included */
    synchronized long median() {
        if (events == 0) {
            return 0;
        }
        long[] sorted = Arrays.copyOf(perEvent, events);
        Arrays.sort(sorted);
        return sorted[events / 2];
    }
}
