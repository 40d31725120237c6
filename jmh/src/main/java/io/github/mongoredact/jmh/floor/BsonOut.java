package io.github.mongoredact.jmh.floor;

import java.util.Arrays;

/**
 * The output of a floor prototype: an array and a position, little-endian writes, and growth only when it is the reusable
 * scratch. Not thread-safe.
 */
final class BsonOut {
    byte[] buf;
    int pos;
    private boolean growable;

    /** Writes into {@code array} from 0; {@code growable} for a scratch array, false for an exact one. */
    void reset(final byte[] array, final boolean growable) {
        this.buf = array;
        this.pos = 0;
        this.growable = growable;
    }

    /**
     * Makes room for {@code n} more bytes in a scratch array (callers pass a bound, not the exact need). An exact array is left
     * as it is: its writers check the final position against the size they computed.
     */
    void ensure(final int n) {
        if (growable && pos + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
        }
    }

    void putByte(final int b) {
        buf[pos++] = (byte) b;
    }

    void putInt(final int value) {
        putInt(pos, value);
        pos += 4;
    }

    void putLong(final long value) {
        putInt((int) value);
        putInt((int) (value >>> 32));
    }

    void putInt(final int at, final int value) {
        buf[at] = (byte) value;
        buf[at + 1] = (byte) (value >>> 8);
        buf[at + 2] = (byte) (value >>> 16);
        buf[at + 3] = (byte) (value >>> 24);
    }

    /** Writes an ASCII key or string and its terminating 0 (the prototypes' inputs are ASCII; anything else fails). */
    void putAscii(final String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 0 || c >= 0x80) {
                throw new IllegalArgumentException("the floor prototypes write ASCII only: " + s);
            }
            buf[pos++] = (byte) c;
        }
        buf[pos++] = 0;
    }

    /** Writes the decimal array index {@code i} as a key, with its terminating 0. */
    void putIndexKey(final int i) {
        int digits = indexKeySize(i) - 1;
        int v = i;
        for (int d = pos + digits - 1; d >= pos; d--) {
            buf[d] = (byte) ('0' + v % 10);
            v /= 10;
        }
        pos += digits;
        buf[pos++] = 0;
    }

    /** @return the bytes of the decimal key of array index {@code i}, its terminating 0 included */
    static int indexKeySize(final int i) {
        int digits = 1;
        for (int v = i; v >= 10; v /= 10) {
            digits++;
        }
        return digits + 1;
    }

    /**
     * Writes the value of a string element, {@code text} (under 64 KiB, no NUL) with its length prefix and terminating 0, at
     * {@code at}; the destination has room.
     *
     * @return the position after it
     */
    static int putString(final byte[] dst, final int at, final byte[] text) {
        int n = text.length + 1;
        dst[at] = (byte) n;
        dst[at + 1] = (byte) (n >>> 8);
        dst[at + 2] = 0;
        dst[at + 3] = 0;
        System.arraycopy(text, 0, dst, at + 4, text.length);
        dst[at + 4 + text.length] = 0;
        return at + 4 + n;
    }

    static int readInt(final byte[] src, final int at) {
        return (src[at] & 0xff) | (src[at + 1] & 0xff) << 8 | (src[at + 2] & 0xff) << 16 | (src[at + 3] & 0xff) << 24;
    }
}
