package io.github.mongoredact.internal.bson;

/**
 * Checks the structure of a BSON document that is copied verbatim as a whole (a command the driver holds as bytes, a reply),
 * element by element: every length prefix within its document, every type known, every value within bounds, every document
 * terminated, nesting at most {@link BsonBounds#MAX_DEPTH} levels; exactly what a reader needs to walk it, and nothing about
 * what the values say (keys and strings are not checked as text). The documents of a sequence, copied whole, have only their
 * own frame checked ({@link FramedCopy}).
 *
 * <p>One loop with the ends of the open documents in an array, so that depth costs no stack. Not thread-safe: one instance per
 * thread, reused; it keeps no reference to the bytes it checked.</p>
 */
public final class BsonFraming {
    /** The index of the terminating NUL of each open document, outermost first. */
    private final int[] ends = new int[BsonBounds.MAX_DEPTH];

    /**
     * Checks the document at {@code src[off]}, which must lie before {@code limit}.
     *
     * @return the index after the document
     * @throws BsonFormatException where the framing is broken
     */
    public int check(final byte[] src, final int off, final int limit) {
        int depth = 0;
        ends[0] = open(src, off, limit, 0);
        int p = off + 4;
        while (true) {
            int end = ends[depth];
            if (p >= end) {
                if (depth == 0) {
                    return end + 1;
                }
                p = end + 1;
                depth--;
                continue;
            }
            byte type = src[p];
            int v = BsonBounds.cstringEnd(src, p + 1, end) + 1;
            int vEnd = BsonBounds.valueEnd(src, type, v, end);
            if (type == BsonTypes.DOCUMENT || type == BsonTypes.ARRAY) {
                depth++;
                ends[depth] = open(src, v, vEnd, depth);
                p = v + 4;
                continue;
            }
            if (type == BsonTypes.CODE_WITH_SCOPE) {
                // the scope is a document like any other: after it, the walk goes on at vEnd
                int scope = scope(src, v, vEnd);
                depth++;
                ends[depth] = open(src, scope, vEnd, depth);
                p = scope + 4;
                continue;
            }
            p = vEnd;
        }
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
