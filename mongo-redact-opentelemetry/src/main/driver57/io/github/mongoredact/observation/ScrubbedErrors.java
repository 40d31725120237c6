package io.github.mongoredact.observation;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.CallbackGuard;
import io.github.mongoredact.RedactionPolicy;
import io.micrometer.observation.Observation;

import java.util.concurrent.atomic.LongAdder;

/**
 * Replaces an observation's error by its redacted rebuild, once: the rebuild is remembered in the context, so that the
 * handler (at the error) and the filter (at the stop, for a handler registered too late) agree. Thread-safe.
 */
final class ScrubbedErrors {
    /** The key under which the context keeps the rebuilt error. */
    private static final Object KEY = ScrubbedErrors.class;

    /** The policy that redacts the errors; null when it keeps failures as they are ({@code isRedactFailures()} false). */
    @Nullable
    private final RedactionPolicy redactor;
    final LongAdder failures = new LongAdder();
    private final CallbackGuard guard = new CallbackGuard(DriverTracing.class);

    ScrubbedErrors(@Nullable final RedactionPolicy redactor) {
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
            scrubbed = redactor.redactFailure(error, commandName == null ? "unknown" : commandName);
        } catch (Throwable t) {
            CallbackGuard.rethrowIfStopRequest(t);
            failures.increment();
            guard.log("DriverTracing could not redact the error of an observation; a stand-in without its"
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
