package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFraming;
import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.BsonValidation;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.mask.DataLikeKeys;

import java.util.Arrays;

import static io.github.mongoredact.internal.bson.Bytes.readInt;

/**
 * Reads BSON in place, the one reader of elements: where each document ends and where each element's key and value lie, every
 * bound checked in one place, and, when {@code strict}, keys and values checked as the driver's decoder would
 * ({@link BsonValidation}). The walker reads a whole document with it; the readers of a few top-level fields (a reply's error
 * fields, a command's collection) read a top level with it, not strict. After {@link #read} the element's parts are in the
 * fields (read directly in this package, through the accessors elsewhere) until the next read.
 *
 * <p>Not thread-safe: one per walker or per pooled redactor. {@link #clear()} forgets the source (it may be a driver buffer's array).</p>
 */
public final class BsonCursor {
    @Nullable
    private byte[] src;
    private int srcEnd;
    private boolean strict;

    // the element read last
    byte type;
    int key;
    int keyEnd;
    int value;
    int valueEnd;
    /** Whether the key read last (strict only) holds a byte after which it may look like data ({@link DataLikeKeys}). */
    private boolean keySuspect;
    /** The ends of the open levels of {@link #checkFraming}, grown by doubling up to {@link BsonBounds#MAX_DEPTH}. */
    private int[] levelEnds = new int[0];

    /**
     * Reads {@code src}, no document of which ends after {@code end}.
     *
     * @param strict whether keys and values are checked as the driver's decoder would (else the framing only)
     */
    public void bind(final byte[] src, final int end, final boolean strict) {
        // stored only when it changes (a document after another in the same array): a reference stored into a pooled,
        // long-lived object costs the collector's write barrier
        if (this.src != src) {
            this.src = src;
        }
        this.srcEnd = end;
        this.strict = strict;
    }

    /** Forgets the source. */
    public void clear() {
        src = null;
    }

    byte[] src() {
        byte[] current = src;
        if (current == null) {
            throw new IllegalStateException("no source: the cursor is read only between bind() and clear()");
        }
        return current;
    }

    boolean strict() {
        return strict;
    }

    /** @return whether the cursor reads {@code array} now */
    boolean reads(final byte[] array) {
        return src == array;
    }

    /**
     * Takes the document at {@code off} of the bound source, ending before {@code end}, as the element read: a document whose
     * key is not in the source (an element of a sequence left where it lies, its key written from its index). Its framing was
     * checked where it was reached ({@code SequenceViews}); the walker frames it again when it opens it.
     */
    void document(final int off, final int end) {
        type = BsonTypes.DOCUMENT;
        key = off;
        keyEnd = off;
        keySuspect = false;
        value = off;
        valueEnd = end;
    }

    /** @return the type of the element read last */
    public byte type() {
        return type;
    }

    /** @return where the key of the element read last starts */
    public int key() {
        return key;
    }

    /** @return the length of the key of the element read last, without its NUL */
    public int keyLength() {
        return keyEnd - key;
    }

    /** @return whether the key of the element read last is {@code name} */
    public boolean keyIs(final byte[] name) {
        return Bytes.equal(name, src(), key, keyEnd - key);
    }

    /** @return where the value of the element read last starts */
    public int value() {
        return value;
    }

    /** @return the index after the value of the element read last */
    public int valueEnd() {
        return valueEnd;
    }

    /** @return whether the key read last (under a strict cursor) may look like data: {@link DataLikeKeys} must look at it */
    boolean keyMayLookLikeData() {
        return DataLikeKeys.mayLookLikeData(keySuspect, keyEnd - key);
    }

    /** @return the end of the bound source: no document of it ends after this */
    int srcEnd() {
        return srcEnd;
    }

    /**
     * Checks the framing of the document or array at {@code off}, opened at {@code depth}.
     *
     * @return the index of its terminating NUL
     */
    public int open(final int off, final int depth) {
        return BsonFraming.open(src(), off, srcEnd, depth);
    }

    /**
     * Reads the element at {@code p} of the document whose terminating NUL is at {@code end}, checking it when strict: its
     * key, and its value's end within the document.
     */
    public void read(final int p, final int end) {
        byte[] s = src();
        type = s[p];
        key = p + 1;
        if (strict) {
            int k = keyEnd(s, key, end);
            // a key past ASCII is classified whole
            keySuspect = k < 0;
            keyEnd = k >= 0 ? k : k < -1 ? -2 - k : checkedKeyEnd(s, key, end);
        } else {
            keyEnd = BsonBounds.cstringEnd(s, key, end);
            keySuspect = false;
        }
        value = keyEnd + 1;
        valueEnd = BsonBounds.valueEnd(s, type, value, end);
        if (strict) {
            BsonValidation.checkValue(s, type, value, valueEnd);
        }
    }

    /**
     * Checks the framing of the document or array at {@code off}, opened at {@code depth}, and of everything it holds, as
     * {@link #read} and {@link #open} would find it element by element: every key and value within its document, every
     * nested document, array and scope of JavaScript with scope opened at its depth. For a kept subtree whose framing is all
     * that matters (a verbatim policy keeps every element as it is): one loop, the open levels' ends in an array of the
     * cursor's, nothing read of an element but its bounds. The cursor's element (its {@link #type} and bounds) is left as
     * it was.
     *
     * @return the index after the document
     */
    int checkFraming(final int off, final int depth) {
        byte[] s = src();
        int level = 0;
        int end = BsonFraming.open(s, off, srcEnd, depth);
        levelEnd(0, end);
        int p = off + 4;
        while (true) {
            if (p >= end) {
                if (level == 0) {
                    return end + 1;
                }
                p = end + 1;
                end = levelEnds[--level];
                continue;
            }
            byte t = s[p];
            int v = BsonBounds.cstringEnd(s, p + 1, end) + 1;
            int after = BsonBounds.valueEnd(s, t, v, end);
            if (t == BsonTypes.DOCUMENT || t == BsonTypes.ARRAY || t == BsonTypes.CODE_WITH_SCOPE) {
                // its length was checked against its document's end: the source's end bounds it here, as in open()
                int nested = t == BsonTypes.CODE_WITH_SCOPE ? BsonFraming.scope(s, v, after) : v;
                end = BsonFraming.open(s, nested, srcEnd, depth + level + 1);
                levelEnd(++level, end);
                p = nested + 4;
            } else {
                p = after;
            }
        }
    }

    private void levelEnd(final int level, final int end) {
        if (level >= levelEnds.length) {
            levelEnds = Arrays.copyOf(levelEnds, Math.min(BsonBounds.MAX_DEPTH, Math.max(WalkFrames.INITIAL, 2 * level)));
        }
        levelEnds[level] = end;
    }

    /**
     * The one loop over a key's bytes (the walker's and the {@link PlaceholderRun}'s): it finds the key's end, checks it
     * (ASCII, no control character) and notes whether it holds a byte after which it may look like data
     * ({@link DataLikeKeys#isSuspect}, for the bytes up to {@code @} only). Eight bytes at a time while they are letters and
     * the like ({@link #unplain}), byte by byte from the first that is not; where that first byte is the word's lowest NUL,
     * the end is taken from {@link Bytes#zeroBytes} (three operations where {@code unplain} takes six), whose shorter
     * computation the next element's address then waits on.
     *
     * @return the index of the key's NUL; {@code -2 - index} when the key holds a suspect byte; or -1 where the key needs a
     * closer look (a byte past ASCII, a control character, no NUL before {@code end})
     */
    static int keyEnd(final byte[] s, final int k, final int end) {
        boolean suspect = false;
        int i = k;
        while (i < end) {
            if (i <= end - 8) {
                long w = Bytes.readLong(s, i);
                long odd = unplain(w);
                if (odd == 0) {
                    i += 8;
                    continue;
                }
                long nul = Bytes.zeroBytes(w);
                if ((odd & -odd) == (nul & -nul)) {
                    // the first byte to look at is the key's NUL: its end, from the shorter computation
                    int e = i + (Long.numberOfTrailingZeros(nul) >>> 3);
                    return suspect ? -2 - e : e;
                }
                i += Long.numberOfTrailingZeros(odd) >>> 3;
            }
            byte b = s[i];
            if (b > DataLikeKeys.PUNCTUATION_END && b != 0x7F) {
                i++;
            } else if (b > 0x1F && b != 0x7F) {
                suspect |= DataLikeKeys.isSuspect(b);
                i++;
            } else {
                // past ASCII (negative) or a control character (DEL included)
                return b != 0 ? -1 : suspect ? -2 - i : i;
            }
        }
        return -1;
    }

    /**
     * The bytes of {@code w} (eight key bytes, little-endian) that the key loops look at one by one: each such byte's high
     * bit set in the result, the others 0. A byte from {@code A} (0x41) to {@code ~} (0x7E), letters and the like, says
     * nothing alone; every other one (a NUL, a control character, the space to {@code @}, DEL, a byte past ASCII) does.
     * Computed on the low seven bits of each byte, whose sums never carry into the next byte.
     */
    static long unplain(final long w) {
        long low = w & 0x7F7F7F7F7F7F7F7FL;
        // the high bit set where the low bits are at least 0x41, and where they are 0x7F
        long letters = low + 0x3F3F3F3F3F3F3F3FL;
        long del = low + 0x0101010101010101L;
        return (~letters | del | w) & 0x8080808080808080L;
    }

    /**
     * The end of a key that {@link #keyEnd} left to a closer look, checked as {@link BsonValidation#checkKey} checks it:
     * no control character before a byte past ASCII, and UTF-8 from there.
     */
    private static int checkedKeyEnd(final byte[] s, final int k, final int end) {
        for (int i = k; i < end; i++) {
            byte b = s[i];
            if (b < 0) {
                int keyEnd = BsonBounds.cstringEnd(s, i, end);
                BsonValidation.checkKey(s, k, keyEnd);
                return keyEnd;
            }
            if (BsonValidation.isControl(b)) {
                throw new BsonFormatException("control character in key: index=" + i + " byte=" + (b & 0xff));
            }
        }
        throw new BsonFormatException("unterminated key or C string at index=" + k + " end=" + end);
    }

    /** @return whether the element read last is a document or an array */
    boolean container() {
        return type == BsonTypes.DOCUMENT || type == BsonTypes.ARRAY;
    }

    /** @return the length of the string value read last, without its NUL */
    int stringLength() {
        return readInt(src(), value) - 1;
    }

    /** @return the index of the scope document inside the JavaScript-with-scope value read last, its code checked */
    int scope() {
        return BsonFraming.scope(src(), value, valueEnd);
    }

    /** Checks the text of the value read last, which is kept: see {@link BsonValidation#checkKept}. */
    void checkKept() {
        if (strict) {
            BsonValidation.checkKept(src(), type, value, valueEnd);
        }
    }

    /**
     * For the readers outside this package (a reply's {@code codeName}, a command's collection, a text's strings): the length
     * of the string value read last, as {@link #stringLength()}; its bounds and NUL were checked by {@link #read}.
     *
     * @return the length in bytes of the string value read last (type string, JavaScript or symbol), without its NUL; it
     *         starts at {@link #value()} + 4
     */
    public int stringValueLength() {
        return stringLength();
    }
}
