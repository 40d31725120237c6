package io.github.mongoredact.internal.bson;

import com.mongodb.lang.Nullable;

/**
 * The encoded form of the keys of plain documents, remembered: a command's keys are the driver's constants (equal to the key
 * held, the same instance most often, which {@code equals} answers at once), so that a key is measured, checked for a NUL and
 * encoded once, then counted by its length and written by one copy. {@link PlainSize} and {@link PlainEncoder} read the same
 * entries, so that they agree by construction.
 *
 * <p>A key takes only an empty slot (no eviction, no allocation once the slots of the keys in use are taken); entries are
 * immutable and published through a plain array (a racing reader may miss and encode the key again). Thread-safe.</p>
 */
final class KeyBytes {
    static final int SLOTS = 256;
    /** The longest key remembered, in characters. */
    static final int MAX_KEY_LENGTH = 64;
    private static final KeyBytes[] HELD = new KeyBytes[SLOTS];

    private final String key;
    /** The key's UTF-8 bytes and its terminating NUL. */
    private final byte[] bytes;

    private KeyBytes(final String key, final byte[] bytes) {
        this.key = key;
        this.bytes = bytes;
    }

    /**
     * @return the UTF-8 length of a key, its terminating NUL not counted
     * @throws BsonFormatException when it holds a NUL
     */
    static long length(final String key) {
        KeyBytes held = held(key);
        return held != null ? held.bytes.length - 1 : PlainSize.utf8Length(key, true);
    }

    /**
     * Writes a key and its terminating NUL at {@code index}; {@code dst} must have room.
     *
     * @return the index after the NUL
     * @throws BsonFormatException when the key holds a NUL
     */
    static int write(final String key, final byte[] dst, final int index) {
        KeyBytes held = held(key);
        if (held != null) {
            byte[] bytes = held.bytes;
            System.arraycopy(bytes, 0, dst, index, bytes.length);
            return index + bytes.length;
        }
        checkNoNul(key);
        int end = Bytes.writeUtf8(key, dst, index);
        dst[end] = 0;
        return end + 1;
    }

    /** @return the key's entry, made now when its slot is free and the key short enough; null when not held */
    @Nullable
    private static KeyBytes held(final String key) {
        int h = key.hashCode();
        int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
        KeyBytes held = HELD[slot];
        if (held != null) {
            return held.key.equals(key) ? held : null;
        }
        if (key.length() > MAX_KEY_LENGTH) {
            return null;
        }
        // checks for a NUL before anything is remembered
        int length = (int) PlainSize.utf8Length(key, true);
        byte[] bytes = new byte[length + 1];
        Bytes.writeUtf8(key, bytes, 0);
        KeyBytes made = new KeyBytes(key, bytes);
        HELD[slot] = made;
        return made;
    }

    private static void checkNoNul(final String key) {
        if (key.indexOf('\0') >= 0) {
            throw new BsonFormatException("key holds a NUL character: key length=" + key.length());
        }
    }
}
