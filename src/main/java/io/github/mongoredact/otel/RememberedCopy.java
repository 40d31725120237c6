package io.github.mongoredact.otel;

import io.github.mongoredact.internal.bson.DocumentBytes;
import org.bson.RawBsonDocument;

import java.util.Arrays;

/**
 * A redacted copy's query text and {@link SpanFacts}, with the copy's bytes when they are remembered to be found again: the
 * commands of one operation on one session have equal copies under a policy that replaces values (their text and facts are
 * then that copy's, taken without reading it again). Immutable once made; published without a lock through its final fields.
 */
final class RememberedCopy {
    /** The most bytes of a copy that is remembered. */
    static final int MAX_BYTES = 512;
    /** The copy's bytes. */
    private final byte[] bytes;
    final String text;
    final SpanFacts facts;

    RememberedCopy(final byte[] bytes, final String text, final SpanFacts facts) {
        this.bytes = bytes;
        this.text = text;
        this.facts = facts;
    }

    /** @return the copy's bytes to remember, none (an empty array) when it is larger than {@value #MAX_BYTES} */
    static byte[] bytesOf(final RawBsonDocument copy) {
        int length = DocumentBytes.length(copy);
        if (length > MAX_BYTES) {
            return new byte[0];
        }
        int from = DocumentBytes.offset(copy);
        return Arrays.copyOfRange(DocumentBytes.array(copy), from, from + length);
    }

    /** @return whether the copy has the bytes of the one remembered */
    boolean isOf(final RawBsonDocument copy) {
        byte[] known = bytes;
        int from = DocumentBytes.offset(copy);
        return DocumentBytes.length(copy) == known.length
                && Arrays.equals(DocumentBytes.array(copy), from, from + known.length, known, 0, known.length);
    }
}
