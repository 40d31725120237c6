package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.bson.Output;
import io.github.mongoredact.internal.bson.SequenceViews;
import io.github.mongoredact.internal.mask.DataLikeKeys;
import io.github.mongoredact.internal.mask.IndexKeys;
import io.github.mongoredact.internal.mask.Placeholders;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The tight loops for what no rule, cap, limit or fingerprint can reach: every scalar becomes its placeholder, keys kept. This
 * is what the documents of a sequence are under {@code defaults()}. {@link #elements} runs over the elements of such a
 * document, {@link #documents} over the documents of such an array. One read of each key byte finds its end, checks it and
 * notes whether the key may look like data ({@link DataLikeKeys#isSuspect}, for the bytes up to {@code @} only); the value's end comes
 * from its type; the output goes straight into the output's array, on a local index, its room checked per element.
 *
 * <p>They stop, leaving the element to the walker's general path, at everything that is not the common case: a nested document
 * or array, a type whose value needs more checks (binary, JavaScript with scope, regular expressions, ...), a key past ASCII or
 * with a control character, a key that looks like data (when keys are masked), a string that may already be a placeholder, a
 * bound that does not hold (the general path says where), or too little room (the general path decides about overflow). So
 * their output is the general path's for the same elements and they report no error of their own. The walker runs them only
 * where its own rule lookup would return the inherited {@code REDACT} for every key.</p>
 *
 * <p>Not thread-safe: one per walker.</p>
 */
final class PlaceholderRun {
    /** Value sizes of the types handled here; {@link #STRING} for length-prefixed strings, {@link #OTHER} for the rest. */
    private static final int[] VALUE_SIZE = new int[256];
    private static final int STRING = -1;
    private static final int OTHER = -2;
    /** One byte, 0 or 1 (the driver's decoder refuses others). */
    private static final int BOOLEAN = -3;
    /** Per type: what follows the key of its placeholder: length, the placeholder's bytes, NUL. */
    private static final byte[][] TYPED_TAILS = new byte[256][];
    private static final byte[] FIXED_TAIL = tail(Placeholders.of(BsonTypes.STRING, true));
    /**
     * The typed tails (10 to 16 bytes) as two little-endian longs each, their first and their last 8 bytes: two stores that
     * overlap write exactly the tail.
     */
    private static final long[] TAIL_LONGS = new long[2 * 256];
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

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
                TYPED_TAILS[type] = tail(Placeholders.of((byte) type, false));
                longs(TYPED_TAILS[type], type);
            }
        }
    }

    private final Output out;
    private final BsonCursor cursor;
    private boolean fixed;
    private boolean maskKeys;
    /** Values replaced by the last run. */
    int redacted;
    /** Documents taken by the last {@link #documents}. */
    int documents;
    // where the element loop stopped writing, and the values it replaced
    private int loopAt;
    private int loopCount;

    PlaceholderRun(final Output out, final BsonCursor cursor) {
        this.out = out;
        this.cursor = cursor;
    }

    void fixedPlaceholders(final boolean fixedPlaceholders) {
        this.fixed = fixedPlaceholders;
    }

    /** @param mask whether keys that look like data are masked: such a key is left to the general path */
    void maskDataLikeKeys(final boolean mask) {
        this.maskKeys = mask;
    }

    private static void longs(final byte[] tail, final int type) {
        if (tail.length < 8 || tail.length > 16) {
            throw new IllegalStateException("typed placeholder tail not of 8 to 16 bytes: type=" + type + " length="
                    + tail.length);
        }
        TAIL_LONGS[2 * type] = (long) LONGS.get(tail, 0);
        TAIL_LONGS[2 * type + 1] = (long) LONGS.get(tail, tail.length - 8);
    }

    private static byte[] tail(final byte[] placeholder) {
        byte[] tail = new byte[4 + placeholder.length + 1];
        Bytes.writeInt(tail, 0, placeholder.length + 1);
        System.arraycopy(placeholder, 0, tail, 4, placeholder.length);
        return tail;
    }

    /**
     * Replaces the scalars of the document ending at {@code end}, from the element at {@code from}.
     *
     * @return where it stopped: {@code end}, or an element the walker's general path takes
     */
    int elements(final int from, final int end) {
        redacted = 0;
        // while writing, the room left is checked per element on a local index; while counting, nothing to write
        int room = out.remaining();
        byte[] dst = room > 0 ? out.room(room) : null;
        if (dst == null && out.writing()) {
            return from;
        }
        int at = out.position();
        int p = loop(cursor.src(), from, end, dst, at, at + room);
        out.advance(loopAt - at);
        redacted = loopCount;
        return p;
    }

    /**
     * Takes the documents of the array ending at {@code end}, from the element at {@code from}, as long as each is a
     * document that {@link #elements} takes whole; their keys are written as their index in the output.
     *
     * @param firstIndex the output index of the first
     * @param depth the depth of the array (the documents' depth is checked)
     * @return where it stopped: {@code end}, or an element the walker's general path takes
     */
    int documents(final int from, final int end, final int firstIndex, final int depth) {
        int room = begin(depth);
        if (room < 0) {
            return from;
        }
        byte[] src = cursor.src();
        byte[] dst = room > 0 ? out.room(room) : null;
        int at = out.position();
        int stop = at + room;
        int p = from;
        int index = firstIndex;
        int values = 0;
        while (p < end && src[p] == BsonTypes.DOCUMENT) {
            // an array element's name is a position: what it holds does not matter
            int nameEnd = BsonCursor.keyEnd(src, p + 1, end);
            int v = (nameEnd < -1 ? -2 - nameEnd : nameEnd) + 1;
            int length = v > 0 && v + 5 <= end ? Bytes.readInt(src, v) : -1;
            if (length < 5 || length > end - v || src[v + length - 1] != 0) {
                break;
            }
            int after = document(src, v, length, index, dst, at, stop);
            if (after < 0) {
                break;
            }
            at = after;
            values += loopCount;
            index++;
            p = v + length;
        }
        finish(at, values, index - firstIndex);
        return p;
    }

    /**
     * {@link #documents(int, int, int, int)} over documents {@code from} to {@code to} of a sequence left where it lies, each
     * in its own array.
     *
     * @return where it stopped: {@code to}, or the document the walker's general path takes
     */
    int documents(final SequenceViews sequence, final int from, final int to, final int firstIndex, final int depth) {
        int room = begin(depth);
        if (room < 0) {
            return from;
        }
        byte[] dst = room > 0 ? out.room(room) : null;
        int at = out.position();
        int stop = at + room;
        int j = from;
        int values = 0;
        while (j < to) {
            int after = document(sequence.array(j), sequence.offset(j), sequence.length(j), firstIndex + j - from, dst, at,
                    stop);
            if (after < 0) {
                break;
            }
            at = after;
            values += loopCount;
            j++;
        }
        finish(at, values, j - from);
        return j;
    }

    /**
     * Starts a run of documents in an array at {@code depth}.
     *
     * @return the room to write into (0 while counting), or -1 where no run can start (no room, too deep)
     */
    private int begin(final int depth) {
        redacted = 0;
        documents = 0;
        int room = out.remaining();
        if (room <= 0 && out.writing() || depth + 1 >= BsonBounds.MAX_DEPTH) {
            return -1;
        }
        return Math.max(room, 0);
    }

    private void finish(final int at, final int values, final int taken) {
        out.advance(at - out.position());
        redacted = values;
        documents = taken;
    }

    /**
     * One document of a rule-free array, at {@code src[v]} of {@code length} bytes, framing checked, written with key
     * {@code index} at {@code at} (counted when {@code dst} is null) below {@code stop}; its values replaced are then
     * {@link #loopCount}.
     *
     * @return the index after it in the output, or -1 where the walker's general path takes it
     */
    private int document(final byte[] src, final int v, final int length, final int index, @Nullable final byte[] dst,
                         final int at, final int stop) {
        int head = 1 + IndexKeys.digits(index) + 1;
        if (dst != null) {
            if (stop - at < head + 4) {
                return -1;
            }
            dst[at] = BsonTypes.DOCUMENT;
            IndexKeys.copy(dst, at + 1, index);
            dst[at + head - 1] = 0;
        }
        int document = at + head;
        int last = v + length - 1;
        if (loop(src, v + 4, last, dst, document + 4, stop) != last || dst != null && stop - loopAt < 1) {
            return -1;
        }
        int after = loopAt + 1;
        if (dst != null) {
            dst[after - 1] = 0;
            Bytes.writeInt(dst, document, after - document);
        }
        return after;
    }

    /** The element loop: from {@code p} to {@code end}, written from {@code at} (counted when {@code dst} is null) below {@code stop}. */
    private int loop(final byte[] src, final int from, final int end, @Nullable final byte[] dst, final int start,
                     final int stop) {
        int at = start;
        int p = from;
        int count = 0;
        while (p < end) {
            byte type = src[p];
            int size = VALUE_SIZE[type & 0xff];
            if (size == OTHER) {
                break;
            }
            byte[] tail = fixed ? FIXED_TAIL : TYPED_TAILS[type & 0xff];
            int k = p + 1;
            int keyEnd;
            if (dst == null) {
                keyEnd = BsonCursor.keyEnd(src, k, end);
            } else if (stop - at >= 2 + (end - k) + tail.length) {
                // room for the longest key this element can have: the key is copied as it is read
                keyEnd = copyKey(src, k, end, dst, at + 1);
            } else {
                break;
            }
            if (keyEnd < 0 || (maskKeys && keyEnd - k >= DataLikeKeys.TOKEN_LENGTH)) {
                keyEnd = classified(src, k, keyEnd);
                if (keyEnd < 0) {
                    break;
                }
            }
            int v = keyEnd + 1;
            if (size < 0) {
                size = size == STRING ? stringSize(src, v, end) : booleanSize(src, v, end);
                if (size < 0) {
                    break;
                }
            }
            if (v + size > end) {
                break;
            }
            int kLen = keyEnd - k;
            if (dst != null) {
                dst[at] = BsonTypes.STRING;
                dst[at + 1 + kLen] = 0;
                int q = at + 2 + kLen;
                if (fixed) {
                    System.arraycopy(tail, 0, dst, q, tail.length);
                } else {
                    int slot = 2 * (type & 0xff);
                    LONGS.set(dst, q, TAIL_LONGS[slot]);
                    LONGS.set(dst, q + tail.length - 8, TAIL_LONGS[slot + 1]);
                }
            }
            at += 2 + kLen + tail.length;
            count++;
            p = v + size;
        }
        loopAt = at;
        loopCount = count;
        return p;
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
     * loop taking a nullable destination about 20 % more, for both callers.
     *
     * @return as {@link BsonCursor#keyEnd}
     */
    private static int copyKey(final byte[] src, final int k, final int end, final byte[] dst, final int to) {
        int q = to;
        boolean suspect = false;
        for (int i = k; i < end; i++) {
            byte b = src[i];
            // two comparisons for the common byte: a letter or the like
            if (b > DataLikeKeys.PUNCTUATION_END && b != 0x7F) {
                dst[q++] = b;
            } else if (b > 0x1F) {
                dst[q++] = b;
                suspect |= DataLikeKeys.isSuspect(b);
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
