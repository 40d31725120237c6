package io.github.mongoredact.internal.bson;

/**
 * The frame of a document, checked where a reader enters it: nesting within {@link BsonBounds#MAX_DEPTH}, its length prefix
 * at least 5 and within its bound, its last byte the terminating NUL; and the scope of a JavaScript-with-scope value. Every
 * reader of raw documents opens them here ({@code BsonCursor}, the walk of kept subtrees), so that a frame is refused alike
 * wherever it is read.
 *
 * <p>Stateless and thread-safe.</p>
 */
public final class BsonFraming {
    private BsonFraming() {
    }

    /**
     * The one check of a document's frame, for every reader of raw documents: nesting, length within {@code limit}, NUL at
     * the end.
     *
     * @param depth how many documents enclose this one (0 for a top level)
     * @return the index of the terminating NUL of the document at {@code off}, which must end at or before {@code limit}
     */
    public static int open(final byte[] src, final int off, final int limit, final int depth) {
        if (depth >= BsonBounds.MAX_DEPTH) {
            throw FramingErrors.tooDeep(off);
        }
        if ((long) off + 5 > limit) {
            throw FramingErrors.truncated(off, "end", limit);
        }
        int length = Bytes.readInt(src, off);
        if (length < 5 || (long) off + length > limit) {
            throw FramingErrors.lengthOutOfBounds(off, length, "end", limit);
        }
        int end = off + length - 1;
        if (src[end] != 0) {
            throw FramingErrors.notTerminated(off, length);
        }
        return end;
    }

    /** @return where the scope document of the JavaScript-with-scope value at {@code v} starts; it ends at {@code vEnd} */
    public static int scope(final byte[] src, final int v, final int vEnd) {
        int scope = (int) BsonBounds.stringEnd(src, v + 4, vEnd);
        BsonBounds.checkAvailable(scope, 5, vEnd);
        if ((long) scope + Bytes.readInt(src, scope) != vEnd) {
            throw FramingErrors.scopeMismatch(v, vEnd);
        }
        return scope;
    }
}
