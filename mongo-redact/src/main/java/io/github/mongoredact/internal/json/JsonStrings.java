package io.github.mongoredact.internal.json;

import io.github.mongoredact.internal.bson.Bytes;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * {@link RawJson}'s strings: UTF-8 bytes written as a JSON string with the driver's writer's escapes into a
 * {@link JsonTextBuffer}; a string that needs no escape in one copy, with its separators. Stateless and thread-safe.
 */
final class JsonStrings {
    /** ASCII characters the driver's writer writes as they are (the rest of ASCII is escaped). */
    private static final boolean[] LITERAL = new boolean[128];
    /** {@link #LITERAL} by byte, false for every byte past ASCII: one look-up a byte. */
    private static final boolean[] LITERAL_BYTE = new boolean[256];
    /** The escapes of the ASCII characters not written as they are, pre-encoded; no bytes for the others. */
    private static final byte[][] ESCAPES = new byte[128][];
    private static final long HIGH_BITS = 0x8080808080808080L;
    /** Eight bytes of a byte array at once, the first in the lowest. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Whether runs are scanned eight bytes at a time: when that finds what the table finds (checked once). */
    static final boolean BY_WORD;

    static {
        for (char c = 0; c < 128; c++) {
            LITERAL[c] = c != '"' && c != '\\' && isLiteral(c);
            LITERAL_BYTE[c] = LITERAL[c];
        }
        for (char c = 0; c < 128; c++) {
            ESCAPES[c] = escapeOf(c);
        }
        BY_WORD = stopsMatchTheTable();
    }

    private JsonStrings() {
    }

    /**
     * Writes {@code prefix}, the string {@code src[from, to)} and {@code suffix} in one step when the string needs no escape
     * and the text stays within the limit up to its closing quote (what {@link #string} would write then).
     *
     * @return false, having written nothing, otherwise
     */
    static boolean quotedRun(final byte[] prefix, final byte[] src, final int from, final int to, final byte[] suffix,
                             final JsonTextBuffer b, final long limit) {
        return literalRunEnd(src, from, to) == to && quoted(prefix, src, from, to, suffix, b, limit);
    }

    /** As {@link #quotedRun} for a string known to need no escape. */
    static boolean quoted(final byte[] prefix, final byte[] src, final int from, final int to, final byte[] suffix,
                          final JsonTextBuffer b, final long limit) {
        if (b.length() + prefix.length + 1L + (to - from) > limit) {
            return false;
        }
        b.appendQuotedAscii(prefix, src, from, to - from, suffix);
        return true;
    }

    /** @return the end of the run of ASCII characters written as they are that starts at {@code from} */
    static int literalRunEnd(final byte[] src, final int from, final int to) {
        int i = from;
        if (BY_WORD) {
            // eight bytes at a time while eight remain in the array: a string's or a name's NUL stops the run at its end
            while (i < to && i <= src.length - Long.BYTES) {
                long stops = stops((long) LONGS.get(src, i));
                if (stops != 0) {
                    return Math.min(to, i + (Long.numberOfTrailingZeros(stops) >>> 3));
                }
                i += Long.BYTES;
            }
            if (i >= to) {
                return to;
            }
        }
        while (i < to && LITERAL_BYTE[src[i] & 0xFF]) {
            i++;
        }
        return i;
    }

    /**
     * @param word eight bytes, the first in the lowest
     * @return the high bit of each byte that is not written as it is (control characters, {@code "}, {@code \}, DEL, any
     *         byte past ASCII); exact for the lowest such byte, a byte above it may be flagged too
     */
    private static long stops(final long word) {
        long control = (word - 0x2020202020202020L) & ~word & HIGH_BITS;
        return control | (word & HIGH_BITS) | Bytes.zeroBytes(word ^ 0x2222222222222222L)
                | Bytes.zeroBytes(word ^ 0x5C5C5C5C5C5C5C5CL) | Bytes.zeroBytes(word ^ 0x7F7F7F7F7F7F7F7FL);
    }

    /** Whether {@link #stops} flags exactly the bytes {@link #LITERAL_BYTE} does not hold, at every place in a word. */
    private static boolean stopsMatchTheTable() {
        for (int b = 0; b < 256; b++) {
            for (int at = 0; at < Long.BYTES; at++) {
                long word = 0x6161616161616161L & ~(0xFFL << (8 * at)) | ((long) b << (8 * at));
                long expected = LITERAL_BYTE[b] ? 0 : 0x80L << (8 * at);
                if (Long.lowestOneBit(stops(word)) != expected) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Writes the UTF-8 bytes {@code src[from, to)} as a JSON string with the driver's writer's escapes, stopping once the
     * output holds more than {@code limit} characters: runs of ASCII written as they are in one copy each, an ASCII
     * character to escape as its pre-encoded escape, the rest from the first byte past ASCII decoded as the driver's reader
     * decodes it (invalid sequences as U+FFFD), as far as the output can still show.
     */
    static void string(final byte[] src, final int from, final int to, final JsonTextBuffer b, final long limit) {
        b.appendAscii('"');
        int i = from;
        while (i < to) {
            int c = src[i];
            if (c < 0) {
                // not ASCII: the rest decoded as the reader decodes it, as far as the output can still show
                long room = Math.max(0, limit - b.length()) + 2;
                int decode = (int) Math.min(to - i, room > Integer.MAX_VALUE ? Integer.MAX_VALUE : 4 * room + 4);
                String rest = new String(src, i, decode, StandardCharsets.UTF_8);
                for (int k = 0; k < rest.length() && b.length() <= limit; k++) {
                    escaped(rest.charAt(k), b);
                }
                break;
            }
            if (LITERAL[c]) {
                int run = literalRunEnd(src, i + 1, to);
                // as written one by one: up to the first character that passes the limit, at least one
                long shown = Math.max(1, limit + 1 - b.length());
                int count = (int) Math.min(run - i, shown);
                b.appendAscii(src, i, count);
                i += count;
            } else {
                b.appendAscii(ESCAPES[c]);
                i++;
            }
            if (b.length() > limit) {
                return;
            }
        }
        b.appendAscii('"');
    }

    /** Writes a character as the driver's writer writes it in a string: as it is, or escaped. */
    private static void escaped(final char c, final JsonTextBuffer b) {
        if (c < 128) {
            if (LITERAL[c]) {
                b.appendAscii(c);
            } else {
                b.appendAscii(ESCAPES[c]);
            }
        } else if (isLiteral(c)) {
            b.append(c);
        } else {
            b.appendUnicodeEscape(c);
        }
    }

    /** @return the driver's writer's escape of an ASCII character it does not write as it is, else no bytes */
    private static byte[] escapeOf(final char c) {
        String escape;
        switch (c) {
            case '"':
                escape = "\\\"";
                break;
            case '\\':
                escape = "\\\\";
                break;
            case '\b':
                escape = "\\b";
                break;
            case '\f':
                escape = "\\f";
                break;
            case '\n':
                escape = "\\n";
                break;
            case '\r':
                escape = "\\r";
                break;
            case '\t':
                escape = "\\t";
                break;
            default:
                if (LITERAL[c]) {
                    return new byte[0];
                }
                escape = String.format(Locale.ROOT, "\\u%04x", (int) c);
        }
        return escape.getBytes(StandardCharsets.US_ASCII);
    }

    /** The character classes the driver's writer writes as they are. */
    private static boolean isLiteral(final char c) {
        switch (Character.getType(c)) {
            case Character.UPPERCASE_LETTER:
            case Character.LOWERCASE_LETTER:
            case Character.TITLECASE_LETTER:
            case Character.OTHER_LETTER:
            case Character.DECIMAL_DIGIT_NUMBER:
            case Character.LETTER_NUMBER:
            case Character.OTHER_NUMBER:
            case Character.SPACE_SEPARATOR:
            case Character.CONNECTOR_PUNCTUATION:
            case Character.DASH_PUNCTUATION:
            case Character.START_PUNCTUATION:
            case Character.END_PUNCTUATION:
            case Character.INITIAL_QUOTE_PUNCTUATION:
            case Character.FINAL_QUOTE_PUNCTUATION:
            case Character.OTHER_PUNCTUATION:
            case Character.MATH_SYMBOL:
            case Character.CURRENCY_SYMBOL:
            case Character.MODIFIER_SYMBOL:
            case Character.OTHER_SYMBOL:
                return true;
            default:
                return false;
        }
    }
}
