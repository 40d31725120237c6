package io.github.mongoredact.internal.mask;

import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.bson.Output;

/**
 * The keys of array elements, {@code "0"}, {@code "1"}, ...: the first {@link #TABLED} from a table computed once, so that
 * checking a source key against its index and writing it cost a comparison and a copy instead of divisions. Immutable.
 */
public final class IndexKeys {
    static final int TABLED = 10_000;
    private static final int WIDTH = 4;
    /** The digits of each tabled index, left-aligned in {@link #WIDTH} bytes. */
    private static final byte[] TABLE = new byte[TABLED * WIDTH];

    static {
        for (int i = 0; i < TABLED; i++) {
            Bytes.writeDigits(TABLE, i * WIDTH, i);
        }
    }

    private IndexKeys() {
    }

    /** @return the number of decimal digits of a non-negative value */
    public static int digits(final int value) {
        if (value < 10) {
            return 1;
        }
        if (value < 100) {
            return 2;
        }
        if (value < 1000) {
            return 3;
        }
        return value < TABLED ? 4 : Bytes.digits(value);
    }

    /** @return whether the key {@code src[k, k + kLen)} is the decimal form of {@code index} */
    public static boolean matches(final byte[] src, final int k, final int kLen, final int index) {
        if (index < 10) {
            // most arrays: one digit
            return kLen == 1 && src[k] == '0' + index;
        }
        if (kLen != digits(index)) {
            return false;
        }
        if (index < TABLED) {
            int t = index * WIDTH;
            for (int i = 0; i < kLen; i++) {
                if (src[k + i] != TABLE[t + i]) {
                    return false;
                }
            }
            return true;
        }
        int v = index;
        for (int i = k + kLen - 1; i >= k; i--) {
            if (src[i] != '0' + v % 10) {
                return false;
            }
            v /= 10;
        }
        return true;
    }

    /**
     * Whether the element name at {@code src[k]} is {@code index} as the driver writes it, its digits and their NUL before
     * {@code end}: the one check of an array's element name against its position before the name is read any further.
     *
     * @return true where the name ends at {@code k + digits(index)}
     */
    public static boolean isName(final byte[] src, final int k, final int end, final int index) {
        int nameEnd = k + digits(index);
        return nameEnd < end && src[nameEnd] == 0 && matches(src, k, nameEnd - k, index);
    }

    /** Writes the digits of {@code index}. */
    public static void write(final Output out, final int index) {
        if (index < 10) {
            out.putByte((byte) ('0' + index));
        } else if (index < TABLED) {
            out.putBytes(TABLE, index * WIDTH, digits(index));
        } else {
            out.putDigits(index);
        }
    }

    /** Writes the digits of {@code index} into {@code dst} at {@code at}; the caller checked the room. */
    public static void copy(final byte[] dst, final int at, final int index) {
        if (index < 10) {
            dst[at] = (byte) ('0' + index);
        } else if (index < TABLED) {
            int t = index * WIDTH;
            int n = digits(index);
            for (int i = 0; i < n; i++) {
                dst[at + i] = TABLE[t + i];
            }
        } else {
            Bytes.writeDigits(dst, at, index);
        }
    }
}
