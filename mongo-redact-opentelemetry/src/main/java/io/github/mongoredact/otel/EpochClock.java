package io.github.mongoredact.otel;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * The wall clock in nanoseconds since the epoch, read from the monotonic clock: anchored once to {@link Instant#now()}, then
 * advanced by {@link System#nanoTime()}, so that a span's start and end (the start plus the driver's elapsed time) are on one
 * clock and never go back. Immutable and thread-safe.
 */
final class EpochClock {
    private final long epochNanosAtAnchor;
    private final long nanoTimeAtAnchor;

    EpochClock() {
        Instant now = Instant.now();
        this.nanoTimeAtAnchor = System.nanoTime();
        this.epochNanosAtAnchor = TimeUnit.SECONDS.toNanos(now.getEpochSecond()) + now.getNano();
    }

    /** @return the wall clock in nanoseconds since the epoch */
    long now() {
        return epochNanosAtAnchor + (System.nanoTime() - nanoTimeAtAnchor);
    }
}
