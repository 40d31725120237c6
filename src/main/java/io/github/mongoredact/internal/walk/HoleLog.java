package io.github.mongoredact.internal.walk;

/**
 * What a walk that is recorded for a {@link ShapeReplay} copied from the source into its output: each kept value's place in
 * the output, in the source and its length (the holes of the output's template), the values the fingerprint mixed in, and
 * whether any output byte depended on a value in another way (a flag kept or not by its value, a string that already is a
 * placeholder, a scrubbed message, an omitted marker's count, a sequence copied where it lies): such a walk cannot be
 * replayed. Not thread-safe: one per walker.
 */
final class HoleLog {
    /** The most kept values a replayable walk may copy. */
    static final int MAX_HOLES = 32;
    final int[] out = new int[MAX_HOLES];
    final int[] src = new int[MAX_HOLES];
    final int[] length = new int[MAX_HOLES];
    int holes;
    /** The values the fingerprint mixed in (a namespace), by their place in the source. */
    final int[] hashed = new int[MAX_HOLES];
    int hashedValues;
    private boolean recording;
    private boolean fingerprinted;
    private boolean valueDependent;

    /** Starts (or, with false, stops) logging for the next walk, which computes the fingerprint or not. */
    void record(final boolean on, final boolean fingerprint) {
        recording = on;
        fingerprinted = fingerprint;
        holes = 0;
        hashedValues = 0;
        valueDependent = false;
    }

    /** @return whether the walk logged computed the fingerprint */
    boolean fingerprinted() {
        return fingerprinted;
    }

    /** A value the fingerprint mixed in, at {@code srcOff}: a replay's fingerprint is the walk's only if it is the same. */
    void hashed(final int srcOff) {
        if (!recording) {
            return;
        }
        if (hashedValues == MAX_HOLES) {
            valueDependent = true;
            return;
        }
        hashed[hashedValues++] = srcOff;
    }

    boolean recording() {
        return recording;
    }

    /** A kept value: {@code src[srcOff, srcOff + len)} written at {@code outOff}. */
    void hole(final int outOff, final int srcOff, final int len) {
        if (!recording) {
            return;
        }
        if (holes == MAX_HOLES) {
            valueDependent = true;
            return;
        }
        out[holes] = outOff;
        src[holes] = srcOff;
        length[holes] = len;
        holes++;
    }

    /** An output byte depended on a value otherwise than by a copy: the walk is not replayed. */
    void valueDependent() {
        valueDependent = true;
    }

    /** @return whether the walk logged can be replayed: it was logged, and only copies depended on values */
    boolean replayable() {
        return recording && !valueDependent;
    }
}
