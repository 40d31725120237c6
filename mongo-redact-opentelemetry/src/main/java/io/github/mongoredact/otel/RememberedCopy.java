package io.github.mongoredact.otel;

import io.github.mongoredact.OwnedDocument;

/**
 * A redacted copy's query text and {@link SpanFacts}, with the copy to be found again by its bytes: the commands of one
 * operation on one session have equal copies under a policy that replaces values (their text and facts are then that copy's,
 * taken without reading it again). Immutable once made; published without a lock through its final fields.
 */
final class RememberedCopy {
    /** The most bytes of a copy that is remembered. */
    static final int MAX_BYTES = 512;
    /** The copy: an owned, immutable document of the listener, of at most {@value #MAX_BYTES} bytes. */
    private final OwnedDocument copy;
    final String text;
    final SpanFacts facts;

    RememberedCopy(final OwnedDocument copy, final String text, final SpanFacts facts) {
        this.copy = copy;
        this.text = text;
        this.facts = facts;
    }

    /** @return whether a copy is small enough to be remembered */
    static boolean fits(final OwnedDocument copy) {
        return copy.getSize() <= MAX_BYTES;
    }

    /** @return whether the copy has the bytes of the one remembered */
    boolean isOf(final OwnedDocument other) {
        return copy.equals(other);
    }
}
