package io.github.mongoredact.internal.rules;

import io.github.mongoredact.internal.bson.Bytes;

/**
 * Names (UTF-8) to their index, looked up by the bytes of a key in place: an open-addressing table of at least twice as many
 * slots as names, probed from a hash of the key's length and its first, middle and last bytes (O(1), whatever the key's
 * length). A lookup compares the key with the names of its slot run only, where a scan would compare it with every name (a
 * command's rule tree has about 50 top-level names).
 * Immutable and thread-safe; allocation-free to read.
 */
final class KeyTable {
    static final KeyTable EMPTY = new KeyTable(new byte[0][]);
    /** Index + 1 of the name in each slot; 0 for an empty slot. */
    private final int[] slots;
    /** The name in each slot (null for an empty one), read without going through its index. */
    private final byte[][] slotNames;
    /** Per slot, the name's first 8 bytes (little-endian, zero past its end) and, for 9 to 16 bytes, its last 8. */
    private final long[] heads;
    private final long[] tails;
    private final int mask;

    KeyTable(final byte[][] names) {
        int size = 4;
        while (size < 2L * names.length) {
            size <<= 1;
        }
        this.slots = new int[size];
        this.slotNames = new byte[size][];
        this.heads = new long[size];
        this.tails = new long[size];
        this.mask = size - 1;
        for (int i = 0; i < names.length; i++) {
            int slot = hash(names[i], 0, names[i].length) & mask;
            while (slots[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = i + 1;
            slotNames[slot] = names[i].clone();
            byte[] name = names[i];
            for (int b = 0; b < Math.min(8, name.length); b++) {
                heads[slot] |= (name[b] & 0xffL) << (8 * b);
            }
            if (name.length > 8 && name.length <= 16) {
                tails[slot] = Bytes.readLong(name, name.length - 8);
            }
        }
    }

    private static int hash(final byte[] src, final int off, final int len) {
        if (len == 0) {
            return 0;
        }
        int h = len * 0x9E3779B1 + src[off] * 31 + src[off + (len >> 1)] * 961 + src[off + len - 1] * 29791;
        return h ^ (h >>> 15);
    }

    /** @return the index of the name equal to {@code src[off, off + len)}, or -1 */
    int indexOf(final byte[] src, final int off, final int len) {
        int slot = hash(src, off, len) & mask;
        byte[] name;
        while ((name = slotNames[slot]) != null) {
            if (name.length == len && matches(slot, name, src, off, len)) {
                return slots[slot] - 1;
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }

    /**
     * Whether the name in {@code slot} (of length {@code len}) equals {@code src[off, off + len)}: one or two 8-byte
     * comparisons for a name of up to 16 bytes (the bytes past a short key, within {@code src}, masked off), byte by byte
     * otherwise or where fewer than 8 bytes are left in {@code src}.
     */
    private boolean matches(final int slot, final byte[] name, final byte[] src, final int off, final int len) {
        if (len > 16 || off + 8 > src.length) {
            return Bytes.equal(name, src, off, len);
        }
        long head = Bytes.readLong(src, off);
        if (len < 8) {
            head &= (1L << (len << 3)) - 1;
        }
        if (head != heads[slot]) {
            return false;
        }
        return len <= 8 || Bytes.readLong(src, off + len - 8) == tails[slot];
    }
}
