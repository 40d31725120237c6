package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFraming;
import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.BsonValidation;
import io.github.mongoredact.internal.mask.DataLikeKeys;

import static io.github.mongoredact.internal.bson.Bytes.readInt;

/**
 * Reads the source of a walk: where each document ends and where each element's key and value lie, every bound checked in one
 * place, and, when {@code strict}, keys and values checked as the driver's decoder would ({@link BsonValidation}). After
 * {@link #read} the element's parts are in the public fields until the next read.
 *
 * <p>Not thread-safe: one per walker. {@link #clear()} forgets the source (it may be a driver buffer's array).</p>
 */
final class BsonCursor {
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

    void bind(final byte[] src, final int end, final boolean strict) {
        this.src = src;
        this.srcEnd = end;
        this.strict = strict;
    }

    void clear() {
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

    int keyLength() {
        return keyEnd - key;
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
    int open(final int off, final int depth) {
        return BsonFraming.open(src(), off, srcEnd, depth);
    }

    /** Reads the element at {@code p} of the document that ends at {@code end}, checking it when strict. */
    void read(final int p, final int end) {
        byte[] s = src();
        type = s[p];
        key = p + 1;
        keyEnd = strict ? checkedKeyEnd(s, key, end) : BsonBounds.cstringEnd(s, key, end);
        if (!strict) {
            keySuspect = false;
        }
        value = keyEnd + 1;
        valueEnd = BsonBounds.valueEnd(s, type, value, end);
        if (strict) {
            BsonValidation.checkValue(s, type, value, valueEnd);
        }
    }

    /**
     * The end of the key at {@code k}, checked in the same loop that finds it as {@link BsonValidation#checkKey} checks it: no
     * control character, and UTF-8 from its first byte past ASCII. The same loop notes whether the key holds a byte after
     * which it may look like data ({@link DataLikeKeys#isSuspect}); a letter costs two comparisons, as the check alone did.
     */
    private int checkedKeyEnd(final byte[] s, final int k, final int end) {
        boolean suspect = false;
        for (int i = k; i < end; i++) {
            byte b = s[i];
            if (b > DataLikeKeys.PUNCTUATION_END && b != 0x7F) {
                continue;
            }
            if (b > 0x1F) {
                suspect |= DataLikeKeys.isSuspect(b);
            } else if (b == 0) {
                keySuspect = suspect;
                return i;
            } else if (b < 0) {
                // past ASCII: the whole key is checked as UTF-8, and classified
                int keyEnd = BsonBounds.cstringEnd(s, i, end);
                BsonValidation.checkKey(s, k, keyEnd);
                keySuspect = true;
                return keyEnd;
            } else {
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
}
