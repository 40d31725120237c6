package io.github.mongoredact.internal.json;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.BoundedPool;
import io.github.mongoredact.internal.walk.BsonCursor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The text {@link RawJson} writes: one byte per character while every character is Latin-1 (bulk copies of ASCII runs
 * straight from a document's bytes, constant tokens pre-encoded), widened once to {@code char}s at the first character
 * past Latin-1; made a {@link String} once, by copy. Writes by absolute index into arrays grown explicitly, with
 * {@code long} arithmetic.
 *
 * <p>Buffers are borrowed from a bounded pool shared by all threads for one render and given back after it
 * ({@link #acquire()} / {@link #release()}), so that no thread keeps one: a render allocates its result and nothing else while
 * its text stays within {@value #RETAINED} characters; a larger buffer is dropped after its render, so that the pool keeps at
 * most that much per slot (and the {@link JsonFrames} of the deepest document it wrote). Not thread-safe: a buffer is used by
 * the caller that acquired it, one render at a time.</p>
 */
final class JsonTextBuffer implements CharSequence {
    /** The most bytes (and chars) a pooled buffer keeps between renders. */
    static final int RETAINED = 64 * 1024;
    private static final int INITIAL = 256;
    /** The largest array the JVM is sure to allocate. */
    private static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MIN_LONG = Long.toString(Long.MIN_VALUE).getBytes(StandardCharsets.US_ASCII);
    /** Eight bytes of a byte array at once, in the platform's order (copies only: the order does not matter). */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    /** Buffers kept between renders, shared by all threads: a render borrows one and gives it back. */
    private static final BoundedPool<JsonTextBuffer> POOL = new BoundedPool<>(JsonTextBuffer::new);

    /** The text while it is Latin-1, one byte per character. */
    private byte[] latin1 = new byte[INITIAL];
    /** The text once it holds a character past Latin-1, else null. */
    @Nullable
    private char[] wide;
    private int length;
    /** The levels of the walk that writes the text, reused with it. */
    final JsonFrames frames = new JsonFrames();
    /** A reader of elements for {@link QueryTextCache}'s look-up (which writes no text), reused with it; cleared when given back. */
    final BsonCursor cursor = new BsonCursor();

    private JsonTextBuffer() {
    }

    /** @return an empty buffer borrowed from the shared pool (a fresh one when none is free), owned until {@link #release()} */
    static JsonTextBuffer acquire() {
        JsonTextBuffer buffer = POOL.borrow();
        buffer.length = 0;
        buffer.wide = null;
        return buffer;
    }

    /**
     * Ends a render and gives the buffer back to the pool: drops arrays larger than {@value #RETAINED} so that the pool does not
     * keep them. The buffer must not be used after.
     */
    void release() {
        if (latin1.length > RETAINED) {
            latin1 = new byte[INITIAL];
        }
        wide = null;
        length = 0;
        cursor.clear();
        POOL.giveBack(this);
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(final int index) {
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException("index=" + index + " length=" + length);
        }
        return wide != null ? wide[index] : (char) (latin1[index] & 0xFF);
    }

    @Override
    public CharSequence subSequence(final int start, final int end) {
        return toString().substring(start, end);
    }

    /** Keeps the first {@code newLength} characters. */
    void setLength(final int newLength) {
        if (newLength < 0 || newLength > length) {
            throw new IndexOutOfBoundsException("newLength=" + newLength + " length=" + length);
        }
        length = newLength;
    }

    /** @return the text: one copy of the buffer's characters */
    @Override
    public String toString() {
        return wide != null ? new String(wide, 0, length) : new String(latin1, 0, length, StandardCharsets.ISO_8859_1);
    }

    /** Appends an ASCII character. */
    void appendAscii(final int c) {
        int at = reserve(1);
        if (wide != null) {
            wide[at] = (char) c;
        } else {
            latin1[at] = (byte) c;
        }
    }

    /** Appends any character, widening the buffer at the first one past Latin-1. */
    void append(final char c) {
        if (c > 0xFF && wide == null) {
            widen();
        }
        int at = reserve(1);
        if (wide != null) {
            wide[at] = c;
        } else {
            latin1[at] = (byte) c;
        }
    }

    /** Appends ASCII bytes: {@code src[from, from + count)}, each below 128. */
    void appendAscii(final byte[] src, final int from, final int count) {
        int at = reserve(count);
        if (wide != null) {
            char[] chars = wide;
            for (int i = 0; i < count; i++) {
                chars[at + i] = (char) src[from + i];
            }
        } else {
            System.arraycopy(src, from, latin1, at, count);
        }
    }

    /**
     * Appends {@code prefix}, then {@code src[from, from + count)} (ASCII bytes written as they are) between double quotes,
     * then {@code suffix}: a name or a string without escapes with its separators, in one step.
     */
    void appendQuotedAscii(final byte[] prefix, final byte[] src, final int from, final int count, final byte[] suffix) {
        int at = reserve(prefix.length + count + 2 + suffix.length);
        if (wide != null) {
            length = at;
            appendAscii(prefix);
            appendAscii('"');
            appendAscii(src, from, count);
            appendAscii('"');
            appendAscii(suffix);
            return;
        }
        byte[] out = latin1;
        int i = at;
        for (byte b : prefix) {
            out[i++] = b;
        }
        out[i++] = '"';
        if (count > 32) {
            System.arraycopy(src, from, out, i, count);
        } else if ((long) from + count + Long.BYTES <= src.length && (long) i + count + Long.BYTES <= out.length) {
            // eight bytes at a time: the last word may run past the run, in both arrays; what it writes past the run is
            // overwritten below, or lies past the text
            for (int k = 0; k < count; k += Long.BYTES) {
                LONGS.set(out, i + k, (long) LONGS.get(src, from + k));
            }
        } else {
            for (int k = 0; k < count; k++) {
                out[i + k] = src[from + k];
            }
        }
        i += count;
        out[i++] = '"';
        for (byte b : suffix) {
            out[i++] = b;
        }
    }

    /** Appends the lower-case hexadecimal digits of {@code src[from, from + count)}, two a byte. */
    void appendHex(final byte[] src, final int from, final int count) {
        int at = reserve(2 * count);
        for (int k = from; k < from + count; k++) {
            byte high = HEX[(src[k] >> 4) & 0xF];
            byte low = HEX[src[k] & 0xF];
            if (wide != null) {
                wide[at++] = (char) high;
                wide[at++] = (char) low;
            } else {
                latin1[at++] = high;
                latin1[at++] = low;
            }
        }
    }

    /** Appends a constant token of ASCII bytes. */
    void appendAscii(final byte[] token) {
        appendAscii(token, 0, token.length);
    }

    /** Appends the two lower-case hexadecimal digits of a byte. */
    void appendHex(final byte b) {
        appendAscii(HEX[(b >> 4) & 0xF]);
        appendAscii(HEX[b & 0xF]);
    }

    /** Appends {@code \\u} and the four lower-case hexadecimal digits of a character. */
    void appendUnicodeEscape(final char c) {
        appendAscii('\\');
        appendAscii('u');
        appendHex((byte) (c >> 8));
        appendHex((byte) c);
    }

    /** Appends the decimal text of a number, as {@link Long#toString(long)} writes it. */
    void appendDecimal(final long value) {
        if (value == Long.MIN_VALUE) {
            appendAscii(MIN_LONG);
            return;
        }
        long rest = value;
        if (rest < 0) {
            appendAscii('-');
            rest = -rest;
        }
        int digits = 1;
        for (long bound = 10; digits < 19 && rest >= bound; bound *= 10) {
            digits++;
        }
        int at = reserve(digits);
        for (int i = at + digits - 1; i >= at; i--) {
            int digit = (int) (rest % 10);
            rest /= 10;
            if (wide != null) {
                wide[i] = (char) ('0' + digit);
            } else {
                latin1[i] = (byte) ('0' + digit);
            }
        }
    }

    /** Appends a copy of the text {@code [from, to)} it holds. */
    void appendCopy(final int from, final int to) {
        int count = to - from;
        int at = reserve(count);
        if (wide != null) {
            System.arraycopy(wide, from, wide, at, count);
        } else {
            System.arraycopy(latin1, from, latin1, at, count);
        }
    }

    /** @return the index at which {@code count} more characters go; the length already counts them */
    private int reserve(final int count) {
        int at = length;
        long needed = (long) at + count;
        int capacity = wide != null ? wide.length : latin1.length;
        if (needed > capacity) {
            grow(needed);
        }
        length = (int) needed;
        return at;
    }

    private void grow(final long needed) {
        if (needed > MAX_CAPACITY) {
            throw new IllegalStateException("text too long: length=" + length + " needed=" + needed);
        }
        int capacity = (int) Math.min(MAX_CAPACITY, Math.max(needed, 2L * (wide != null ? wide.length : latin1.length)));
        if (wide != null) {
            wide = Arrays.copyOf(wide, capacity);
        } else {
            latin1 = Arrays.copyOf(latin1, capacity);
        }
    }

    /** Copies the Latin-1 text into chars, where it goes on. */
    private void widen() {
        char[] chars = new char[Math.max(INITIAL, latin1.length)];
        for (int i = 0; i < length; i++) {
            chars[i] = (char) (latin1[i] & 0xFF);
        }
        wide = chars;
    }
}
