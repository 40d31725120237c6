package io.github.mongoredact.jmh.floor;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The extent of BSON elements in a byte array, for the floor prototypes. */
final class Elements {
    private Elements() {
    }

    /**
     * @return the index after the value of {@code type} that starts at {@code i}, checked to end by {@code end}
     * @throws IllegalArgumentException for a type the prototypes do not read, or a value that runs past {@code end}
     */
    static int valueEnd(final byte[] src, final int i, final byte type, final int end) {
        int next;
        switch (type) {
            case 0x08:
                next = i + 1;
                break;
            case 0x0A:
                next = i;
                break;
            case 0x10:
                next = i + 4;
                break;
            case 0x07:
                next = i + 12;
                break;
            case 0x13:
                next = i + 16;
                break;
            case 0x01:
            case 0x09:
            case 0x11:
            case 0x12:
                next = i + 8;
                break;
            case 0x02:
                next = i + 4 + BsonOut.readInt(src, i);
                break;
            case 0x03:
            case 0x04:
                next = i + BsonOut.readInt(src, i);
                break;
            case 0x05:
                next = i + 4 + 1 + BsonOut.readInt(src, i);
                break;
            default:
                throw new IllegalArgumentException("the floor prototypes do not read type=" + type);
        }
        if (next > end || next < i) {
            throw new IllegalArgumentException("value out of bounds: type=" + type + " index=" + i + " end=" + end);
        }
        return next;
    }

    /** @return the element that starts at {@code i}, its value checked to end by {@code end} */
    static Element at(final byte[] src, final int i, final int end) {
        int k = i + 1;
        while (src[k] != 0) {
            k++;
        }
        return new Element(src, i, k + 1, valueEnd(src, k + 1, src[i], end));
    }

    /** One element: {@code type key\0 value}, by its indexes. */
    static final class Element {
        final byte[] src;
        final byte type;
        final int start;
        final int valueStart;
        final int end;

        Element(final byte[] src, final int start, final int valueStart, final int end) {
            this.src = src;
            this.type = src[start];
            this.start = start;
            this.valueStart = valueStart;
            this.end = end;
        }

        String key() {
            return new String(src, start + 1, valueStart - start - 2, StandardCharsets.UTF_8);
        }

        boolean sameKey(final Element other) {
            return Arrays.equals(src, start + 1, valueStart, other.src, other.start + 1, other.valueStart);
        }

        boolean sameValue(final Element other) {
            return Arrays.equals(src, valueStart, end, other.src, other.valueStart, other.end);
        }

        /** @return the value of a string element */
        String stringValue() {
            return new String(src, valueStart + 4, end - valueStart - 5, StandardCharsets.UTF_8);
        }
    }
}
