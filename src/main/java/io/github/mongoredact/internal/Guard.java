package io.github.mongoredact.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import io.github.mongoredact.internal.bson.DriverApi;

/**
 * The listener's rule for a {@link Throwable} caught at the edge of a driver callback: a failing monitoring extension never
 * fails the application's operation.
 *
 * <ul>
 *     <li>Every {@link Exception} and {@link Error} is caught, counted and logged, and the event still goes on: a
 *     {@link LinkageError} (a driver without a method this library calls), a {@link StackOverflowError}, an
 *     {@link InternalError}, and an {@link OutOfMemoryError}. The listener's own allocations are the copy of one command
 *     and its scratch: when one of them fails, the failed array was never taken, so forwarding a marker instead leaves
 *     the heap as it was. A downstream's {@code OutOfMemoryError} is isolated the same way: rethrown, it would fail an
 *     operation the server has already applied (a write the application then retries), and it is the application's own
 *     next allocation, not the monitoring, that should meet a heap that is really exhausted.</li>
 *     <li>{@link ThreadDeath} alone is rethrown: it is not a failure but a request, made with {@code Thread.stop()}
 *     (possible up to Java 19), to end the thread; swallowing it would defeat that request.</li>
 * </ul>
 */
public final class Guard {
    private static final System.Logger LOGGER = System.getLogger("io.github.mongoredact.RedactingCommandListener");

    private Guard() {
    }

    /** Rethrows the one throwable that must go on: {@link ThreadDeath}. */
    @SuppressWarnings("removal")
    public static void rethrowIfStopRequest(final Throwable e) {
        if (e instanceof ThreadDeath) {
            throw (ThreadDeath) e;
        }
    }

    /**
     * Logs a failure at WARN the first time {@code warned} is set, at DEBUG afterwards. Never throws: a logger that fails, or
     * a message that can not be built under memory pressure, is given up.
     */
    public static void log(final AtomicBoolean warned, final String what, final Throwable e) {
        try {
            System.Logger.Level level = warned.compareAndSet(false, true) ? System.Logger.Level.WARNING
                    : System.Logger.Level.DEBUG;
            if (LOGGER.isLoggable(level)) {
                LOGGER.log(level, what + " (MongoDB Java driver " + DriverApi.driverVersion() + ", supported "
                        + DriverApi.SUPPORTED_RANGE + "); later failures are logged at debug level", e);
            }
        } catch (Throwable logFailure) {
            rethrowIfStopRequest(logFailure);
            // nothing more can be done without risking the application's operation
        }
    }
}
