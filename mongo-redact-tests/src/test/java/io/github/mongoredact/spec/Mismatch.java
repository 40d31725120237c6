package io.github.mongoredact.spec;

/**
 * One way the observed events or log messages differ from a spec test's expectations. The kind separates the three known
 * product faults (see {@link KnownProductFaults}) from everything else, so that a listed test must keep failing for exactly
 * its listed reason.
 */
final class Mismatch {
    /** What kind of difference. */
    enum Kind {
        /** Any difference that is not one of the kinds below. */
        OTHER,
        /** A redacted server failure keeps {@code "ok"} besides {@code code}, {@code codeName} and {@code errorLabels}. */
        REDACTED_FAILURE_KEEPS_OK,
        /** A failure's text in the log is longer than {@code maxDocumentLength} plus the ellipsis. */
        FAILURE_TEXT_NOT_CUT,
        /** A document exactly {@code maxDocumentLength} characters long is logged with {@code " ..."} appended. */
        EXACT_LENGTH_CUT
    }

    final Kind kind;
    final String text;

    Mismatch(final Kind kind, final String text) {
        this.kind = kind;
        this.text = text;
    }

    static Mismatch other(final String text) {
        return new Mismatch(Kind.OTHER, text);
    }

    @Override
    public String toString() {
        return kind == Kind.OTHER ? text : kind + ": " + text;
    }
}
