package io.github.mongoredact.internal.walk;

import io.github.mongoredact.internal.bson.BsonFraming;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.mask.DataLikeKeys;
import io.github.mongoredact.internal.mask.Placeholders;

/**
 * The query-shape fingerprint: FNV-1a over structure tokens (document and array openings and ends, keys, value categories,
 * and the namespace's names, which {@link KnownPlaces#isNamespace} picks), finalized by {@link #fingerprint()}; and the walk
 * of kept subtrees, which checks what they forward and hashes their shape with the same tokens as a walked subtree (keys and
 * value categories, first array element only), so that a command hashes alike whether the policy keeps or walks its parts.
 * No value is ever mixed in. Tokens count only while {@link #enabled}: the analysing pass.
 *
 * <p>Not thread-safe: one per walker, with a cursor of its own so that a kept subtree is read without moving the walker's.</p>
 */
final class ShapeHash {
    private static final byte[] MASKED_KEY = DataLikeKeys.mask();
    static final int DOCUMENT = 0x33;
    static final int ARRAY = 0x44;
    static final int END = 0x55;
    private static final int KEY_END = 0xfe;
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private final BsonCursor cursor = new BsonCursor();
    private long hash;
    /** Whether tokens are mixed in: only while analysing. */
    boolean enabled;

    void bind(final byte[] src, final int end, final boolean strict) {
        cursor.bind(src, end, strict);
    }

    void clear() {
        cursor.clear();
    }

    void reset() {
        hash = FNV_OFFSET;
    }

    long fingerprint() {
        long h = hash;
        // finalizer (splitmix64) so that close shapes spread over all bits
        h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
        h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
        return h ^ (h >>> 31);
    }

    void mix(final int token) {
        if (enabled) {
            hash = (hash ^ (token & 0xff)) * FNV_PRIME;
        }
    }

    /** Mixes a key or a kept name: its bytes, then the end of a key. */
    void mixBytes(final byte[] bytes, final int off, final int len) {
        keyBytes(bytes, off, len);
        endKey();
    }

    /** Mixes bytes of a key whose end {@link #endKey()} marks. */
    void keyBytes(final byte[] bytes, final int off, final int len) {
        if (enabled) {
            long h = hash;
            for (int i = off; i < off + len; i++) {
                h = (h ^ (bytes[i] & 0xff)) * FNV_PRIME;
            }
            hash = h;
        }
    }

    void keyByte(final byte b) {
        if (enabled) {
            hash = (hash ^ (b & 0xff)) * FNV_PRIME;
        }
    }

    void endKey() {
        if (enabled) {
            hash = (hash ^ KEY_END) * FNV_PRIME;
        }
    }

    /**
     * Checks a kept document or array at {@code off} (at {@code depth}) and, when {@code hashing}, hashes its shape.
     * Recursive, as deep as {@code BsonBounds.MAX_DEPTH} at most.
     */
    void kept(final int off, final boolean array, final int depth, final boolean hashing) {
        byte[] src = cursor.src();
        // its length was checked against its document's end when the element was read: the source's end bounds it here
        int end = BsonFraming.open(src, off, cursor.srcEnd(), depth);
        if (hashing) {
            mix(array ? ARRAY : DOCUMENT);
        }
        int p = off + 4;
        int index = 0;
        while (p < end) {
            cursor.read(p, end);
            // a kept subtree: every key and value is forwarded as it is
            cursor.checkKept();
            byte type = cursor.type;
            int next = cursor.valueEnd;
            boolean hashElement = hashing && (!array || index == 0);
            if (hashElement && !array) {
                mixBytes(src, cursor.key, cursor.keyLength());
            }
            if (type == BsonTypes.DOCUMENT || type == BsonTypes.ARRAY) {
                if (hashElement) {
                    mix(type);
                }
                kept(cursor.value, type == BsonTypes.ARRAY, depth + 1, hashElement);
            } else {
                if (type == BsonTypes.CODE_WITH_SCOPE) {
                    scope(depth);
                }
                if (hashElement) {
                    mix(Placeholders.category(type));
                }
            }
            p = next;
            index++;
        }
        if (hashing) {
            mix(END);
        }
    }

    /** Checks the JavaScript-with-scope value of {@code cursor} (at {@code off}, bound by {@code end}), its scope included. */
    void codeWithScope(final int off, final int end, final int depth) {
        cursor.type = BsonTypes.CODE_WITH_SCOPE;
        cursor.value = off;
        cursor.valueEnd = end;
        scope(depth);
    }

    private void scope(final int depth) {
        kept(cursor.scope(), false, depth + 1, false);
    }

    /**
     * Mixes the masked form of the key {@code src[off, end)} into the fingerprint, as {@link #mixBytes} would, without
     * its number: keys that differ only in what is masked mix alike.
     */
    void mixMaskedKey(final byte[] src, final int off, final int end) {
        boolean whole = DataLikeKeys.holdsAddress(src, off, end);
        int from = off;
        while (from <= end) {
            int to = whole ? end : DataLikeKeys.segmentEnd(src, from, end);
            if (whole || DataLikeKeys.isDataLikeSegment(src, from, to)) {
                keyBytes(MASKED_KEY, 0, MASKED_KEY.length);
            } else {
                keyBytes(src, from, to - from);
            }
            if (to < end) {
                keyByte((byte) '.');
            }
            from = to + 1;
        }
        endKey();
    }
}
