package io.github.mongoredact.internal.walk;

/**
 * The walk's decision for one element, returned by value: its action, how its key is written and with which index, and the
 * flags of how it is emitted, packed into a {@code long} so that deciding allocates nothing and the decision travels in
 * locals and parameters (a trial measure between deciding and emitting leaves it as it was). The rule node of the element
 * goes beside it, as a reference of its own.
 */
final class Decision {
    /** An array a typed {@code KEEP} does not take whole: its elements are each kept or redacted. */
    static final int TYPED_ARRAY = 1;
    /** The element is the command {@code explain} wraps. */
    static final int WRAPPER = 2;
    /** A rule names the element's key. */
    static final int NAMED = 4;
    /** The element counts in the fingerprint. */
    static final int HASHED = 8;
    /** Its value counts too: a namespace. */
    static final int HASHED_VALUE = 16;

    private static final int KEY_STYLE_SHIFT = 8;
    private static final int FLAGS_SHIFT = 10;

    private Decision() {
    }

    /** @return the decision of {@code action} with the given {@link #TYPED_ARRAY} ... flags, key style 0 and index 0 */
    static long of(final byte action, final int flags) {
        return (action & 0xffL) | ((long) flags << FLAGS_SHIFT);
    }

    static byte action(final long decision) {
        return (byte) decision;
    }

    static boolean is(final long decision, final int flag) {
        return ((decision >>> FLAGS_SHIFT) & flag) != 0;
    }

    /** @return the decision with {@code flag} set as {@code on} says */
    static long with(final long decision, final int flag, final boolean on) {
        return on ? decision | ((long) flag << FLAGS_SHIFT) : decision;
    }

    /** @return how the key is written ({@link ElementWriter#KEYS_AS_IS} ...) */
    static int keyStyle(final long decision) {
        return (int) (decision >>> KEY_STYLE_SHIFT) & 3;
    }

    /** @return the index the key is written with */
    static int outIndex(final long decision) {
        return (int) (decision >>> 32);
    }

    /** @return the decision with its key written in style {@code keys} with index {@code index} */
    static long key(final long decision, final int keys, final int index) {
        return (decision & 0xffffffffL & ~(3L << KEY_STYLE_SHIFT)) | ((long) keys << KEY_STYLE_SHIFT) | ((long) index << 32);
    }
}
