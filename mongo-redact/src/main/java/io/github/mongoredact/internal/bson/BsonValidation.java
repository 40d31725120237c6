package io.github.mongoredact.internal.bson;

/**
 * What a redacting walk checks beyond the bounds of {@link BsonBounds}, so that it forwards nothing the driver's decoder would
 * reject and no value byte can pass for a key: booleans 0 or 1, the inner length of old binary (subtype 2), regular
 * expressions' options of letters, keys that are UTF-8 without control characters, kept strings that are UTF-8 without
 * NUL. Allocation-free; a violation is a {@link BsonFormatException} that says where.
 *
 * <p>Keys are held to more than the driver holds them to: a corrupt length or type byte makes the bytes of a value run into a
 * key, and every such run crosses a type byte (0x01 to 0x13, 0x7F) or a NUL, so refusing control characters in keys refuses
 * those runs; the one that ends at a regular expression's pattern instead then reads the next element's type byte as the
 * options, which must be letters. Real field names do not hold control characters.</p>
 */
public final class BsonValidation {

    private BsonValidation() {
    }

    /**
     * Checks the key {@code src[k, keyEnd)}: UTF-8, no control character anywhere in it (after a character past ASCII too: a
     * run of a value's bytes into a key may hold one before the type byte it crosses).
     */
    public static void checkKey(final byte[] src, final int k, final int keyEnd) {
        boolean checked = false;
        for (int i = k; i < keyEnd; i++) {
            byte b = src[i];
            if (isControl(b)) {
                throw new BsonFormatException("control character in key: index=" + i + " byte=" + (b & 0xff));
            }
            if (b < 0 && !checked) {
                checkUtf8(src, k, keyEnd);
                checked = true;
            }
        }
    }

    /**
     * @return whether {@code b} is a control character no key may hold: 0x00 to 0x1F and DEL (0x7F), which are the type bytes
     * a run of a value's bytes into a key crosses (the key loops, which branch on ranges of bytes, refuse the same)
     */
    public static boolean isControl(final byte b) {
        return b >= 0 && b < 0x20 || b == 0x7F;
    }

    /**
     * Checks what the driver's decoder checks of a value: a boolean is 0 or 1, old binary repeats its length; and what the
     * server checks of a regular expression's options: letters ({@code i}, {@code m}, {@code s}, {@code x}, {@code u}), so
     * that a key run into the pattern (a key's NUL changed: the pattern read as the key, the options as the pattern, the
     * next element's type byte as options) is refused where it crosses no type byte of its own.
     */
    public static void checkValue(final byte[] src, final byte type, final int v, final int vEnd) {
        if (type == BsonTypes.BOOLEAN) {
            byte b = src[v];
            if (b != 0 && b != 1) {
                throw new BsonFormatException("boolean neither 0 nor 1: index=" + v + " value=" + b);
            }
        } else if (type == BsonTypes.BINARY && src[v + 4] == BsonTypes.OLD_BINARY_SUBTYPE) {
            int length = Bytes.readInt(src, v);
            if (length < 4 || vEnd - (v + 5) < 4 || Bytes.readInt(src, v + 5) != length - 4) {
                throw new BsonFormatException("old binary with inconsistent lengths: index=" + v + " length=" + length);
            }
        } else if (type == BsonTypes.REGEX) {
            checkOptions(src, v, vEnd);
        }
    }

    /** Checks the options of the regular expression at {@code v}: letters only. */
    private static void checkOptions(final byte[] src, final int v, final int vEnd) {
        for (int i = BsonBounds.cstringEnd(src, v, vEnd) + 1; i < vEnd - 1; i++) {
            int b = src[i] | 0x20;
            if (b < 'a' || b > 'z') {
                throw new BsonFormatException("regular expression option not a letter: index=" + i + " byte=" + (src[i] & 0xff));
            }
        }
    }

    /** Checks the text of a kept value: strings, code and symbols UTF-8 without NUL, regular expressions UTF-8. */
    public static void checkKept(final byte[] src, final byte type, final int v, final int vEnd) {
        switch (type) {
            case BsonTypes.STRING:
            case BsonTypes.JAVASCRIPT:
            case BsonTypes.SYMBOL:
            case BsonTypes.DB_POINTER:
                // bounds checked by BsonBounds.valueEnd
                checkString(src, v + 4, Bytes.readInt(src, v) - 1);
                break;
            case BsonTypes.CODE_WITH_SCOPE:
                BsonBounds.stringEnd(src, v + 4, vEnd);
                checkString(src, v + 8, Bytes.readInt(src, v + 4) - 1);
                break;
            case BsonTypes.REGEX:
                int patternEnd = BsonBounds.cstringEnd(src, v, vEnd);
                checkUtf8(src, v, patternEnd);
                checkUtf8(src, patternEnd + 1, vEnd - 1);
                break;
            default:
                break;
        }
    }

    /**
     * Checks {@code len} string bytes at {@code off}: UTF-8, no NUL. Eight bytes at a time while they are ASCII and not NUL
     * (most text), then byte by byte from the word that holds the first that is not.
     */
    public static void checkString(final byte[] src, final int off, final int len) {
        int end = off + len;
        int i = off;
        while (i <= end - 8) {
            long w = Bytes.readLong(src, i);
            if (((w & 0x8080808080808080L) | Bytes.zeroBytes(w)) != 0) {
                break;
            }
            i += 8;
        }
        for (; i < end; i++) {
            byte b = src[i];
            if (b == 0) {
                throw new BsonFormatException("NUL inside a kept string: index=" + i);
            }
            if (b < 0) {
                checkUtf8(src, i, end);
                for (int j = i; j < end; j++) {
                    if (src[j] == 0) {
                        throw new BsonFormatException("NUL inside a kept string: index=" + j);
                    }
                }
                return;
            }
        }
    }

    /** Checks that {@code src[off, end)} is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF). */
    static void checkUtf8(final byte[] src, final int off, final int end) {
        int i = off;
        while (i < end) {
            if (src[i] >= 0) {
                i++;
                continue;
            }
            int next = utf8SequenceEnd(src, i, end);
            if (next < 0) {
                throw utf8Error(src, i, ~next, end);
            }
            i = next;
        }
    }

    /**
     * The one check of a multi-byte UTF-8 sequence: its lead byte, its length within {@code end}, its continuation bytes in
     * the ranges that exclude overlong forms, surrogates and code points past U+10FFFF.
     *
     * @param i the index of the sequence's lead byte, at least 0x80
     * @return the index after the sequence, or {@code ~bad} where it is malformed: {@code bad} is the index of the lead byte
     *         when that is invalid, {@code end} when the sequence is cut, else the index of the first invalid continuation
     */
    public static int utf8SequenceEnd(final byte[] src, final int i, final int end) {
        int b = src[i] & 0xff;
        int count;
        int lowSecond = 0x80;
        int highSecond = 0xBF;
        if (b >= 0xC2 && b <= 0xDF) {
            count = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            count = 2;
            lowSecond = b == 0xE0 ? 0xA0 : 0x80;
            highSecond = b == 0xED ? 0x9F : 0xBF;
        } else if (b >= 0xF0 && b <= 0xF4) {
            count = 3;
            lowSecond = b == 0xF0 ? 0x90 : 0x80;
            highSecond = b == 0xF4 ? 0x8F : 0xBF;
        } else {
            return ~i;
        }
        if (i + count >= end) {
            return ~end;
        }
        int second = src[i + 1] & 0xff;
        if (second < lowSecond || second > highSecond) {
            return ~(i + 1);
        }
        for (int j = i + 2; j <= i + count; j++) {
            int c = src[j] & 0xff;
            if (c < 0x80 || c > 0xBF) {
                return ~j;
            }
        }
        return i + count + 1;
    }

    private static BsonFormatException utf8Error(final byte[] src, final int i, final int bad, final int end) {
        if (bad == i) {
            return new BsonFormatException("invalid UTF-8 lead byte: index=" + i + " byte=" + (src[i] & 0xff));
        }
        if (bad >= end) {
            return new BsonFormatException("truncated UTF-8 sequence: index=" + i + " end=" + end);
        }
        return new BsonFormatException("invalid UTF-8 continuation: index=" + bad + " byte=" + (src[bad] & 0xff));
    }
}
