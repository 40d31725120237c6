package io.github.mongoredact.internal.walk;

import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.BsonValidation;
import io.github.mongoredact.internal.bson.Output;
import io.github.mongoredact.internal.mask.DataLikeKeys;
import io.github.mongoredact.internal.mask.IndexKeys;
import io.github.mongoredact.internal.mask.Placeholders;
import io.github.mongoredact.internal.message.MessageScrubber;

/**
 * Writes the output's elements for the element the cursor read last: its key as the output names it (as it is, renumbered in
 * an array, or masked), and its value kept, replaced by its placeholder, or scrubbed; and the two markers a walk adds (the
 * omitted sequence documents, the truncated bytes). All bytes go through the shared {@link Output}, so that sizing and writing
 * are the same code.
 *
 * <p>Not thread-safe: one per walker.</p>
 */
final class ElementWriter {
    /** {@code "$truncatedBytes": int64}: type, key, NUL, 8 bytes. */
    static final int TRUNCATION_MARKER_SIZE = 1 + 15 + 1 + 8;
    /** {@code {"$omitted": int32}}: length, type, key, NUL, 4 bytes, end. */
    static final int OMITTED_DOCUMENT_SIZE = 4 + 1 + 8 + 1 + 4 + 1;
    static final byte[] OMITTED_KEY = {'$', 'o', 'm', 'i', 't', 't', 'e', 'd'};
    private static final byte[] TRUNCATED_KEY = {'$', 't', 'r', 'u', 'n', 'c', 'a', 't', 'e', 'd', 'B', 'y', 't', 'e', 's'};

    /** How the keys of a document are written. */
    static final int KEYS_AS_IS = 0;
    /** Array elements: renumbered from 0 when the source's key is not the output index. */
    static final int KEYS_INDEX = 1;
    /** Keys that are data ({@code REDACT_KEYS}): {@code "?0"}, {@code "?1"}, ... */
    static final int KEYS_MASKED = 2;
    /**
     * A key that looks like data: its data-like segments written {@code ?key} ({@link DataLikeKeys}), then the index given,
     * from 1 on, so that the keys of one document stay distinct: {@code ?key}, {@code ?key1}, {@code ?key2}...
     */
    static final int KEYS_DATA = 3;

    private final Output out;
    private final BsonCursor cursor;
    private boolean fixed;
    private boolean maskKeys;

    ElementWriter(final Output out, final BsonCursor cursor) {
        this.out = out;
        this.cursor = cursor;
    }

    void fixedPlaceholders(final boolean fixedPlaceholders) {
        this.fixed = fixedPlaceholders;
    }

    /** @param mask whether names that look like data are masked in the messages this writer scrubs */
    void maskDataLikeKeys(final boolean mask) {
        this.maskKeys = mask;
    }

    /** Writes the element's type byte and its key as {@code keys} says, {@code index} being its index in the output. */
    void head(final byte type, final int keys, final int index) {
        out.putByte(type);
        if (keys == KEYS_MASKED) {
            out.putByte((byte) '?');
            IndexKeys.write(out, index);
        } else if (keys == KEYS_DATA) {
            byte[] src = cursor.src();
            int length = DataLikeKeys.writeMasked(src, cursor.key, cursor.keyEnd, index, null, 0);
            byte[] room = out.room(length);
            if (room != null) {
                DataLikeKeys.writeMasked(src, cursor.key, cursor.keyEnd, index, room, out.position());
            }
            out.advance(length);
        } else if (keys == KEYS_INDEX && !IndexKeys.matches(cursor.src(), cursor.key, cursor.keyLength(), index)) {
            IndexKeys.write(out, index);
        } else {
            out.putBytes(cursor.src(), cursor.key, cursor.keyLength());
        }
        out.putByte((byte) 0);
    }

    /** @return the bytes {@link #head} writes for its key, NUL excluded */
    int keySize(final int keys, final int index) {
        if (keys == KEYS_MASKED) {
            return 1 + IndexKeys.digits(index);
        }
        if (keys == KEYS_DATA) {
            return DataLikeKeys.writeMasked(cursor.src(), cursor.key, cursor.keyEnd, index, null, 0);
        }
        boolean renumbered = keys == KEYS_INDEX && !IndexKeys.matches(cursor.src(), cursor.key, cursor.keyLength(), index);
        return renumbered ? IndexKeys.digits(index) : cursor.keyLength();
    }

    /** The element as it is. */
    void kept(final int keys, final int index) {
        if (keys == KEYS_AS_IS) {
            // type, key and value as they lie in the source: one copy of the whole element
            int from = cursor.key - 1;
            out.putBytes(cursor.src(), from, cursor.valueEnd - from);
            return;
        }
        head(cursor.type, keys, index);
        out.putBytes(cursor.src(), cursor.value, cursor.valueEnd - cursor.value);
    }

    /**
     * A redacted scalar: its placeholder, or the string as it is when it already is one (so that redaction is idempotent).
     *
     * @return whether a value was replaced
     */
    boolean redacted(final int keys, final int index) {
        byte type = cursor.type;
        if (type == BsonTypes.STRING && Placeholders.isPlaceholder(cursor.src(), cursor.value + 4, cursor.stringLength())) {
            kept(keys, index);
            return false;
        }
        byte[] placeholder = Placeholders.of(type, fixed);
        head(BsonTypes.STRING, keys, index);
        out.putInt(placeholder.length + 1);
        out.putArray(placeholder);
        out.putByte((byte) 0);
        return true;
    }

    /** A string scrubbed of what is not the server's own words ({@link MessageScrubber}). */
    void scrubbed(final int keys, final int index) {
        byte[] src = cursor.src();
        int from = cursor.value + 4;
        int length = cursor.stringLength();
        BsonValidation.checkString(src, from, length);
        head(BsonTypes.STRING, keys, index);
        int lengthIndex = out.reserveInt();
        int scrubbed = MessageScrubber.scrub(src, from, length, null, 0, maskKeys);
        byte[] room = out.room(scrubbed);
        if (room != null) {
            MessageScrubber.scrub(src, from, length, room, out.position(), maskKeys);
        }
        out.advance(scrubbed);
        out.putByte((byte) 0);
        out.patchLength(lengthIndex, lengthIndex + 4);
    }

    /** @return the bytes of the omitted-documents marker at output index {@code index} */
    static int omittedSize(final int index) {
        return 1 + IndexKeys.digits(index) + 1 + OMITTED_DOCUMENT_SIZE;
    }

    /** {@code "<index>": {"$omitted": n}}: the sequence documents left out. */
    void omitted(final int index, final long omitted) {
        out.putByte(BsonTypes.DOCUMENT);
        IndexKeys.write(out, index);
        out.putByte((byte) 0);
        out.putInt(OMITTED_DOCUMENT_SIZE);
        out.putByte(BsonTypes.INT32);
        out.putArray(OMITTED_KEY);
        out.putByte((byte) 0);
        out.putInt((int) Math.min(Integer.MAX_VALUE, omitted));
        out.putByte((byte) 0);
    }

    /** {@code "$truncatedBytes": n}: the bytes a capped output left out. */
    void truncationMarker(final long truncated) {
        out.putByte(BsonTypes.INT64);
        out.putArray(TRUNCATED_KEY);
        out.putByte((byte) 0);
        out.putLong(truncated);
    }
}
