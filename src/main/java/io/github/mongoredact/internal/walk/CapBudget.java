package io.github.mongoredact.internal.walk;

import io.github.mongoredact.internal.bson.Output;

/**
 * The cap of a capped walk ({@code maxDocumentBytes}): what still fits below it, keeping one NUL per open document and the
 * truncation marker free, and whether the walk was cut. Off, everything fits.
 *
 * <p>Not thread-safe: one per walker.</p>
 */
final class CapBudget {
    private final Output out;
    private boolean capped;
    private int limit;
    private boolean cut;
    private int openDocuments;
    /** For a capped write: the bytes left out, written into the truncation marker. */
    private long truncated;

    CapBudget(final Output out) {
        this.out = out;
    }

    /** Caps the output at {@code limit} (an index into the output); {@code truncatedBytes} goes into the marker. */
    void on(final int outputLimit, final long truncatedBytes) {
        capped = true;
        limit = outputLimit;
        truncated = truncatedBytes;
        cut = false;
        openDocuments = 0;
    }

    void off() {
        capped = false;
        cut = false;
        openDocuments = 0;
    }

    boolean capped() {
        return capped;
    }

    /** Walks an element that fits whole without the cap; {@link #resume()} after it. */
    void suspend() {
        capped = false;
    }

    void resume() {
        capped = true;
    }

    /** @return whether {@code size} more bytes fit, with room left to close every open document and mark the cut */
    boolean fits(final int size) {
        return !capped || (long) out.position() + size + openDocuments + ElementWriter.TRUNCATION_MARKER_SIZE <= limit;
    }

    boolean cut() {
        return cut;
    }

    void cutHere() {
        cut = true;
    }

    long truncated() {
        return truncated;
    }

    void opened() {
        openDocuments++;
    }

    void closed() {
        openDocuments--;
    }

    int openDocuments() {
        return openDocuments;
    }

    void openDocuments(final int count) {
        openDocuments = count;
    }
}
