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
    private final int mask;

    KeyTable(final byte[][] names) {
        int size = 4;
        while (size < 2L * names.length) {
            size <<= 1;
        }
        this.slots = new int[size];
        this.slotNames = new byte[size][];
        this.mask = size - 1;
        for (int i = 0; i < names.length; i++) {
            int slot = hash(names[i], 0, names[i].length) & mask;
            while (slots[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = i + 1;
            slotNames[slot] = names[i].clone();
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
            if (name.length == len && Bytes.equal(name, src, off, len)) {
                return slots[slot] - 1;
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }
}
