package io.github.mongoredact.internal.bson;

import com.mongodb.lang.Nullable;

/**
 * The encoded form of the keys of plain documents, remembered: a command's own field names are the driver's constants (equal
 * to the key held, the same instance most often, which {@code equals} answers at once), so that such a key is measured,
 * checked for a NUL and encoded once, then counted by its length and written by one copy. {@link PlainSize} and
 * {@link PlainEncoder} read the same entries, so that they agree by construction.
 *
 * <p>Only the keys of a top level are remembered ({@code remember}): below it keys may be an application's data (a
 * {@code comment} document, {@code let} variables), which a static table must not keep. A key below the top level equal to
 * one remembered is written from its entry. A key takes only an empty slot (no eviction, no allocation once the slots of the
 * keys in use are taken); entries are immutable and published through a plain array (a racing reader may miss and encode the
 * key again). Thread-safe.</p>
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
     * @param remember whether the key is a top level's, which may take a free slot
     * @return the UTF-8 length of a key, its terminating NUL not counted
     * @throws BsonFormatException when it holds a NUL
     */
    static long length(final String key, final boolean remember) {
        KeyBytes held = held(key, remember);
        return held != null ? held.bytes.length - 1 : PlainSize.utf8Length(key, true);
    }

    /**
     * Writes a key and its terminating NUL at {@code index}; {@code dst} must have room.
     *
     * @param remember whether the key is a top level's, which may take a free slot
     * @return the index after the NUL
     * @throws BsonFormatException when the key holds a NUL
     */
    static int write(final String key, final byte[] dst, final int index, final boolean remember) {
        KeyBytes held = held(key, remember);
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

    /** @return the key's entry, made now when its slot is free, the key short enough and remembered; null when not held */
    @Nullable
    private static KeyBytes held(final String key, final boolean remember) {
        int slot = slot(key);
        KeyBytes held = HELD[slot];
        if (held != null) {
            return held.key.equals(key) ? held : null;
        }
        if (!remember || key.length() > MAX_KEY_LENGTH) {
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

    /** @return the key held in the key's slot when it is that key, else null (for tests) */
    @Nullable
    static String heldKey(final String key) {
        KeyBytes held = HELD[slot(key)];
        return held != null && held.key.equals(key) ? held.key : null;
    }

    /** @return whether the key's slot holds no key yet, so that the key would be remembered there (for tests) */
    static boolean slotFree(final String key) {
        return HELD[slot(key)] == null;
    }

    private static int slot(final String key) {
        int h = key.hashCode();
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }

    private static void checkNoNul(final String key) {
        if (key.indexOf('\0') >= 0) {
            throw new BsonFormatException("key holds a NUL character: key length=" + key.length());
        }
    }
}
