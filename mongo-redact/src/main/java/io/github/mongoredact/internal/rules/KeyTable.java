package io.github.mongoredact.internal.rules;

import io.github.mongoredact.internal.bson.Bytes;

/**
 * Names (UTF-8) to their index, looked up by the bytes of a key in place: an open-addressing table of at least twice as many
 * slots as names, probed from a hash of the key's first eight bytes and its length (O(1), whatever the key's length). A
 * slot is three longs in one array: the name's first eight bytes, its last eight (for 9 to 16 bytes), and its length with
 * its index; so a look-up reads the key's first word once, hashes it and compares it with the slots of its run, and a name
 * of up to 16 bytes is matched without reading the name's own array. A scan would compare the key with every name (a
 * command's rule tree has about 50 top-level names).
 * Immutable and thread-safe; allocation-free to read.
 */
final class KeyTable {
    static final KeyTable EMPTY = new KeyTable(new byte[0][]);
    private static final int LONGS_PER_SLOT = 3;
    /**
     * Per slot: the name's first 8 bytes (little-endian, zero past its end); for 9 to 16 bytes its last 8, else 0; its length
     * in the high half and its index + 1 in the low half (0: an empty slot).
     */
    private final long[] slots;
    /** The names longer than 16 bytes, by slot (null for the others), compared byte by byte after their first eight. */
    private final byte[][] longNames;
    private final int mask;
    /** 64 less the bits of a slot's number: the hash is the top bits of one multiplication (Fibonacci hashing). */
    private final int shift;

    KeyTable(final byte[][] names) {
        int size = 4;
        while (size < 2L * names.length) {
            size <<= 1;
        }
        this.slots = new long[LONGS_PER_SLOT * size];
        this.longNames = new byte[size][];
        this.mask = size - 1;
        this.shift = 64 - Integer.numberOfTrailingZeros(size);
        for (int i = 0; i < names.length; i++) {
            byte[] name = names[i];
            long head = head(name, 0, name.length);
            int slot = slot(head, name.length);
            while (slots[LONGS_PER_SLOT * slot + 2] != 0) {
                slot = (slot + 1) & mask;
            }
            int at = LONGS_PER_SLOT * slot;
            slots[at] = head;
            if (name.length > 8 && name.length <= 16) {
                slots[at + 1] = Bytes.readLong(name, name.length - 8);
            }
            slots[at + 2] = (long) name.length << 32 | (i + 1);
            if (name.length > 16) {
                longNames[slot] = name.clone();
            }
        }
    }

    /** @return the first 8 bytes of {@code src[off, off + len)}, little-endian, zero past its end: read byte by byte */
    private static long head(final byte[] src, final int off, final int len) {
        long head = 0;
        for (int b = 0; b < Math.min(8, len); b++) {
            head |= (src[off + b] & 0xffL) << (8 * b);
        }
        return head;
    }

    /** @return the first slot of a name by its first 8 bytes and its length: the top bits of one multiplication */
    private int slot(final long head, final int len) {
        return (int) ((head + len) * 0x9E3779B97F4A7C15L >>> shift);
    }

    /** @return the index of the name equal to {@code src[off, off + len)}, or -1 */
    int indexOf(final byte[] src, final int off, final int len) {
        long head;
        if (off + 8 <= src.length) {
            // one read where eight bytes are at hand (a key is followed by its NUL and value, so nearly always)
            head = Bytes.readLong(src, off);
            if (len < 8) {
                head &= (1L << (len << 3)) - 1;
            }
        } else {
            head = head(src, off, len);
        }
        long[] table = slots;
        int slot = slot(head, len);
        while (true) {
            int at = LONGS_PER_SLOT * slot;
            long meta = table[at + 2];
            if (meta == 0) {
                return -1;
            }
            if (table[at] == head && (int) (meta >>> 32) == len && (len <= 8 || tailMatches(slot, table[at + 1], src, off,
                    len))) {
                return (int) meta - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** Whether the name in {@code slot}, whose first 8 bytes and length match, equals the key past those 8 bytes. */
    private boolean tailMatches(final int slot, final long tail, final byte[] src, final int off, final int len) {
        if (len <= 16) {
            return Bytes.readLong(src, off + len - 8) == tail;
        }
        byte[] name = longNames[slot];
        return name != null && Bytes.equal(name, src, off, len);
    }
}
