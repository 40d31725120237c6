package io.github.mongoredact.jmh.support;

import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.ThreadFactory;

/**
 * The virtual-thread factory of the {@code ...OnVirtualThread} benchmarks, a JMH state that only they take: made in the
 * trial's setup, so that on a JVM below release 21 they fail there, with {@link VirtualThreads#factory()}'s message, and the
 * other benchmarks of the same class still run.
 */
@State(Scope.Benchmark)
public class VirtualThreadFactory {
    /** {@code Thread.ofVirtual().factory()}. */
    public ThreadFactory factory;

    /** Makes the factory; fails below release 21. */
    @Setup
    public void setUp() {
        factory = VirtualThreads.factory();
    }
}
