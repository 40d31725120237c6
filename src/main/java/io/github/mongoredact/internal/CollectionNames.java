package io.github.mongoredact.internal;

import java.nio.charset.StandardCharsets;

/**
 * A bounded cache from the UTF-8 bytes of a collection name to its {@link String}, so that the listener does not build a
 * string per command. Thread-safe: entries are immutable and published through a plain array (a racing reader may miss and
 * build the string again, never read a wrong one).
 */
final class CollectionNames {
    private static final int SIZE = 1024;
    private final Entry[] entries = new Entry[SIZE];

    /** @return the string of the bytes {@code src[off, off + len)}; allocation-free when cached */
    String resolve(final byte[] src, final int off, final int len) {
        int h = 0x811c9dc5;
        for (int i = off; i < off + len; i++) {
            h = (h ^ (src[i] & 0xff)) * 0x01000193;
        }
        int slot = (h ^ (h >>> 16)) & (SIZE - 1);
        Entry entry = entries[slot];
        if (entry != null && Bytes.equal(entry.bytes, src, off, len)) {
            return entry.name;
        }
        String name = new String(src, off, len, StandardCharsets.UTF_8);
        entries[slot] = new Entry(java.util.Arrays.copyOfRange(src, off, off + len), name);
        return name;
    }

    private static final class Entry {
        final byte[] bytes;
        final String name;

        Entry(final byte[] bytes, final String name) {
            this.bytes = bytes;
            this.name = name;
        }
    }
}
