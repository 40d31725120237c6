package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.mask.DataLikeKeys;
import io.github.mongoredact.internal.mask.IndexKeys;
import io.github.mongoredact.internal.mask.Placeholders;


/**
 * The element loop of {@link PlaceholderRun}: the elements of one rule-free document, each scalar replaced by its placeholder
 * and each key kept, written from an index of the output's array (or counted). A nested document or array is taken in the
 * same loop, its levels on a stack of this loop's own (at most {@link #MAX_LEVELS}, never near {@link BsonBounds#MAX_DEPTH}),
 * keys of an array written as their positions, as the general path writes them: no recursion, and a document of any shape
 * costs one loop as long as all it holds is the common case.
 *
 * <p>Where something is not the common case, the loop stops before the element of its own document that holds it (an element
 * nested levels down included), and the general path takes that element whole: see {@link PlaceholderRun} for what it leaves.
 * Not thread-safe: one per {@link PlaceholderRun}. Holds no array after a run.</p>
 */
final class RuleFreeLoop {
    /** Nested levels one loop takes at most; deeper ones are the general path's. */
    static final int MAX_LEVELS = 32;
    /**
     * Value sizes of the types handled here; {@link #STRING} for length-prefixed strings, {@link #CONTAINER} for documents and
     * arrays, {@link #OTHER} for the rest.
     */
    private static final int[] VALUE_SIZE = new int[256];
    private static final int STRING = -1;
    private static final int OTHER = -2;
    /** One byte, 0 or 1 (the driver's decoder refuses others). */
    private static final int BOOLEAN = -3;
    private static final int CONTAINER = -4;
    /**
     * Per type: the length of its typed tail, what follows the key of its placeholder (length, the placeholder's bytes, NUL),
     * whose bytes are in {@link #TAIL_LONGS}.
     */
    private static final int[] TYPED_TAIL_LENGTH = new int[256];
    private static final byte[] FIXED_TAIL = tail(Placeholders.of(BsonTypes.STRING, true));
    /**
     * The typed tails (10 to 16 bytes) as two little-endian longs each, their first and their last 8 bytes: two stores that
     * overlap write exactly the tail.
     */
    private static final long[] TAIL_LONGS = new long[2 * 256];
    /** What a container needs after its key at least: its length and its terminator. */
    private static final int CONTAINER_MIN = 5;

    static {
        java.util.Arrays.fill(VALUE_SIZE, OTHER);
        for (int type : new int[]{BsonTypes.DOUBLE, BsonTypes.DATE_TIME, BsonTypes.TIMESTAMP, BsonTypes.INT64}) {
            VALUE_SIZE[type] = 8;
        }
        VALUE_SIZE[BsonTypes.STRING] = STRING;
        VALUE_SIZE[BsonTypes.JAVASCRIPT] = STRING;
        VALUE_SIZE[BsonTypes.SYMBOL] = STRING;
        VALUE_SIZE[BsonTypes.UNDEFINED] = 0;
        VALUE_SIZE[BsonTypes.NULL] = 0;
        VALUE_SIZE[BsonTypes.MIN_KEY & 0xff] = 0;
        VALUE_SIZE[BsonTypes.MAX_KEY] = 0;
        VALUE_SIZE[BsonTypes.OBJECT_ID] = 12;
        VALUE_SIZE[BsonTypes.INT32] = 4;
        VALUE_SIZE[BsonTypes.DECIMAL128] = 16;
        VALUE_SIZE[BsonTypes.BOOLEAN] = BOOLEAN;
        for (int type = 0; type < 256; type++) {
            if (VALUE_SIZE[type] != OTHER) {
                byte[] tail = tail(Placeholders.of((byte) type, false));
                TYPED_TAIL_LENGTH[type] = tail.length;
                longs(tail, type);
            }
        }
        VALUE_SIZE[BsonTypes.DOCUMENT] = CONTAINER;
        VALUE_SIZE[BsonTypes.ARRAY] = CONTAINER;
    }

    // the nested levels open: the end of the level that holds each, its next index there (-1: a document's), and where
    // the level's length goes in the output
    private final int[] levelEnds = new int[MAX_LEVELS];
    private final int[] levelIndexes = new int[MAX_LEVELS];
    private final int[] levelLengths = new int[MAX_LEVELS];
    private boolean fixed;
    private boolean maskKeys;
    /** Where the last run stopped writing (or counting). */
    int endAt;
    /** Values the last run replaced. */
    int replaced;
    // the element of the run's own document that opened the levels open: where the run started it, its output and count
    private int elementP;
    private int elementAt;
    private int elementCount;

    void fixedPlaceholders(final boolean fixedPlaceholders) {
        this.fixed = fixedPlaceholders;
    }

    void maskDataLikeKeys(final boolean mask) {
        this.maskKeys = mask;
    }

    /**
     * Runs over the elements of the document whose terminator is at {@code end}, from {@code from}, written from
     * {@code start} below {@code stop} ({@code dst} null: counted); then {@link #endAt} and {@link #replaced} say what it did.
     * Where it stops inside a nested level, it returns the start of the element of its own document that holds the level,
     * with the output and the count as they were there: the general path takes that element again.
     *
     * <p>One method, its values in locals: split into calls (keys, levels opened and closed, placeholders), it measured about
     * a fifth slower on documents of 1 KiB with nested documents and arrays.</p>
     *
     * @param depth the depth of the document whose elements these are
     * @return where it stopped: {@code end}, or the element the general path takes
     */
    int run(final byte[] src, final int from, final int end, @Nullable final byte[] dst, final int start, final int stop,
            final int depth) {
        int at = start;
        int p = from;
        int count = 0;
        int levels = 0;
        int levelEnd = end;
        // the next position in the level's array; -1 in a document
        int index = -1;
        // the levels this run may open: its own and the reader's bound on nesting
        int maxLevels = Math.min(MAX_LEVELS, BsonBounds.MAX_DEPTH - 2 - depth);
        boolean stopped = false;
        while (true) {
            if (p >= levelEnd) {
                if (levels == 0) {
                    break;
                }
                if (p != levelEnd || dst != null && at >= stop) {
                    stopped = true;
                    break;
                }
                levels--;
                if (dst != null) {
                    dst[at] = 0;
                    int lengthAt = levelLengths[levels];
                    Bytes.writeInt(dst, lengthAt, at + 1 - lengthAt);
                }
                at++;
                p = levelEnd + 1;
                levelEnd = levelEnds[levels];
                index = levelIndexes[levels];
                continue;
            }
            byte type = src[p];
            int size = VALUE_SIZE[type & 0xff];
            if (size == OTHER) {
                stopped = true;
                break;
            }
            boolean container = size == CONTAINER;
            // after the key: a placeholder's tail, or a container's length and at least its terminator
            int tailLength = fixed ? FIXED_TAIL.length : TYPED_TAIL_LENGTH[type & 0xff];
            int after = container ? CONTAINER_MIN : tailLength;
            int k = p + 1;
            int keyEnd;
            int kLen;
            if (index >= 0) {
                // an array element's name is a position: written as its index, what it holds does not matter (read to its
                // end where it is not the index, as the driver sends it)
                kLen = index < 10 ? 1 : IndexKeys.digits(index);
                keyEnd = k + kLen;
                if (index < 10 ? keyEnd >= levelEnd || src[keyEnd] != 0 || src[k] != '0' + index
                        : !IndexKeys.isName(src, k, levelEnd, index)) {
                    keyEnd = BsonCursor.keyEnd(src, k, levelEnd);
                    if (keyEnd == -1) {
                        stopped = true;
                        break;
                    }
                    keyEnd = keyEnd < -1 ? -2 - keyEnd : keyEnd;
                }
                if (dst != null) {
                    if (stop - at < 2 + kLen + after) {
                        stopped = true;
                        break;
                    }
                    IndexKeys.copy(dst, at + 1, index);
                }
                index++;
            } else {
                if (dst == null) {
                    keyEnd = BsonCursor.keyEnd(src, k, levelEnd);
                } else if (stop - at >= 2 + (levelEnd - k) + after) {
                    // room for the longest key this element can have: the key is copied as it is read
                    keyEnd = copyKey(src, k, levelEnd, dst, at + 1);
                } else {
                    stopped = true;
                    break;
                }
                if (keyEnd < 0 || (maskKeys && keyEnd - k >= DataLikeKeys.TOKEN_LENGTH)) {
                    keyEnd = classified(src, k, keyEnd);
                    if (keyEnd < 0) {
                        stopped = true;
                        break;
                    }
                }
                kLen = keyEnd - k;
            }
            int v = keyEnd + 1;
            if (container) {
                int length = v + 5 <= levelEnd ? Bytes.readInt(src, v) : -1;
                if (levels >= maxLevels || length < 5 || length > levelEnd - v || src[v + length - 1] != 0) {
                    stopped = true;
                    break;
                }
                if (dst != null) {
                    dst[at] = type;
                    dst[at + 1 + kLen] = 0;
                }
                if (levels == 0) {
                    // the element of the loop's own document that opens a level: where the general path starts again if
                    // something inside stops the loop
                    elementP = p;
                    elementAt = at;
                    elementCount = count;
                }
                levelEnds[levels] = levelEnd;
                levelIndexes[levels] = index;
                levelLengths[levels] = at + 2 + kLen;
                levels++;
                at += 2 + kLen + 4;
                p = v + 4;
                levelEnd = v + length - 1;
                index = type == BsonTypes.ARRAY ? 0 : -1;
                continue;
            }
            if (size < 0) {
                // checked within the level's end as it is read
                size = size == STRING ? stringSize(src, v, levelEnd) : booleanSize(src, v, levelEnd);
                if (size < 0) {
                    stopped = true;
                    break;
                }
            } else if (v + size > levelEnd) {
                stopped = true;
                break;
            }
            if (dst != null) {
                dst[at] = BsonTypes.STRING;
                dst[at + 1 + kLen] = 0;
                int q = at + 2 + kLen;
                if (fixed) {
                    System.arraycopy(FIXED_TAIL, 0, dst, q, tailLength);
                } else {
                    int slot = 2 * (type & 0xff);
                    Bytes.writeLong(dst, q, TAIL_LONGS[slot]);
                    Bytes.writeLong(dst, q + tailLength - 8, TAIL_LONGS[slot + 1]);
                }
            }
            at += 2 + kLen + tailLength;
            count++;
            p = v + size;
        }
        if (stopped && levels > 0) {
            p = elementP;
            at = elementAt;
            count = elementCount;
        }
        endAt = at;
        replaced = count;
        return p;
    }

    private static void longs(final byte[] tail, final int type) {
        if (tail.length < 8 || tail.length > 16) {
            throw new IllegalStateException("typed placeholder tail not of 8 to 16 bytes: type=" + type + " length="
                    + tail.length);
        }
        TAIL_LONGS[2 * type] = Bytes.readLong(tail, 0);
        TAIL_LONGS[2 * type + 1] = Bytes.readLong(tail, tail.length - 8);
    }

    private static byte[] tail(final byte[] placeholder) {
        byte[] tail = new byte[4 + placeholder.length + 1];
        Bytes.writeInt(tail, 0, placeholder.length + 1);
        System.arraycopy(placeholder, 0, tail, 4, placeholder.length);
        return tail;
    }

    /**
     * The end of a key that {@link BsonCursor#keyEnd} could not give plainly: one past ASCII or with a control character (-1), one that
     * may look like data, or a long one (a token, perhaps).
     *
     * @return the index of its NUL, or -1 where the general path must take the element (it may mask the key)
     */
    private int classified(final byte[] src, final int k, final int keyEnd) {
        if (keyEnd == -1) {
            return -1;
        }
        int end = keyEnd < -1 ? -2 - keyEnd : keyEnd;
        return maskKeys && DataLikeKeys.isDataLike(src, k, end) ? -1 : end;
    }

    /**
     * Copies the key at {@code k} to {@code dst[to]} while checking and classifying it as {@link BsonCursor#keyEnd} does: that
     * loop with the copy fused in, because the copy after it ({@code System.arraycopy}) cost about 40 % more per key, and one
     * loop taking a nullable destination about 20 % more, for both callers. Eight bytes are copied at a time as they are
     * read, those past the key's end included: the destination has room for {@code end - k} bytes from {@code to}, and what
     * follows the key is written after it.
     *
     * @return as {@link BsonCursor#keyEnd}
     */
    private static int copyKey(final byte[] src, final int k, final int end, final byte[] dst, final int to) {
        int q = to;
        boolean suspect = false;
        int i = k;
        while (i < end) {
            if (i <= end - 8) {
                long w = Bytes.readLong(src, i);
                Bytes.writeLong(dst, q, w);
                long odd = BsonCursor.unplain(w);
                if (odd == 0) {
                    i += 8;
                    q += 8;
                    continue;
                }
                long nul = Bytes.zeroBytes(w);
                if ((odd & -odd) == (nul & -nul)) {
                    int e = i + (Long.numberOfTrailingZeros(nul) >>> 3);
                    return suspect ? -2 - e : e;
                }
                int n = Long.numberOfTrailingZeros(odd) >>> 3;
                i += n;
                q += n;
            }
            byte b = src[i];
            if (b > DataLikeKeys.PUNCTUATION_END && b != 0x7F) {
                dst[q++] = b;
                i++;
            } else if (b > 0x1F && b != 0x7F) {
                dst[q++] = b;
                suspect |= DataLikeKeys.isSuspect(b);
                i++;
            } else {
                return b != 0 ? -1 : suspect ? -2 - i : i;
            }
        }
        return -1;
    }

    /** @return the size of the string value at {@code v}, or -1 where the general path must look (bounds, a placeholder) */
    private static int stringSize(final byte[] src, final int v, final int end) {
        if (v + 5 > end) {
            return -1;
        }
        int length = Bytes.readInt(src, v);
        if (length < 1 || length > end - v - 4 || src[v + 4 + length - 1] != 0 || src[v + 4] == '?') {
            return -1;
        }
        return 4 + length;
    }

    /** @return 1 for a boolean at {@code v} that is 0 or 1, or -1 where the general path must look */
    private static int booleanSize(final byte[] src, final int v, final int end) {
        return v < end && (src[v] == 0 || src[v] == 1) ? 1 : -1;
    }
}
