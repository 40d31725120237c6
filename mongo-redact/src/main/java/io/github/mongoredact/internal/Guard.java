package io.github.mongoredact.internal;

import com.mongodb.lang.Nullable;

import java.util.concurrent.atomic.AtomicBoolean;

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
 *
 * <p>The library's own warnings take one path, {@link #log}: a {@link System.Logger} (which the JDK routes to
 * {@code java.util.logging} unless the application installs another backend, such as SLF4J's), named after the API class
 * whose instance warns ({@code RedactingCommandListener} for the pipeline behind it, {@code HandOffSink},
 * {@code CommandLogSink}), a warning the first time, then at debug level.</p>
 */
public final class Guard {

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
     * @param apiClass the API class whose instances warn
     * @return the logger of the library's own warnings for that class
     */
    public static System.Logger logger(final Class<?> apiClass) {
        return logger(apiClass.getName());
    }

    /**
     * @param apiClassName the name of the API class whose instances warn, for packages below the API that do not use it
     * @return the logger of the library's own warnings for that class
     */
    public static System.Logger logger(final String apiClassName) {
        return System.getLogger(apiClassName);
    }

    /**
     * Logs a failure at WARN the first time {@code warned} is set, at DEBUG afterwards. Never throws: a logger that fails, or
     * a message that can not be built under memory pressure, is given up.
     *
     * @param logger the logger, from {@link #logger(Class)}
     * @param warned set once the warning was given: one per instance that warns
     * @param what what failed, and what happened instead
     * @param e the failure, or null when it must not be shown (its message may quote a document)
     */
    public static void log(final System.Logger logger, final AtomicBoolean warned, final String what,
                           @Nullable final Throwable e) {
        try {
            System.Logger.Level level = warned.compareAndSet(false, true) ? System.Logger.Level.WARNING
                    : System.Logger.Level.DEBUG;
            if (logger.isLoggable(level)) {
                String message = what + " (MongoDB Java driver " + DriverVersion.VERSION + ", supported "
                        + DriverVersion.SUPPORTED_RANGE + "); later failures are logged at debug level";
                if (e == null) {
                    logger.log(level, message);
                } else {
                    logger.log(level, message, e);
                }
            }
        } catch (Throwable logFailure) {
            rethrowIfStopRequest(logFailure);
            // nothing more can be done without risking the application's operation
        }
    }
}
