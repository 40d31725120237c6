package io.github.mongoredact.internal.bson;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Where BSON elements end: the bounds of C strings, strings and values of every type, checked against the end of their
 * document. Allocation-free; a violation is a {@link BsonFormatException} that says where.
 */
public final class BsonBounds {
    /**
     * The deepest nesting the driver writes: its binary writer refuses a document of more levels (the top level counted as
     * one, arrays as documents), {@code BsonBinaryWriterSettings}' default maximum serialization depth.
     */
    public static final int DRIVER_MAX_DEPTH = 1024;
    /**
     * The deepest nesting read or written, in levels (the top level counted as one): every command the driver writes, a
     * document sequence's documents (each of up to {@link #DRIVER_MAX_DEPTH} levels) included, merged as the array of a
     * top-level field, two levels below the top. Deeper documents are refused; every walk keeps its open levels in arrays
     * of this size, not on the stack.
     */
    public static final int MAX_DEPTH = DRIVER_MAX_DEPTH + 2;

    /** @throws BsonFormatException when a plain document nests {@code depth} levels, more than {@link #MAX_DEPTH} allows */
    static void checkDepth(final int depth) {
        if (depth >= MAX_DEPTH) {
            throw FramingErrors.tooDeep();
        }
    }
    /** Eight bytes at a time, for the search of a C string's NUL. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Per type byte: the size of a value of that type where it is fixed, else -1 (its bytes give it, or no such type). */
    private static final byte[] FIXED_SIZE = new byte[256];

    static {
        java.util.Arrays.fill(FIXED_SIZE, (byte) -1);
        for (byte type : new byte[]{BsonTypes.DOUBLE, BsonTypes.DATE_TIME, BsonTypes.TIMESTAMP, BsonTypes.INT64}) {
            FIXED_SIZE[type & 0xff] = 8;
        }
        for (byte type : new byte[]{BsonTypes.UNDEFINED, BsonTypes.NULL, BsonTypes.MIN_KEY, BsonTypes.MAX_KEY}) {
            FIXED_SIZE[type & 0xff] = 0;
        }
        FIXED_SIZE[BsonTypes.OBJECT_ID] = 12;
        FIXED_SIZE[BsonTypes.BOOLEAN] = 1;
        FIXED_SIZE[BsonTypes.INT32] = 4;
        FIXED_SIZE[BsonTypes.DECIMAL128] = 16;
    }

    private BsonBounds() {
    }

    /**
     * Searches eight bytes at a time where the array holds them (keys are short: most end within the first word), then byte
     * by byte.
     *
     * @return the index of the NUL that ends the C string at {@code start}, which must lie before {@code end}
     */
    public static int cstringEnd(final byte[] src, final int start, final int end) {
        int i = start;
        int words = Math.min(end, src.length - 7);
        while (i < words) {
            long w = (long) LONGS.get(src, i);
            // the lowest byte that is 0 sets its high bit here (bytes above it may too, through the borrow: not read)
            long zero = Bytes.zeroBytes(w);
            if (zero != 0) {
                int nul = i + (Long.numberOfTrailingZeros(zero) >>> 3);
                if (nul < end) {
                    return nul;
                }
                throw unterminated(start, end);
            }
            i += 8;
        }
        for (; i < end; i++) {
            if (src[i] == 0) {
                return i;
            }
        }
        throw unterminated(start, end);
    }

    private static BsonFormatException unterminated(final int start, final int end) {
        return new BsonFormatException("unterminated key or C string at index=" + start + " end=" + end);
    }

    /** @return the index after the value of the given type at {@code v}, checked against {@code end} */
    public static int valueEnd(final byte[] src, final byte type, final int v, final int end) {
        // the types of fixed size (most values) by one load from a table; strings next; the rest by their type
        int fixed = FIXED_SIZE[type & 0xff];
        long after;
        if (fixed >= 0) {
            after = (long) v + fixed;
        } else if (type == BsonTypes.STRING) {
            after = stringEnd(src, v, end);
        } else {
            after = variableEnd(src, type, v, end);
        }
        if (after > end) {
            throw new BsonFormatException("value overruns its document: index=" + v + " end=" + after + " limit=" + end);
        }
        return (int) after;
    }

    /** @return the index after the value at {@code v} of a type whose size its bytes give, other than a string */
    private static long variableEnd(final byte[] src, final byte type, final int v, final int end) {
        switch (type) {
            case BsonTypes.JAVASCRIPT:
            case BsonTypes.SYMBOL:
                return stringEnd(src, v, end);
            case BsonTypes.DOCUMENT:
            case BsonTypes.ARRAY:
            case BsonTypes.CODE_WITH_SCOPE:
                return (long) v + documentLength(src, type, v, end);
            case BsonTypes.BINARY:
                return (long) v + 5 + binaryLength(src, v, end);
            case BsonTypes.REGEX:
                return cstringEnd(src, cstringEnd(src, v, end) + 1, end) + 1;
            case BsonTypes.DB_POINTER:
                return stringEnd(src, v, end) + 12;
            default:
                throw new BsonFormatException("unknown BSON type 0x" + Integer.toHexString(type & 0xff) + " at index="
                        + (v - 1));
        }
    }

    /** @return the length of the document (or code with scope) at {@code v}, checked to hold at least its framing */
    private static int documentLength(final byte[] src, final byte type, final int v, final int end) {
        checkAvailable(v, 4, end);
        int length = Bytes.readInt(src, v);
        if (length < (type == BsonTypes.CODE_WITH_SCOPE ? 14 : 5)) {
            throw new BsonFormatException("length too small: index=" + v + " length=" + length + " type=" + type);
        }
        return length;
    }

    /** @return the length of the binary's bytes at {@code v} (after its length and subtype), checked not negative */
    private static int binaryLength(final byte[] src, final int v, final int end) {
        checkAvailable(v, 5, end);
        int length = Bytes.readInt(src, v);
        if (length < 0) {
            throw new BsonFormatException("negative binary length: index=" + v + " length=" + length);
        }
        return length;
    }

    public static long stringEnd(final byte[] src, final int v, final int end) {
        checkAvailable(v, 4, end);
        int length = Bytes.readInt(src, v);
        if (length < 1) {
            throw new BsonFormatException("string length too small: index=" + v + " length=" + length);
        }
        long after = (long) v + 4 + length;
        if (after > end || src[(int) after - 1] != 0) {
            throw new BsonFormatException("string not terminated: index=" + v + " length=" + length + " limit=" + end);
        }
        return after;
    }

    public static void checkAvailable(final int index, final int count, final int end) {
        if ((long) index + count > end) {
            throw new BsonFormatException("truncated value: index=" + index + " needs=" + count + " limit=" + end);
        }
    }
}
