package io.github.mongoredact.handoff;

import com.mongodb.event.CommandListener;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.CallbackGuard;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.StartedCommand;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * A {@link CommandSink} that delivers the owned events to a slow sink or listener on its own thread, through a bounded queue.
 *
 * <pre>{@code
 * HandOffSink handOff = HandOffSink.builder(slowSink).capacity(8192).build();
 * RedactingCommandListener listener = RedactingCommandListener.builder().addSink(handOff).build();
 * ...
 * handOff.close(); // after the client is closed: delivers what was accepted, then stops the thread
 * }</pre>
 *
 * <p>The driver's thread never blocks and never waits for a lock: the queue is a lock-free ring for many producers and one
 * consumer; when it is full, or after {@link #close()}, an event is dropped and counted ({@link #getDropped()}). A sink or
 * listener that throws is counted ({@link #getFailures()}), logged once, and does not stop the thread. A wrapped
 * {@link CommandSink} gets {@link CommandSink#started(StartedCommand)} and {@link CommandSink#completed(CompletedCommand)};
 * a plain {@link CommandListener} (see {@link #builder(CommandListener)}) gets the owned events made by
 * {@link StartedCommand#toEvent()}, {@link CompletedCommand#toSucceededEvent()} and {@link CompletedCommand#toFailedEvent()},
 * on the hand-off thread.</p>
 *
 * <p>Register a hand-off with {@link io.github.mongoredact.RedactingCommandListener.Builder#addSink(CommandSink)}: being a sink, not a
 * {@code CommandListener}, it cannot be registered on the driver, whose events are views valid only inside the callback.</p>
 *
 * <p>Ordering: events are delivered in the order they were accepted, which for one connection is the order of its
 * commands.</p>
 *
 * @since 0.1
 */
public final class HandOffSink implements CommandSink, AutoCloseable {
    private static final AtomicInteger THREADS = new AtomicInteger();
    private static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final CommandSink target;
    private final MpscRing ring;
    private final Thread thread;
    private final LongAdder dropped = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final CallbackGuard guard = new CallbackGuard(HandOffSink.class);
    private volatile boolean waiting;

    private HandOffSink(final Builder builder) {
        this.target = builder.target;
        this.ring = new MpscRing(builder.capacity);
        String name = builder.threadName != null ? builder.threadName : "mongo-redact-hand-off-" + THREADS.incrementAndGet();
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * @param target the slow sink to deliver to on the hand-off thread
     * @return a new builder
     * @since 0.1
     */
    public static Builder builder(final CommandSink target) {
        return new Builder(notNull("target", target));
    }

    /**
     * @param target the slow plain listener to deliver to on the hand-off thread: it gets the owned events made by
     *               {@link StartedCommand#toEvent()}, {@link CompletedCommand#toSucceededEvent()} and
     *               {@link CompletedCommand#toFailedEvent()}
     * @return a new builder
     * @since 0.1
     */
    public static Builder builder(final CommandListener target) {
        return new Builder(new ListenerDelivery(notNull("target", target)));
    }

    /**
     * @return false once closed (every later event is dropped, so no copy is worth making); otherwise what the wrapped sink
     *         answers (a plain listener always needs documents); the wrapped sink's answer must be cheap and thread-safe, as
     *         it runs on the driver's thread
     * @since 0.1
     */
    @Override
    public boolean needsDocuments() {
        return !ring.isClosed() && target.needsDocuments();
    }

    /**
     * @return false once closed (every later event is dropped); otherwise what the wrapped sink answers (a plain listener
     *         always needs its replies)
     * @since 0.4
     */
    @Override
    public boolean needsReplyDocuments() {
        return !ring.isClosed() && target.needsReplyDocuments();
    }

    /**
     * @return false once closed; otherwise what the wrapped sink answers (a plain listener reads no fingerprint)
     * @since 0.2
     */
    @Override
    public boolean needsFingerprint() {
        return !ring.isClosed() && target.needsFingerprint();
    }

    /**
     * @return false once closed; otherwise what the wrapped sink answers (a plain listener reads no query shape)
     * @since 0.7
     */
    @Override
    public boolean needsQueryShape() {
        return !ring.isClosed() && target.needsQueryShape();
    }

    /**
     * @return false once closed; otherwise what the wrapped sink answers (a plain listener reads no size)
     * @since 0.7
     */
    @Override
    public boolean needsCommandSize() {
        return !ring.isClosed() && target.needsCommandSize();
    }

    @Override
    public void started(final StartedCommand command) {
        offer(command);
    }

    @Override
    public void completed(final CompletedCommand command) {
        offer(command);
    }

    private void offer(final Object event) {
        if (ring.offer(event)) {
            if (waiting) {
                LockSupport.unpark(thread);
            }
        } else {
            dropped.increment();
        }
    }

    private void run() {
        while (true) {
            Object event = ring.poll();
            if (event != null) {
                deliver(event);
                continue;
            }
            if (ring.isDrained()) {
                return;
            }
            if (ring.isClosed()) {
                Thread.onSpinWait(); // a producer accepted before the close and is publishing
                continue;
            }
            waiting = true;
            event = ring.poll();
            if (event != null) {
                waiting = false;
                deliver(event);
                continue;
            }
            LockSupport.parkNanos(this, PARK_NANOS);
            waiting = false;
        }
    }

    private void deliver(final Object event) {
        try {
            if (event instanceof StartedCommand) {
                target.started((StartedCommand) event);
            } else {
                target.completed((CompletedCommand) event);
            }
        } catch (Throwable t) {
            CallbackGuard.rethrowIfStopRequest(t);
            failures.increment();
            guard.log("The sink of " + thread.getName() + " (" + target + ") threw", t);
        } finally {
            delivered.increment();
        }
    }

    /**
     * Stops accepting events, delivers every event accepted before, and waits for the hand-off thread to end. Later events are
     * dropped and counted. Idempotent. Called by the wrapped sink or listener itself, on the hand-off thread, it cannot wait
     * for that thread: it stops accepting and returns at once; the thread delivers what was accepted and ends once the
     * callback returns.
     *
     * @since 0.1
     */
    @Override
    public void close() {
        ring.close();
        if (Thread.currentThread() == thread) {
            return; // joining itself would never return, and every later close() would wait for it
        }
        LockSupport.unpark(thread);
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Like {@link #close()}, waiting at most the timeout for the accepted events to be delivered.
     *
     * @param timeout the most time to wait
     * @param unit its unit
     * @return true when every accepted event was delivered and the thread ended; false at once when called on the hand-off
     *         thread itself (see {@link #close()})
     * @throws InterruptedException if interrupted while waiting
     * @since 0.1
     */
    public boolean close(final long timeout, final TimeUnit unit) throws InterruptedException {
        ring.close();
        if (Thread.currentThread() == thread) {
            return false;
        }
        LockSupport.unpark(thread);
        thread.join(Math.max(1, unit.toMillis(timeout)));
        return !thread.isAlive();
    }

    /**
     * @return events that were dropped: the queue was full or the hand-off was closed
     * @since 0.1
     */
    public long getDropped() {
        return dropped.sum();
    }

    /**
     * @return events handed to the wrapped sink or listener (including those it threw on)
     * @since 0.1
     */
    public long getDelivered() {
        return delivered.sum();
    }

    /**
     * @return exceptions thrown by the wrapped sink or listener
     * @since 0.1
     */
    public long getFailures() {
        return failures.sum();
    }

    /**
     * @return events accepted and not yet delivered
     * @since 0.1
     */
    public int getQueued() {
        return ring.size();
    }

    /**
     * @return the capacity of the queue
     * @since 0.1
     */
    public int getCapacity() {
        return ring.capacity();
    }

    @Override
    public String toString() {
        return "HandOffSink{thread=" + thread.getName() + ", capacity=" + ring.capacity() + ", queued=" + getQueued()
                + ", dropped=" + getDropped() + ", delivered=" + getDelivered() + ", failures=" + getFailures() + "}";
    }

    /**
     * Builds a {@link HandOffSink}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder {
        /** The default capacity of the queue. */
        public static final int DEFAULT_CAPACITY = 8192;

        private final CommandSink target;
        private int capacity = DEFAULT_CAPACITY;
        @Nullable
        private String threadName;

        private Builder(final CommandSink target) {
            this.target = target;
        }

        /**
         * @param capacity the capacity of the queue, from 2 to 2^30, rounded up to a power of two; {@value #DEFAULT_CAPACITY} if
         *                 not set
         * @return this
         * @since 0.1
         */
        public Builder capacity(final int capacity) {
            if (capacity < 2 || capacity > (1 << 30)) {
                throw new IllegalArgumentException("capacity must be between 2 and 2^30, was " + capacity);
            }
            this.capacity = Integer.bitCount(capacity) == 1 ? capacity : Integer.highestOneBit(capacity) << 1;
            return this;
        }

        /**
         * @param threadName the name of the hand-off thread (a daemon); {@code mongo-redact-hand-off-N} if not set
         * @return this
         * @since 0.1
         */
        public Builder threadName(final String threadName) {
            this.threadName = notNull("threadName", threadName);
            return this;
        }

        /**
         * @return the hand-off, its thread started
         * @since 0.1
         */
        public HandOffSink build() {
            return new HandOffSink(this);
        }
    }
}
