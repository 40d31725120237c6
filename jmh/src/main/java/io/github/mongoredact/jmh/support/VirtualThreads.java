package io.github.mongoredact.jmh.support;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadFactory;

/**
 * Virtual threads for the benchmarks that run the work on a fresh virtual thread per operation (the methods named
 * {@code ...OnVirtualThread}). The build is {@code --release 11}, so {@code Thread.ofVirtual()} is reached through method
 * handles; on a JVM below release 21 {@link #factory()} fails, naming the JVM, rather than let a benchmark report a figure of
 * something else.
 */
public final class VirtualThreads {
    /** The first release with virtual threads as a final feature. */
    public static final int RELEASE = 21;

    private VirtualThreads() {
    }

    /**
     * @return {@code Thread.ofVirtual().factory()}: a factory of unnamed, unstarted virtual threads
     * @throws IllegalStateException on a JVM below release 21
     */
    public static ThreadFactory factory() {
        int release = Runtime.version().feature();
        if (release < RELEASE) {
            throw new IllegalStateException("virtual threads need a JVM of release " + RELEASE + " or later; this one is "
                    + Runtime.version() + " (" + System.getProperty("java.home") + "): run the ...OnVirtualThread benchmarks"
                    + " with a JDK 21+ (JMH_JAVA=$JAVA25_HOME/bin/java for the scripts), or leave them out (-e OnVirtualThread$)");
        }
        ThreadFactory factory;
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            MethodHandle ofVirtual = lookup.findStatic(Thread.class, "ofVirtual",
                    MethodType.methodType(Class.forName("java.lang.Thread$Builder$OfVirtual")));
            MethodHandle toFactory = lookup.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class));
            factory = (ThreadFactory) toFactory.invoke(ofVirtual.invoke());
        } catch (Throwable e) {
            throw new IllegalStateException("Thread.ofVirtual().factory() failed on " + Runtime.version(), e);
        }
        Thread probe = factory.newThread(() -> { });
        Checks.check(isVirtual(probe), "Thread.ofVirtual().factory() made a thread that is not virtual: " + probe);
        return factory;
    }

    /**
     * @param thread a thread
     * @return whether it is a virtual thread ({@code Thread.isVirtual()}; false below release 21)
     */
    public static boolean isVirtual(final Thread thread) {
        if (Runtime.version().feature() < RELEASE) {
            return false;
        }
        try {
            return (boolean) MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                    MethodType.methodType(boolean.class)).invoke(thread);
        } catch (Throwable e) {
            throw new IllegalStateException("Thread.isVirtual() failed on " + Runtime.version(), e);
        }
    }

    /**
     * Runs a task on a fresh thread of the factory and waits for it to end: one operation on its own thread, as a server that
     * gives every request a virtual thread runs it.
     *
     * @param factory the factory
     * @param task the task
     * @param <T> its result
     * @return its result
     * @throws Exception what the task threw
     */
    public static <T> T call(final ThreadFactory factory, final Callable<T> task) throws Exception {
        OnThread<T> run = new OnThread<>(task);
        Thread thread = factory.newThread(run);
        thread.start();
        thread.join();
        return run.result();
    }

    /** A task's result or failure, read after the thread that ran it ended ({@code join}: happens-before). */
    private static final class OnThread<T> implements Runnable {
        private final Callable<T> task;
        private T result;
        private Throwable failure;

        OnThread(final Callable<T> task) {
            this.task = task;
        }

        @Override
        public void run() {
            try {
                result = task.call();
            } catch (Throwable e) {
                failure = e;
            }
        }

        T result() throws Exception {
            if (failure instanceof Exception) {
                throw (Exception) failure;
            } else if (failure instanceof Error) {
                throw (Error) failure;
            } else if (failure != null) {
                throw new IllegalStateException(failure);
            }
            return result;
        }
    }
}
