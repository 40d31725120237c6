package io.github.mongoredact.internal.walk;

import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;


/**
 * What {@code KEEP_FLAGS} keeps: booleans, the numbers -1, 0 and 1 (inclusion flags, sort and index directions) and, where
 * index keys may stand, the index type names. A large number in a projection or a sort is a value, not a flag. Allocation-free.
 */
final class Flags {
    private static final byte[][] INDEX_TYPES = {
            {'t', 'e', 'x', 't'}, {'2', 'd'}, {'2', 'd', 's', 'p', 'h', 'e', 'r', 'e'},
            {'g', 'e', 'o', 'H', 'a', 'y', 's', 't', 'a', 'c', 'k'}, {'h', 'a', 's', 'h', 'e', 'd'}};

    private Flags() {
    }

    /**
     * @param words whether the index type names count as flags
     * @return whether the value of the given type at {@code src[v]} is a flag (bounds already checked)
     */
    static boolean isFlag(final byte[] src, final byte type, final int v, final boolean words) {
        switch (type) {
            case BsonTypes.BOOLEAN:
                return true;
            case BsonTypes.INT32:
                int i = Bytes.readInt(src, v);
                return i >= -1 && i <= 1;
            case BsonTypes.INT64:
                long l = Bytes.readLong(src, v);
                return l >= -1 && l <= 1;
            case BsonTypes.DOUBLE:
                double d = Double.longBitsToDouble(Bytes.readLong(src, v));
                return d == 0 || d == 1 || d == -1;
            case BsonTypes.STRING:
                return words && isIndexType(src, v + 4, Bytes.readInt(src, v) - 1);
            default:
                return false;
        }
    }

    private static boolean isIndexType(final byte[] src, final int off, final int len) {
        for (byte[] name : INDEX_TYPES) {
            if (Bytes.equal(name, src, off, len)) {
                return true;
            }
        }
        return false;
    }
}
