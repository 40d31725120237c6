package io.github.mongoredact.internal;

import com.mongodb.lang.Nullable;

import java.nio.charset.StandardCharsets;

/**
 * Removes the values a server message quotes, keeping its text: every quoted string becomes {@code "?"} and, inside braces,
 * every value after a {@code :} becomes {@code ?}, so {@code dup key: { email: "alice@example.com" }} reads
 * {@code dup key: { email: ? }}. Works on UTF-8 bytes in two modes by the same code: counting (no destination) and writing.
 */
public final class MessageScrubber {
    private MessageScrubber() {
    }

    /**
     * Scrubs a Java string (allocates: for failure paths).
     *
     * @param message the message
     * @return the scrubbed message
     */
    @Nullable
    public static String scrub(@Nullable final String message) {
        if (message == null) {
            return null;
        }
        byte[] src = message.getBytes(StandardCharsets.UTF_8);
        int length = scrub(src, 0, src.length, null, 0);
        byte[] dst = new byte[length];
        scrub(src, 0, src.length, dst, 0);
        return new String(dst, StandardCharsets.UTF_8);
    }

    /**
     * Scrubs {@code src[off, off + len)} into {@code dst} at {@code dstIndex}, or only counts when {@code dst} is null.
     *
     * @return the number of bytes written (or that would be written)
     */
    static int scrub(final byte[] src, final int off, final int len, @Nullable final byte[] dst, final int dstIndex) {
        int end = off + len;
        int out = dstIndex;
        int depth = 0;
        int i = off;
        while (i < end) {
            byte c = src[i];
            if (c == '"' || c == '\'') {
                out = put(dst, out, c);
                out = put(dst, out, (byte) '?');
                int after = skipQuoted(src, i, end);
                if (after > 0) {
                    out = put(dst, out, c);
                    i = after;
                } else {
                    i = end;
                }
                continue;
            }
            if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth = Math.max(0, depth - 1);
            } else if (c == ':' && depth > 0) {
                out = put(dst, out, c);
                i++;
                if (i < end && src[i] == ' ') {
                    out = put(dst, out, (byte) ' ');
                }
                int valueEnd = skipValue(src, i, end);
                out = put(dst, out, (byte) '?');
                if (valueEnd > i && src[valueEnd - 1] == ' ' && valueEnd < end && src[valueEnd] == '}') {
                    out = put(dst, out, (byte) ' ');
                }
                i = valueEnd;
                continue;
            }
            out = put(dst, out, c);
            i++;
        }
        return out - dstIndex;
    }

    private static int put(@Nullable final byte[] dst, final int index, final byte b) {
        if (dst != null) {
            dst[index] = b;
        }
        return index + 1;
    }

    /** @return the index after the closing quote of the quoted string that starts at {@code start}, or -1 if unterminated */
    private static int skipQuoted(final byte[] src, final int start, final int end) {
        byte quote = src[start];
        int i = start + 1;
        while (i < end) {
            byte c = src[i];
            if (c == '\\') {
                i += 2;
                continue;
            }
            i++;
            if (c == quote) {
                return i;
            }
        }
        return -1;
    }

    /** @return the index of the {@code ,} or {@code }} that ends the value starting at {@code start}, or {@code end} */
    private static int skipValue(final byte[] src, final int start, final int end) {
        int nesting = 0;
        int i = start;
        while (i < end) {
            byte c = src[i];
            if (c == '"' || c == '\'') {
                int after = skipQuoted(src, i, end);
                i = after < 0 ? end : after;
                continue;
            }
            if (c == '{' || c == '[' || c == '(') {
                nesting++;
            } else if (c == ']' || c == ')') {
                nesting--;
            } else if (c == '}') {
                if (nesting == 0) {
                    return i;
                }
                nesting--;
            } else if (c == ',' && nesting == 0) {
                return i;
            }
            i++;
        }
        return end;
    }
}
