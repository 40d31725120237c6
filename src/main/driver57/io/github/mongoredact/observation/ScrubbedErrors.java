package io.github.mongoredact.observation;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.Guard;
import io.github.mongoredact.internal.failure.FailureRedactor;
import io.micrometer.observation.Observation;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Replaces an observation's error by its redacted rebuild, once: the rebuild is remembered in the context, so that the
 * handler (at the error) and the filter (at the stop, for a handler registered too late) agree. Thread-safe.
 */
final class ScrubbedErrors {
    private static final System.Logger LOGGER = Guard.logger(DriverTracing.class);
    /** The key under which the context keeps the rebuilt error. */
    private static final Object KEY = ScrubbedErrors.class;

    /** Null when the policy keeps failures as they are ({@code RedactionPolicy.isRedactFailures()} false). */
    @Nullable
    private final FailureRedactor redactor;
    final LongAdder failures = new LongAdder();
    private final AtomicBoolean warned = new AtomicBoolean();

    ScrubbedErrors(@Nullable final FailureRedactor redactor) {
        this.redactor = redactor;
    }

    /**
     * @return the context's error, redacted (the same instance each time), or null when it has none
     */
    @Nullable
    Throwable scrub(final Observation.Context context, @Nullable final String commandName) {
        Throwable error = context.getError();
        if (error == null || redactor == null) {
            return error;
        }
        Throwable known = context.get(KEY);
        if (known == error) {
            return error;
        }
        Throwable scrubbed;
        try {
            scrubbed = redactor.redact(error, commandName == null ? "unknown" : commandName);
        } catch (Throwable t) {
            Guard.rethrowIfStopRequest(t);
            failures.increment();
            Guard.log(LOGGER, warned, "DriverTracing could not redact the error of an observation; a stand-in without its"
                    + " text was recorded", t);
            scrubbed = new IllegalStateException("The failure " + error.getClass().getName()
                    + " could not be redacted; its text is withheld");
            scrubbed.setStackTrace(error.getStackTrace());
        }
        context.put(KEY, scrubbed);
        context.setError(scrubbed);
        return scrubbed;
    }
}
