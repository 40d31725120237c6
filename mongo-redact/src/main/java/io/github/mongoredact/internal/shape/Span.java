package io.github.mongoredact.internal.shape;

/**
 * Where a run of bytes lies in the command, as one long (offset in the high half, length in the low): so that the parser's
 * methods that take a path and an operator's name keep to a few parameters. Stateless.
 */
final class Span {
    private Span() {
    }

    static long of(final int off, final int len) {
        return (long) off << 32 | len & 0xffffffffL;
    }

    static int off(final long span) {
        return (int) (span >>> 32);
    }

    static int len(final long span) {
        return (int) span;
    }
}
