package io.github.mongoredact;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.Guard;

import java.util.concurrent.atomic.AtomicBoolean;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * The library's rule for a {@link Throwable} caught at the edge of a driver callback, for sinks and other integrations that
 * must never fail the application's operation (a sink's exceptions are caught by the listener anyway; this is for a sink that
 * counts its own failures, or code that runs where no listener catches, such as a tracing handler or a sink's own thread).
 *
 * <pre>{@code
 * private final CallbackGuard guard = new CallbackGuard(MySink.class);
 *
 * public void started(StartedCommand command) {
 *     try {
 *         ...
 *     } catch (Throwable t) {
 *         CallbackGuard.rethrowIfStopRequest(t);
 *         failures.increment();
 *         guard.log("MySink dropped a command", t);
 *     }
 * }
 * }</pre>
 *
 * <ul>
 *     <li>Every {@link Exception} and {@link Error} is caught and logged, and the caller goes on: a failing monitoring
 *     extension never fails the application's operation, which the server may have applied already.</li>
 *     <li>{@link ThreadDeath} alone goes on ({@link #rethrowIfStopRequest}): it is a request to end the thread, not a
 *     failure.</li>
 *     <li>{@link #log} writes through a {@link System.Logger} named after the class given (the JDK routes it to
 *     {@code java.util.logging} unless the application installs another backend, such as SLF4J's): a warning the first time,
 *     then at debug level, with the driver's version and the range the library supports. It never throws.</li>
 * </ul>
 *
 * <p>Threading: thread-safe. Each instance warns once: one per thing that warns.</p>
 *
 * @since 0.5
 */
public final class CallbackGuard {
    private final System.Logger logger;
    private final AtomicBoolean warned = new AtomicBoolean();

    /**
     * @param owner the class whose instances warn: the logger's name
     * @since 0.5
     */
    public CallbackGuard(final Class<?> owner) {
        this.logger = Guard.logger(notNull("owner", owner));
    }

    /**
     * Rethrows the one throwable that must go on: {@link ThreadDeath}. Call it first in every {@code catch (Throwable t)}.
     *
     * @param t the throwable caught
     * @since 0.5
     */
    public static void rethrowIfStopRequest(final Throwable t) {
        Guard.rethrowIfStopRequest(t);
    }

    /**
     * Logs a failure: at WARNING the first time on this guard, at DEBUG afterwards. Never throws: a logger that fails, or a
     * message that can not be built under memory pressure, is given up.
     *
     * @param what what failed, and what happened instead
     * @param failure the failure, or null when it must not be shown (its message may quote a document)
     * @since 0.5
     */
    public void log(final String what, @Nullable final Throwable failure) {
        Guard.log(logger, warned, what, failure);
    }

    @Override
    public String toString() {
        return "CallbackGuard{logger=" + logger.getName() + ", warned=" + warned.get() + "}";
    }
}
