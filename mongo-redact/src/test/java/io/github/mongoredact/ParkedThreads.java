package io.github.mongoredact;

import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;

import org.bson.Document;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Heap held while many threads, each after its own command through the real driver, are alive and parked: for the memory
 * tests that compare one client's runs with the listener switched off and then on ({@link Switch}).
 */
final class ParkedThreads {
    /** Full readings of {@link HeapUse#settled()} taken per measurement; the lowest is kept (garbage only ever adds). */
    static final int SAMPLES = 3;
    private static final long TIMEOUT_MINUTES = 5;

    private ParkedThreads() {
    }

    /**
     * Starts {@code count} threads from the factory; each runs the command once (at most {@code concurrent} of them at a time,
     * so that the driver's connection pool stays small) and then parks until the heap has been measured.
     *
     * @return the lowest of {@link #SAMPLES} settled readings of heap in use while every thread is parked after its command
     */
    static long heldAfter(final ThreadFactory factory, final int count, final int concurrent, final Runnable command)
            throws InterruptedException {
        return heldAfter(factory, count, concurrent, command, ParkedThreads::lowestSettled);
    }

    /**
     * As {@link #heldAfter(ThreadFactory, int, int, Runnable)}, with the heap read by {@code measure} while every thread is
     * parked.
     *
     * @return what {@code measure} read
     */
    static <T> T heldAfter(final ThreadFactory factory, final int count, final int concurrent, final Runnable command,
            final Supplier<T> measure) throws InterruptedException {
        Semaphore sending = new Semaphore(concurrent);
        CountDownLatch sent = new CountDownLatch(count);
        CountDownLatch finish = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Thread thread = factory.newThread(() -> {
                try {
                    sending.acquire();
                    try {
                        command.run();
                    } finally {
                        sending.release();
                    }
                    sent.countDown();
                    finish.await();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    sent.countDown();
                }
            });
            thread.start();
            threads.add(thread);
        }
        T held;
        try {
            if (!sent.await(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                throw new AssertionError("not all of " + count + " threads sent their command within " + TIMEOUT_MINUTES
                        + " minutes: " + sent.getCount() + " left");
            }
            held = measure.get();
        } finally {
            finish.countDown();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        return held;
    }

    /**
     * @return an insert of the blob under {@code _id} 0, which the collection already holds: the server refuses it (a write
     *         error in an ok reply) and keeps none of the blobs, while the driver sends the whole document, which the listener
     *         gathers and redacts
     */
    static Runnable duplicateInsert(final MongoCollection<Document> blobs, final String blob) {
        return () -> {
            try {
                blobs.insertOne(new Document("_id", 0).append("blob", blob));
                throw new AssertionError("duplicate _id accepted");
            } catch (MongoWriteException expected) {
                // the duplicate key: the command went out whole
            }
        };
    }

    /** @return the lowest of {@link #SAMPLES} readings of {@link HeapUse#settled()} */
    static long lowestSettled() {
        long lowest = Long.MAX_VALUE;
        for (int i = 0; i < SAMPLES; i++) {
            lowest = Math.min(lowest, HeapUse.settled());
        }
        return lowest;
    }

    /**
     * The lowest of {@link #SAMPLES} class histograms of what is live (each after {@link HeapUse#settled()}; the histogram
     * collects fully again before it counts), by what is live besides the stacks of parked virtual threads.
     *
     * @return that histogram's figures
     */
    static LiveHeap lowestLiveBesidesStacks() {
        LiveHeap lowest = null;
        for (int i = 0; i < SAMPLES; i++) {
            HeapUse.settled();
            LiveHeap live = LiveHeap.read();
            if (lowest == null || live.besidesStacks() < lowest.besidesStacks()) {
                lowest = live;
            }
        }
        return lowest;
    }

    /** @return the bytes as mebibytes with two decimals, for the figures the tests print */
    static String mebibytes(final long bytes) {
        return String.format(java.util.Locale.ROOT, "%.2f MiB", bytes / (1024.0 * 1024.0));
    }

    /** Forwards to the listener only when on, so that the runs compared share one client, its pools and its buffers. */
    static final class Switch implements CommandListener {
        private final CommandListener listener;
        volatile boolean on;

        Switch(final CommandListener listener) {
            this.listener = listener;
        }

        @Override
        public void commandStarted(final CommandStartedEvent event) {
            if (on) {
                listener.commandStarted(event);
            }
        }

        @Override
        public void commandSucceeded(final CommandSucceededEvent event) {
            if (on) {
                listener.commandSucceeded(event);
            }
        }

        @Override
        public void commandFailed(final CommandFailedEvent event) {
            if (on) {
                listener.commandFailed(event);
            }
        }
    }

    /**
     * A downstream that keeps the owned copy it is given (the latest of each kind, as a listener that hands them on would),
     * so that the copies are really made and escape, without the test's heap growing by one kept copy per command.
     */
    static final class KeepsLatestCopy implements CommandListener {
        volatile CommandStartedEvent started;
        volatile CommandSucceededEvent succeeded;
        volatile CommandFailedEvent failed;

        @Override
        public void commandStarted(final CommandStartedEvent event) {
            started = event;
        }

        @Override
        public void commandSucceeded(final CommandSucceededEvent event) {
            succeeded = event;
        }

        @Override
        public void commandFailed(final CommandFailedEvent event) {
            failed = event;
        }
    }

    /**
     * What is live in the heap, from the JVM's class histogram ({@code GC.class_histogram} through the
     * {@code com.sun.management:type=DiagnosticCommand} MBean, HotSpot), with the two kinds of object apart whose size says
     * nothing of what a library keeps: {@code jdk.internal.vm.StackChunk}, the frames of parked virtual threads, and
     * {@code jdk.internal.vm.FillerElement[]}, the collector's filler.
     */
    static final class LiveHeap {
        private static final String STACK_CHUNK = "jdk.internal.vm.StackChunk";
        private static final String FILLER = "[Ljdk.internal.vm.FillerElement;";
        private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+).*$", Pattern.MULTILINE);
        private static final Pattern TOTAL = Pattern.compile("^Total\\s+(\\d+)\\s+(\\d+)\\s*$", Pattern.MULTILINE);

        final long total;
        final long stackChunks;
        final long stackChunkCount;
        final long fillers;

        private LiveHeap(final long total, final long stackChunks, final long stackChunkCount, final long fillers) {
            this.total = total;
            this.stackChunks = stackChunks;
            this.stackChunkCount = stackChunkCount;
            this.fillers = fillers;
        }

        /** @return whether this JVM has the diagnostic command MBean that {@link #read()} needs */
        static boolean available() {
            try {
                return ManagementFactory.getPlatformMBeanServer().isRegistered(diagnostics());
            } catch (MalformedObjectNameException e) {
                return false;
            }
        }

        /** @return the live heap now, after the full collection that the histogram makes */
        static LiveHeap read() {
            String histogram;
            try {
                MBeanServer server = ManagementFactory.getPlatformMBeanServer();
                histogram = (String) server.invoke(diagnostics(), "gcClassHistogram", new Object[] {new String[0]},
                        new String[] {String[].class.getName()});
            } catch (JMException e) {
                throw new AssertionError("the class histogram", e);
            }
            Matcher total = TOTAL.matcher(histogram);
            if (!total.find()) {
                throw new AssertionError("no total in the class histogram: " + histogram.substring(0, Math.min(500,
                        histogram.length())));
            }
            long stackChunks = 0;
            long stackChunkCount = 0;
            long fillers = 0;
            Matcher row = ROW.matcher(histogram);
            while (row.find()) {
                if (row.group(3).equals(STACK_CHUNK)) {
                    stackChunkCount += Long.parseLong(row.group(1));
                    stackChunks += Long.parseLong(row.group(2));
                } else if (row.group(3).equals(FILLER)) {
                    fillers += Long.parseLong(row.group(2));
                }
            }
            return new LiveHeap(Long.parseLong(total.group(2)), stackChunks, stackChunkCount, fillers);
        }

        /** @return the live bytes besides the parked virtual threads' stack chunks and the collector's filler */
        long besidesStacks() {
            return total - stackChunks - fillers;
        }

        @Override
        public String toString() {
            return "live " + total + " bytes (" + mebibytes(total) + "): besides stacks " + besidesStacks() + " ("
                    + mebibytes(besidesStacks()) + "), stack chunks " + stackChunks + " (" + mebibytes(stackChunks) + " in "
                    + stackChunkCount + "), filler " + fillers;
        }

        private static ObjectName diagnostics() throws MalformedObjectNameException {
            return new ObjectName("com.sun.management:type=DiagnosticCommand");
        }
    }
}
