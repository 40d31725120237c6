package io.github.mongoredact.internal.rules;

import io.github.mongoredact.internal.bson.BsonValidation;
import io.github.mongoredact.internal.bson.Bytes;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A bounded cache from the UTF-8 bytes of a collection name to its {@link String}, so that the listener does not build a
 * string per command. It holds at most {@link #SLOTS} names (a new name takes the slot of the one its hash points at) and
 * only strings shaped like collection names ({@link #isCacheable}): a command's first string field can be anything (a user
 * name, a log message, code), and such a value is returned as a new string, never kept. Thread-safe: entries are immutable
 * and published through a plain array (a racing reader may miss and build the string again, never read a wrong one).
 */
public final class CollectionNames {
    /** Entries at most. */
    static final int SLOTS = 1024;
    /** The longest name kept, in UTF-8 bytes: the server's limit for a whole namespace. */
    static final int MAX_NAME_BYTES = 255;
    private static final byte[] CMD = {'$', 'c', 'm', 'd'};
    private final Entry[] entries = new Entry[SLOTS];

    /** @return the collection-name cache all threads share */
    public static CollectionNames shared() {
        return SharedCollectionNames.INSTANCE;
    }

    /** @return the string of the bytes {@code src[off, off + len)}; allocation-free when cached */
    public String resolve(final byte[] src, final int off, final int len) {
        if (!isCacheable(src, off, len)) {
            return new String(src, off, len, StandardCharsets.UTF_8);
        }
        int h = 0x811c9dc5;
        for (int i = off; i < off + len; i++) {
            h = (h ^ (src[i] & 0xff)) * 0x01000193;
        }
        int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
        Entry entry = entries[slot];
        if (entry != null && Bytes.equal(entry.bytes, src, off, len)) {
            return entry.name;
        }
        String name = new String(src, off, len, StandardCharsets.UTF_8);
        entries[slot] = new Entry(Arrays.copyOfRange(src, off, off + len), name);
        return name;
    }

    /**
     * Whether the bytes may be kept: what the server accepts as a collection name, short and plain. Non-empty, at most
     * {@link #MAX_NAME_BYTES} bytes, no NUL, no {@code $} except the name {@code $cmd}, no ASCII control character, and
     * well-formed UTF-8 (so that the cached string turns back into the same bytes).
     */
    static boolean isCacheable(final byte[] src, final int off, final int len) {
        if (len <= 0 || len > MAX_NAME_BYTES) {
            return false;
        }
        if (len == CMD.length && Bytes.equal(CMD, src, off, len)) {
            return true;
        }
        int i = off;
        int end = off + len;
        while (i < end) {
            int b = src[i] & 0xff;
            if (b < 0x80) {
                if (b < 0x20 || b == '$' || b == 0x7f) {
                    return false;
                }
                i++;
            } else {
                int next = BsonValidation.utf8SequenceEnd(src, i, end);
                if (next < 0) {
                    return false;
                }
                i = next;
            }
        }
        return true;
    }

    /** @return the names held now (tests and diagnostics; racy) */
    int size() {
        int count = 0;
        for (Entry entry : entries) {
            count += entry == null ? 0 : 1;
        }
        return count;
    }

    /** @return the UTF-8 bytes of the names held now, the longest one's included (tests and diagnostics; racy) */
    long heldBytes() {
        long total = 0;
        for (Entry entry : entries) {
            total += entry == null ? 0 : entry.bytes.length;
        }
        return total;
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
