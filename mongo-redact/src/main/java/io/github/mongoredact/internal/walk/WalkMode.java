package io.github.mongoredact.internal.walk;

/**
 * What one walk does besides sizing or writing: whether it analyses (finds the collection, counts the values redacted),
 * whether it computes the query-shape fingerprint, and whether a cap ({@code maxDocumentBytes}) cuts it. Immutable; every
 * combination is built once ({@link #of}), so that a walk takes its mode without allocating. Where the bytes go (counted,
 * written exactly, or written while they fit) is the output's, set with its destination by the entry point of the walk.
 *
 * <p>The walk passes its mode down the loop as a value: a trial measure under a cap walks the element with
 * {@link #TRIAL}, an element that fits whole with {@link #uncapped()}, and neither has anything to restore after.</p>
 */
final class WalkMode {
    private static final int FINGERPRINT = 1;
    private static final int ANALYSING = 2;
    private static final int CAPPED = 4;
    private static final WalkMode[] ALL = new WalkMode[8];

    static {
        for (int bits = 0; bits < ALL.length; bits++) {
            ALL[bits] = new WalkMode(bits);
        }
    }

    /** Sizes or writes, nothing more: the structure check and the uncapped write. */
    static final WalkMode PLAIN = ALL[0];
    /** A capped size or write. */
    static final WalkMode CAPPED_WALK = ALL[CAPPED];
    /** The trial measure of an element under a cap: counted uncapped, without analysis or fingerprint. */
    static final WalkMode TRIAL = PLAIN;

    private final int bits;
    /** Whether the fingerprint's tokens are mixed in. */
    final boolean fingerprint;
    /** Whether the collection is found and the values redacted counted. */
    final boolean analysing;
    /** Whether the cap limits the output. */
    final boolean capped;

    private WalkMode(final int bits) {
        this.bits = bits;
        this.fingerprint = (bits & FINGERPRINT) != 0;
        this.analysing = (bits & ANALYSING) != 0;
        this.capped = (bits & CAPPED) != 0;
    }

    /** @return the mode with these parts, one of the instances built once */
    static WalkMode of(final boolean fingerprint, final boolean analysing, final boolean capped) {
        return ALL[(fingerprint ? FINGERPRINT : 0) | (analysing ? ANALYSING : 0) | (capped ? CAPPED : 0)];
    }

    /** @return an analysing walk's mode, with or without the fingerprint */
    static WalkMode analysis(final boolean fingerprint) {
        return of(fingerprint, true, false);
    }

    /** @return this mode without the cap: an element that fits whole is walked so */
    WalkMode uncapped() {
        return ALL[bits & ~CAPPED];
    }

    @Override
    public String toString() {
        return "WalkMode{fingerprint=" + fingerprint + ", analysing=" + analysing + ", capped=" + capped + '}';
    }
}
