package io.github.mongoredact.internal.policy;

import io.github.mongoredact.internal.bson.Output;

/**
 * The tight loop for a document where no rule, cap, limit or fingerprint can apply below: every scalar becomes its
 * placeholder, keys kept. This is what the documents of a sequence are under {@code defaults()}. One read of each key byte
 * finds its end and checks it; the value's end comes from its type; the output goes straight into the output's array, its room
 * checked on a local index.
 *
 * <p>It stops, leaving the element to the walker's general path, at everything that is not the common case: a document or
 * array (the walker opens it), a type whose value needs more checks (binary, JavaScript with scope, regular expressions, ...),
 * a key past ASCII or with a control character, a string that may already be a placeholder, a bound that does not hold (the
 * general path says where), or too little room (the general path decides about overflow). So its output is the general path's
 * for the same elements, and it reports no error of its own. The walker runs it only where its own rule lookup would return the
 * inherited {@code REDACT} for every key.</p>
 *
 * <p>Not thread-safe: one per walker.</p>
 */
final class PlaceholderRun {
    /** Value sizes of the types handled here; {@link #STRING} for length-prefixed strings, {@link #OTHER} for the rest. */
    private static final int[] VALUE_SIZE = new int[256];
    private static final int STRING = -1;
    private static final int OTHER = -2;
    /** One byte, 0 or 1 (the driver's decoder refuses others). */
    private static final int BOOLEAN = -3;

    static {
        java.util.Arrays.fill(VALUE_SIZE, OTHER);
        for (int type : new int[]{0x01, 0x09, 0x11, 0x12}) {
            VALUE_SIZE[type] = 8;
        }
        VALUE_SIZE[0x02] = STRING;
        VALUE_SIZE[0x0D] = STRING;
        VALUE_SIZE[0x0E] = STRING;
        VALUE_SIZE[0x06] = 0;
        VALUE_SIZE[0x0A] = 0;
        VALUE_SIZE[0xFF] = 0;
        VALUE_SIZE[0x7F] = 0;
        VALUE_SIZE[0x07] = 12;
        VALUE_SIZE[0x10] = 4;
        VALUE_SIZE[0x13] = 16;
        VALUE_SIZE[0x08] = BOOLEAN;
    }

    private final Output out;
    private final BsonCursor cursor;
    private boolean fixed;
    /** Values replaced by the last {@link #run}. */
    int redacted;

    PlaceholderRun(final Output out, final BsonCursor cursor) {
        this.out = out;
        this.cursor = cursor;
    }

    void fixedPlaceholders(final boolean fixedPlaceholders) {
        this.fixed = fixedPlaceholders;
    }

    /**
     * Replaces the scalars of the document ending at {@code end}, from the element at {@code from}.
     *
     * @return where it stopped: {@code end}, or an element the walker's general path takes
     */
    int run(final int from, final int end) {
        redacted = 0;
        byte[] src = cursor.src();
        // while writing, the room left is checked per element on a local index; while counting, nothing to write
        int room = out.remaining();
        byte[] dst = room > 0 ? out.fits(room) : null;
        if (dst == null && out.writing()) {
            return from;
        }
        int at = out.position();
        int stop = at + room;
        int p = from;
        int count = 0;
        while (p < end) {
            byte type = src[p];
            int size = VALUE_SIZE[type & 0xff];
            if (size == OTHER) {
                break;
            }
            int k = p + 1;
            int keyEnd = keyEnd(src, k, end);
            if (keyEnd < 0) {
                break;
            }
            int v = keyEnd + 1;
            if (size < 0) {
                size = size == STRING ? stringSize(src, v, end) : booleanSize(src, v, end);
                if (size < 0) {
                    break;
                }
            }
            int next = v + size;
            if (next > end) {
                break;
            }
            byte[] placeholder = Placeholders.of(type, fixed);
            int written = 1 + keyEnd - k + 1 + 4 + placeholder.length + 1;
            if (dst != null) {
                if (written > stop - at) {
                    break;
                }
                write(dst, at, placeholder, src, k, keyEnd - k);
            }
            at += written;
            count++;
            p = next;
        }
        out.advance(at - out.position());
        redacted = count;
        return p;
    }

    /** @return the index of the NUL after the ASCII key at {@code k} without control characters, or -1 */
    private static int keyEnd(final byte[] src, final int k, final int end) {
        for (int i = k; i < end; i++) {
            byte b = src[i];
            if (b == 0) {
                return i;
            }
            // negative: past ASCII, checked as UTF-8 by the general path
            if (b < 0x20 || b == 0x7F) {
                return -1;
            }
        }
        return -1;
    }

    /** @return the size of the string value at {@code v}, or -1 where the general path must look (bounds, a placeholder) */
    private static int stringSize(final byte[] src, final int v, final int end) {
        if (v + 5 > end) {
            return -1;
        }
        int length = (src[v] & 0xff) | (src[v + 1] & 0xff) << 8 | (src[v + 2] & 0xff) << 16 | (src[v + 3] & 0xff) << 24;
        if (length < 1 || length > end - v - 4 || src[v + 4 + length - 1] != 0 || src[v + 4] == '?') {
            return -1;
        }
        return 4 + length;
    }

    /** @return 1 for a boolean at {@code v} that is 0 or 1, or -1 where the general path must look */
    private static int booleanSize(final byte[] src, final int v, final int end) {
        return v < end && (src[v] == 0 || src[v] == 1) ? 1 : -1;
    }

    private static void write(final byte[] dst, final int at, final byte[] placeholder, final byte[] src, final int k,
                              final int kLen) {
        dst[at] = 0x02;
        System.arraycopy(src, k, dst, at + 1, kLen);
        int q = at + 1 + kLen;
        dst[q] = 0;
        int n = placeholder.length;
        dst[q + 1] = (byte) (n + 1);
        dst[q + 2] = 0;
        dst[q + 3] = 0;
        dst[q + 4] = 0;
        System.arraycopy(placeholder, 0, dst, q + 5, n);
        dst[q + 5 + n] = 0;
    }
}
