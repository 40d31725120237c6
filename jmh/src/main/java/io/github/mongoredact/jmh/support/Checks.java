package io.github.mongoredact.jmh.support;

import io.github.mongoredact.ListenerCounters;
import io.github.mongoredact.RedactingCommandListener;

/** Checks a benchmark runs after its trial, so that a broken subject fails the run instead of reporting cheap numbers. */
public final class Checks {
    private Checks() {
    }

    /**
     * @param condition what must hold
     * @param message what failed, with the values
     */
    public static void check(final boolean condition, final String message) {
        if (!condition) {
            throw new IllegalStateException(message);
        }
    }

    /**
     * Fails when the listener failed to redact anything (it then forwards cheap marker documents) or a downstream threw.
     *
     * @param listener the listener measured
     */
    public static void noFailures(final RedactingCommandListener listener) {
        ListenerCounters counters = listener.getCounters();
        check(counters.getEventsForwarded() > 0, "no event forwarded: " + counters);
        check(counters.getRedactionFailures() == 0, "redaction failures: " + counters.getRedactionFailures());
        check(counters.getSinkFailures() == 0, "sink failures: " + counters.getSinkFailures());
    }
}
