package io.github.mongoredact.jmh.threads;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.jmh.MixInput;
import io.github.mongoredact.jmh.support.LastEventListener;
import io.github.mongoredact.jmh.support.VirtualThreadFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

import static io.github.mongoredact.jmh.support.Checks.check;

/**
 * One command's callbacks on either kind of thread (issue 31, item 6): the started and succeeded events of a find by
 * {@code _id} as a deployment's client sends it, held as one {@code ByteBufBsonDocument} ({@link MixInput}'s
 * {@code findById}, the same events as {@code mixPair} at {@code command=findById}), handed to the subject's listener
 * <ul>
 *     <li>{@link #pairOnPlatformThread}: on the benchmark's own thread, every operation on that one platform thread (as a
 *     pool's thread runs request after request);</li>
 *     <li>{@link #pairOnVirtualThread}: on a fresh virtual thread per operation, started and joined by the benchmark's thread
 *     (as a server that gives every request a virtual thread runs it: Spring Boot's {@code spring.threads.virtual.enabled},
 *     Helidon, Quarkus' {@code @RunOnVirtualThread}).</li>
 * </ul>
 * Each subclass is one subject; {@link NoListenerBenchmark} is the baseline: the same two events handed straight to the
 * plain downstream, so that on a virtual thread it is the thread's start and join alone, and the difference to a subject is
 * the listener's share.
 *
 * <p><b>B/op</b> ({@code -prof gc}'s {@code gc.alloc.rate.norm}) counts the virtual thread's allocation: JMH 1.37's GC
 * profiler reads {@code com.sun.management.ThreadMXBean.getTotalThreadAllocatedBytes()} (all threads of the JVM, there since
 * JDK 14) when the JVM has it, and falls back to summing {@code getThreadAllocatedBytes} over {@code getAllThreadIds()} (which
 * lists no virtual thread and misses threads that came and went between its snapshots) only where it has not. Checked in
 * 1.37's bytecode ({@code GCProfiler$VMSupport.getSnapshot}, {@code GlobalHotspotAllocationSnapshot}) and by the figures: on
 * JDK 25 at 9563e3f, {@link OursDefaultsBenchmark} gives 98,505 B/op on a virtual thread against 447 B/op for the thread alone
 * ({@link NoListenerBenchmark}), the 97.5 KB a pair that the measurement from outside found with the same counter. So no
 * counter of its own is needed. The allocs/op agent, which counts the benchmark's thread only, leaves the
 * {@code ...OnVirtualThread} cases out ({@code AllocationCount}).</p>
 *
 * <p>{@link #pairOnVirtualThread} needs a JVM of release 21 or later (its {@link VirtualThreadFactory} fails the trial below
 * it); {@link #pairOnPlatformThread} runs anywhere.</p>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public abstract class ThreadKindBenchmark {
    /** The started event. */
    protected CommandStartedEvent started;
    /** The succeeded event. */
    protected CommandSucceededEvent succeeded;
    /** The plain listener at the end: it keeps the last events it got. */
    protected LastEventListener downstream;

    private CommandListener target;
    /** The operation: one task object for every thread (no allocation of the benchmark's own per operation). */
    private final Runnable pair = this::pair;
    /** What the last run of the pair threw, if anything: written on its thread, read after the join. */
    private Throwable failure;

    /**
     * @param downstream the plain listener at the end
     * @return the listener the events are handed to: the subject wrapping {@code downstream}, or {@code downstream} itself
     */
    protected abstract CommandListener listener(LastEventListener downstream);

    /** Checks the subject did its job (after the trial). */
    protected abstract void checkSubject();

    /** Builds the events (and checks their shapes are the driver's) and the subject. */
    @Setup
    public void setUp() {
        MixInput input = new MixInput();
        input.command = "findById";
        input.setUp();
        started = input.started;
        succeeded = input.succeeded;
        downstream = new LastEventListener();
        target = listener(downstream);
    }

    /** Fails unless both events reached the downstream and the subject checks out. */
    @TearDown
    public void tearDown() {
        check(downstream.started != null && downstream.succeeded != null, "the downstream got no pair");
        checkSubject();
    }

    private void pair() {
        try {
            target.commandStarted(started);
            target.commandSucceeded(succeeded);
        } catch (RuntimeException | Error e) {
            failure = e;
        }
    }

    private CommandSucceededEvent result() {
        if (failure != null) {
            throw new IllegalStateException("the pair failed", failure);
        }
        return downstream.succeeded;
    }

    /**
     * The pair on the benchmark's own (platform) thread.
     *
     * @return the succeeded event the downstream got
     */
    @Benchmark
    public CommandSucceededEvent pairOnPlatformThread() {
        pair.run();
        return result();
    }

    /**
     * The pair on a fresh virtual thread, started and joined.
     *
     * @param threads the virtual-thread factory
     * @return the succeeded event the downstream got
     * @throws InterruptedException if the benchmark's thread is interrupted in the join
     */
    @Benchmark
    public CommandSucceededEvent pairOnVirtualThread(final VirtualThreadFactory threads) throws InterruptedException {
        Thread thread = threads.factory.newThread(pair);
        thread.start();
        thread.join();
        return result();
    }
}
