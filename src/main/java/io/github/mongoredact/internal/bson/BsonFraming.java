package io.github.mongoredact.internal.bson;

import java.util.Arrays;

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
    /** The size of a value by its type byte, where that size is fixed; -1 for the other types (and for unknown bytes). */
    private static final byte[] FIXED = fixedSizes();
    /** The index of the terminating NUL of each open document, outermost first. */
    /** The ends of the open levels, grown by doubling up to {@link BsonBounds#MAX_DEPTH}. */
    private int[] ends = new int[16];

    /**
     * Checks the document at {@code src[off]}, which must lie before {@code limit}: what {@link BsonBounds#valueEnd} and
     * {@link #open} check, element by element, in one loop that skips the values of a fixed size by a table and searches
     * keys eight bytes at a time ({@link BsonBounds#cstringEnd}).
     *
     * @return the index after the document
     * @throws BsonFormatException where the framing is broken
     */
    public int check(final byte[] src, final int off, final int limit) {
        int depth = 0;
        int end = open(src, off, limit, 0);
        ends[0] = end;
        int p = off + 4;
        while (true) {
            if (p >= end) {
                if (depth == 0) {
                    return end + 1;
                }
                p = end + 1;
                depth--;
                end = ends[depth];
                continue;
            }
            byte type = src[p];
            int v = BsonBounds.cstringEnd(src, p + 1, end) + 1;
            int size = FIXED[type & 0xff];
            if (size >= 0) {
                if (size > end - v) {
                    throw overrun(v, (long) v + size, end);
                }
                p = v + size;
            } else if (type == BsonTypes.STRING) {
                p = (int) BsonBounds.stringEnd(src, v, end);
            } else if (type == BsonTypes.DOCUMENT || type == BsonTypes.ARRAY) {
                end = nested(src, type, v, end, ++depth);
                p = v + 4;
            } else if (type == BsonTypes.CODE_WITH_SCOPE) {
                int vEnd = BsonBounds.valueEnd(src, type, v, end);
                // the scope is a document like any other: after it, the walk goes on at vEnd
                int scope = scope(src, v, vEnd);
                depth++;
                end = open(src, scope, vEnd, depth);
                endAt(depth, end);
                p = scope + 4;
            } else {
                p = BsonBounds.valueEnd(src, type, v, end);
            }
        }
    }

    /**
     * Opens the document or array whose value starts at {@code v} in the document ending at {@code end}: its length at least
     * 5 and within {@code end}, its last byte NUL, nesting within {@link BsonBounds#MAX_DEPTH}.
     *
     * @return the index of its terminating NUL, also recorded as the end at {@code depth}
     */
    private int nested(final byte[] src, final byte type, final int v, final int end, final int depth) {
        BsonBounds.checkAvailable(v, 4, end);
        int length = Bytes.readInt(src, v);
        if (length < 5) {
            throw new BsonFormatException("length too small: index=" + v + " length=" + length + " type=" + type);
        }
        if (length > end - v) {
            throw overrun(v, (long) v + length, end);
        }
        if (depth >= BsonBounds.MAX_DEPTH) {
            throw FramingErrors.tooDeep(v);
        }
        int nestedEnd = v + length - 1;
        if (src[nestedEnd] != 0) {
            throw FramingErrors.notTerminated(v, length);
        }
        endAt(depth, nestedEnd);
        return nestedEnd;
    }

    /** Records the end of the level at {@code depth} (within {@link BsonBounds#MAX_DEPTH}, checked when it was opened). */
    private void endAt(final int depth, final int end) {
        if (depth == ends.length) {
            ends = Arrays.copyOf(ends, Math.min(BsonBounds.MAX_DEPTH, 2 * depth));
        }
        ends[depth] = end;
    }

    private static BsonFormatException overrun(final int v, final long after, final int end) {
        return new BsonFormatException("value overruns its document: index=" + v + " end=" + after + " limit=" + end);
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

    private static byte[] fixedSizes() {
        byte[] sizes = new byte[256];
        Arrays.fill(sizes, (byte) -1);
        fixed(sizes, 0, BsonTypes.UNDEFINED, BsonTypes.NULL, BsonTypes.MIN_KEY, BsonTypes.MAX_KEY);
        fixed(sizes, 1, BsonTypes.BOOLEAN);
        fixed(sizes, 4, BsonTypes.INT32);
        fixed(sizes, 8, BsonTypes.DOUBLE, BsonTypes.DATE_TIME, BsonTypes.TIMESTAMP, BsonTypes.INT64);
        fixed(sizes, 12, BsonTypes.OBJECT_ID);
        fixed(sizes, 16, BsonTypes.DECIMAL128);
        return sizes;
    }

    private static void fixed(final byte[] sizes, final int size, final byte... types) {
        for (byte type : types) {
            sizes[type & 0xff] = (byte) size;
        }
    }
}
