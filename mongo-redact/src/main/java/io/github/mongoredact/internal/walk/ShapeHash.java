package io.github.mongoredact.internal.walk;

import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFraming;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.mask.DataLikeKeys;
import io.github.mongoredact.internal.mask.Placeholders;
import java.util.Arrays;

/**
 * The query-shape fingerprint: FNV-1a over structure tokens (document and array openings and ends, keys, value categories,
 * and the namespace's names, which {@link KnownPlaces#isNamespace} picks), finalized by {@link #fingerprint()}; and the walk
 * of kept subtrees, which checks what they forward and hashes their shape with the same tokens as a walked subtree (keys and
 * value categories, first array element only), so that a command hashes alike whether the policy keeps or walks its parts.
 * No value is ever mixed in. The walker mixes tokens only in a walk whose {@link WalkMode} computes the fingerprint.
 *
 * <p>A kept subtree is walked without recursion: its open documents are on a stack of arrays sized from
 * {@code BsonBounds.MAX_DEPTH}, as the walker's are ({@link WalkFrames}).</p>
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

    /** The open documents of a kept subtree: a document opens only above {@code MAX_DEPTH}, its first at depth 0 or below. */
    private static final int LEVELS = BsonBounds.MAX_DEPTH;
    /** A level is an array. */
    private static final int IS_ARRAY = 1;
    /** A level's elements count in the fingerprint. */
    private static final int IS_HASHED = 2;

    private final BsonCursor cursor = new BsonCursor();
    private long hash;
    // the open documents of the kept subtree being walked, outermost first
    /** Levels of a kept subtree, grown by doubling up to {@link #LEVELS} as deeper ones are opened. */
    private int[] levelEnd = new int[WalkFrames.INITIAL];
    private int[] levelNext = new int[WalkFrames.INITIAL];
    private int[] levelIndex = new int[WalkFrames.INITIAL];
    private int[] levelFlags = new int[WalkFrames.INITIAL];

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
        hash = (hash ^ (token & 0xff)) * FNV_PRIME;
    }

    /** Mixes a key or a kept name: its bytes, then the end of a key. */
    void mixBytes(final byte[] bytes, final int off, final int len) {
        keyBytes(bytes, off, len);
        endKey();
    }

    /** Mixes bytes of a key whose end {@link #endKey()} marks. */
    void keyBytes(final byte[] bytes, final int off, final int len) {
        long h = hash;
        for (int i = off; i < off + len; i++) {
            h = (h ^ (bytes[i] & 0xff)) * FNV_PRIME;
        }
        hash = h;
    }

    void keyByte(final byte b) {
        hash = (hash ^ (b & 0xff)) * FNV_PRIME;
    }

    void endKey() {
        hash = (hash ^ KEY_END) * FNV_PRIME;
    }

    /**
     * Checks a kept document or array at {@code off} (at {@code depth}) and, when {@code hashing}, hashes its shape; without
     * recursion, as deep as {@code BsonBounds.MAX_DEPTH} at most.
     */
    void kept(final int off, final boolean array, final int depth, final boolean hashing) {
        if (!hashing && !cursor.strict()) {
            // nothing to hash and only the framing to check: the reader's one loop over the framing
            cursor.checkFraming(off, depth);
            return;
        }
        int top = open(0, off, depth, (array ? IS_ARRAY : 0) | (hashing ? IS_HASHED : 0));
        while (top >= 0) {
            int p = levelNext[top];
            int end = levelEnd[top];
            int flags = levelFlags[top];
            if (p >= end) {
                if ((flags & IS_HASHED) != 0) {
                    mix(END);
                }
                top--;
                continue;
            }
            cursor.read(p, end);
            // a kept subtree: every key and value is forwarded as it is
            cursor.checkKept();
            levelNext[top] = cursor.valueEnd;
            boolean inArray = (flags & IS_ARRAY) != 0;
            boolean hashElement = (flags & IS_HASHED) != 0 && (!inArray || levelIndex[top] == 0);
            levelIndex[top]++;
            if (hashElement && !inArray) {
                mixBytes(cursor.src(), cursor.key, cursor.keyLength());
            }
            byte type = cursor.type;
            if (type == BsonTypes.DOCUMENT || type == BsonTypes.ARRAY) {
                if (hashElement) {
                    mix(type);
                }
                top = open(top + 1, cursor.value, depth + top + 1,
                        (type == BsonTypes.ARRAY ? IS_ARRAY : 0) | (hashElement ? IS_HASHED : 0));
            } else {
                if (hashElement) {
                    mix(Placeholders.category(type));
                }
                if (type == BsonTypes.CODE_WITH_SCOPE) {
                    // the scope, checked as a document one level deeper: nothing of it hashes
                    top = open(top + 1, BsonFraming.scope(cursor.src(), cursor.value, cursor.valueEnd), depth + top + 1, 0);
                }
            }
        }
    }

    /** Opens the document at {@code off} (at {@code depth}) as level {@code level}. @return the level */
    private int open(final int level, final int off, final int depth, final int flags) {
        byte[] src = cursor.src();
        // its length was checked against its document's end when the element was read: the source's end bounds it here
        int documentEnd = BsonFraming.open(src, off, cursor.srcEnd(), depth);
        if (level == levelEnd.length) {
            int size = Math.min(LEVELS, 2 * level);
            levelEnd = Arrays.copyOf(levelEnd, size);
            levelNext = Arrays.copyOf(levelNext, size);
            levelIndex = Arrays.copyOf(levelIndex, size);
            levelFlags = Arrays.copyOf(levelFlags, size);
        }
        levelEnd[level] = documentEnd;
        levelNext[level] = off + 4;
        levelIndex[level] = 0;
        levelFlags[level] = flags;
        if ((flags & IS_HASHED) != 0) {
            mix((flags & IS_ARRAY) != 0 ? ARRAY : DOCUMENT);
        }
        return level;
    }

    /** Checks the JavaScript-with-scope value at {@code off}, bound by {@code end}, its scope included (at {@code depth + 1}). */
    void codeWithScope(final int off, final int end, final int depth) {
        kept(BsonFraming.scope(cursor.src(), off, end), false, depth + 1, false);
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
