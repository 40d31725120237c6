package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.Bytes;

/**
 * Finds a top-level element of an owned document (a redacted copy the listener wrote, whose bytes it checked as it wrote
 * them) with the one reader of elements, {@link BsonCursor}, not strict: the framing of each element it passes is checked, its
 * content is not read again. For the API's read-only view of an owned document. Stateless; each call has its own cursor.
 */
public final class TopLevelFields {
    private TopLevelFields() {
    }

    /**
     * @param src the array that holds the document
     * @param off where the document starts in it
     * @param length the document's length in bytes
     * @param name the UTF-8 name of the element, or null for the first element
     * @return where the element starts (its type byte) in the high 32 bits and where it ends (after its value) in the low 32
     *         bits; -1 when the document has no such element
     * @throws io.github.mongoredact.internal.bson.BsonFormatException if the bytes before it do not add up
     */
    public static long locate(final byte[] src, final int off, final int length, @Nullable final byte[] name) {
        BsonCursor cursor = new BsonCursor();
        cursor.bind(src, off + length, false);
        int end = cursor.open(off, 1);
        int p = off + 4;
        while (p < end) {
            cursor.read(p, end);
            if (name == null || (cursor.keyLength() == name.length && Bytes.equal(name, src, cursor.key(), name.length))) {
                return ((long) p << 32) | cursor.valueEnd();
            }
            p = cursor.valueEnd();
        }
        return -1;
    }
}
