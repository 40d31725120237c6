package io.github.mongoredact.internal.bson;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Little-endian reads and writes on arrays by absolute index, and byte comparisons. Allocation-free. An index out of its
 * array throws {@link IndexOutOfBoundsException}.
 */
public final class Bytes {
    /** Four and eight bytes at an index, little-endian: one access each, its bounds checked once. */
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Bytes() {
    }

    public static int readInt(final byte[] src, final int index) {
        return (int) INTS.get(src, index);
    }

    public static long readLong(final byte[] src, final int index) {
        return (long) LONGS.get(src, index);
    }

    /** @return bytes written: 4 */
    public static int writeInt(final byte[] dst, final int index, final int value) {
        INTS.set(dst, index, value);
        return 4;
    }

    /** @return bytes written: 8 */
    public static int writeLong(final byte[] dst, final int index, final long value) {
        LONGS.set(dst, index, value);
        return 8;
    }

    /**
     * The zero bytes of eight bytes read as one word: the high bit of each zero byte set, exact for the lowest one (a byte
     * above it may be flagged too, through the borrow). Three operations: the searches for a NUL take its index from the
     * trailing zeros of this.
     */
    public static long zeroBytes(final long w) {
        return (w - 0x0101010101010101L) & ~w & 0x8080808080808080L;
    }

    public static boolean equal(final byte[] expected, final byte[] src, final int off, final int len) {
        if (expected.length != len) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (expected[i] != src[off + i]) {
                return false;
            }
        }
        return true;
    }

    /** @return the number of decimal digits of a non-negative value */
    public static int digits(final int value) {
        int digits = 1;
        for (int v = value; v >= 10; v /= 10) {
            digits++;
        }
        return digits;
    }

    /** Writes the decimal digits of a non-negative value. @return bytes written */
    public static int writeDigits(final byte[] dst, final int index, final int value) {
        int digits = digits(value);
        int v = value;
        for (int i = index + digits - 1; i >= index; i--) {
            dst[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return digits;
    }

    /**
     * Writes UTF-8 without allocating, as the driver's codec writes it: an unpaired surrogate is written as its own three
     * bytes (as the codec does, on every supported line), not as {@link String#getBytes}' {@code ?}, so that copies stay
     * byte-identical. {@code dst} must have room.
     *
     * @return the index after the bytes written
     */
    /**
     * Writes a key's UTF-8 bytes at {@code index} of {@code dst}, which has room for three bytes a character.
     *
     * @return the index after the key (no NUL written)
     * @throws BsonFormatException where the key holds a NUL
     */
    public static int writeKey(final String key, final byte[] dst, final int index) {
        if (key.indexOf('\0') >= 0) {
            throw new BsonFormatException("key holds a NUL character: key length=" + key.length());
        }
        return writeUtf8(key, dst, index);
    }

    /**
     * The length {@link #writeUtf8} writes: an unpaired surrogate takes three bytes, as in the driver's codec. One loop over
     * the characters that also refuses a NUL in a C string ({@code cstring}), as the encoder does.
     */
    static long utf8Length(final String s, final boolean cstring) {
        int length = s.length();
        long bytes = length;
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                if (c < 0x800) {
                    bytes += 1;
                } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(s.charAt(i + 1))) {
                    // two chars, four bytes
                    bytes += 2;
                    i++;
                } else {
                    bytes += 2;
                }
            } else if (c == 0 && cstring) {
                throw new BsonFormatException("key or C string holds a NUL character: length=" + length);
            }
        }
        return bytes;
    }

    static int writeUtf8(final String s, final byte[] dst, final int index) {
        int length = s.length();
        // ASCII, the driver's keys and most names: one byte a character
        int i = 0;
        if (length <= dst.length - index) {
            for (; i < length; i++) {
                char c = s.charAt(i);
                if (c >= 0x80) {
                    break;
                }
                dst[index + i] = (byte) c;
            }
        }
        return i < length ? writeUtf8(s, i, dst, index + i) : index + i;
    }

    /** The characters of {@code s} from {@code from} on, any of them beyond ASCII. @return the index after them */
    private static int writeUtf8(final String s, final int from, final byte[] dst, final int index) {
        int length = s.length();
        int p = index;
        for (int i = from; i < length; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                dst[p++] = (byte) c;
            } else if (c < 0x800) {
                dst[p++] = (byte) (0xC0 | c >> 6);
                dst[p++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                dst[p++] = (byte) (0xF0 | cp >> 18);
                dst[p++] = (byte) (0x80 | cp >> 12 & 0x3F);
                dst[p++] = (byte) (0x80 | cp >> 6 & 0x3F);
                dst[p++] = (byte) (0x80 | cp & 0x3F);
            } else {
                dst[p++] = (byte) (0xE0 | c >> 12);
                dst[p++] = (byte) (0x80 | c >> 6 & 0x3F);
                dst[p++] = (byte) (0x80 | c & 0x3F);
            }
        }
        return p;
    }
}
