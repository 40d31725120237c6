package io.github.mongoredact.internal.walk;

import io.github.mongoredact.internal.bson.Output;

/**
 * The cap of a capped walk ({@code maxDocumentBytes}): what still fits below it, keeping one NUL per open document and the
 * truncation marker free, and whether the walk was cut. Whether a walk is capped is its {@link WalkMode}'s: the budget is
 * asked only then.
 *
 * <p>Not thread-safe: one per walker.</p>
 */
final class CapBudget {
    private final Output out;
    private int limit;
    private boolean cut;
    private int openDocuments;

    CapBudget(final Output out) {
        this.out = out;
    }

    /**
     * The limit of the next capped walk: {@code outputLimit}, an index into the output. The walk's caller writes the count of
     * bytes left out into the marker once the capped output's size is known.
     */
    void limit(final int outputLimit) {
        limit = outputLimit;
    }

    /** Starts a walk: not cut, no document open. */
    void start() {
        cut = false;
        openDocuments = 0;
    }

    /** @return whether {@code size} more bytes fit, with room left to close every open document and mark the cut */
    boolean fits(final int size) {
        return (long) out.position() + size + openDocuments + ElementWriter.TRUNCATION_MARKER_SIZE <= limit;
    }

    boolean cut() {
        return cut;
    }

    void cutHere() {
        cut = true;
    }

    void opened() {
        openDocuments++;
    }

    void closed() {
        openDocuments--;
    }
}
