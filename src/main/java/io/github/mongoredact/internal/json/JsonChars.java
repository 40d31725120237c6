package io.github.mongoredact.internal.json;

import java.util.Arrays;

/**
 * The characters {@link RawJson} writes: a growable {@code char[]} written by index, made into one {@code String} at the end
 * (compacted there when every character is Latin-1), without the checks a {@code StringBuilder} makes per append. Not
 * thread-safe: one per render.
 */
final class JsonChars {
    char[] chars;
    int length;

    JsonChars(final int capacity) {
        chars = new char[Math.max(16, capacity)];
    }

    /** Makes room for {@code count} more characters. */
    void ensure(final int count) {
        long needed = (long) length + count;
        if (needed > chars.length) {
            if (needed > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("JSON text too long: length=" + length + " count=" + count);
            }
            chars = Arrays.copyOf(chars, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, 2L * chars.length)));
        }
    }

    void put(final char c) {
        ensure(1);
        chars[length++] = c;
    }

    void put(final char a, final char b) {
        ensure(2);
        chars[length++] = a;
        chars[length++] = b;
    }

    void put(final String text) {
        int n = text.length();
        ensure(n);
        text.getChars(0, n, chars, length);
        length += n;
    }

    /** Writes the decimal text of a value, as {@code Long.toString} writes it. */
    void putDecimal(final long value) {
        if (value == Long.MIN_VALUE) {
            put(Long.toString(value));
            return;
        }
        long v = Math.abs(value);
        int digits = 1;
        for (long x = v; x >= 10; x /= 10) {
            digits++;
        }
        ensure(digits + 1);
        if (value < 0) {
            chars[length++] = '-';
        }
        for (int i = length + digits - 1; i >= length; i--) {
            chars[i] = (char) ('0' + v % 10);
            v /= 10;
        }
        length += digits;
    }

    @Override
    public String toString() {
        return new String(chars, 0, length);
    }
}
