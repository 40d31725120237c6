package io.github.mongoredact.internal.json;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The per-thread text buffer: what it appends, its widening past Latin-1, its growth, its reuse. */
class JsonTextBufferTest {
    @Test
    void writesDecimalsAsLongToString() {
        JsonTextBuffer buffer = JsonTextBuffer.acquire();
        try {
            StringBuilder expected = new StringBuilder();
            long value = 1;
            for (int i = 0; i < 19; i++) {
                for (long v : new long[]{value - 1, value, value + 1, -value, -value + 1, -value - 1}) {
                    buffer.appendDecimal(v);
                    buffer.appendAscii(' ');
                    expected.append(v).append(' ');
                }
                value *= 10;
            }
            for (long v : new long[]{Long.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
                buffer.appendDecimal(v);
                expected.append(v);
            }
            assertEquals(expected.toString(), buffer.toString());
        } finally {
            buffer.release();
        }
    }

    @Test
    void widensAtTheFirstCharacterPastLatin1AndKeepsWhatCameBefore() {
        JsonTextBuffer buffer = JsonTextBuffer.acquire();
        try {
            byte[] ascii = "ab\"c".getBytes(StandardCharsets.US_ASCII);
            buffer.appendAscii(ascii, 1, 2);
            buffer.append('\u00e9');
            assertEquals("b\"\u00e9", buffer.toString());
            buffer.append('\u20ac');
            buffer.appendAscii(ascii);
            buffer.appendDecimal(-42);
            buffer.appendHex((byte) 0xAF);
            buffer.appendUnicodeEscape('\u2028');
            assertEquals("b\"\u00e9\u20acab\"c-42af\\u2028", buffer.toString());
            assertEquals('\u20ac', buffer.charAt(3));
            assertEquals('\u00e9', buffer.charAt(2));
            buffer.setLength(3);
            assertEquals("b\"\u00e9", buffer.toString());
            assertThrows(IndexOutOfBoundsException.class, () -> buffer.charAt(3));
            assertThrows(IndexOutOfBoundsException.class, () -> buffer.setLength(4));
        } finally {
            buffer.release();
        }
    }

    @Test
    void growsPastItsCapacityInBothForms() {
        JsonTextBuffer buffer = JsonTextBuffer.acquire();
        try {
            StringBuilder expected = new StringBuilder();
            byte[] run = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 10_000; i++) {
                buffer.appendAscii(run);
                expected.append("0123456789abcdef");
            }
            buffer.append('\u65e5');
            expected.append('\u65e5');
            for (int i = 0; i < 10_000; i++) {
                buffer.appendAscii(run, 3, 5);
                expected.append("34567");
            }
            assertEquals(expected.length(), buffer.length());
            assertEquals(expected.toString(), buffer.toString());
        } finally {
            buffer.release();
        }
    }

    @Test
    void quotesRunsOfEveryLengthAtEveryPlaceInTheSource() {
        byte[] src = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".getBytes(StandardCharsets.US_ASCII);
        byte[] comma = ", ".getBytes(StandardCharsets.US_ASCII);
        byte[] colon = ": ".getBytes(StandardCharsets.US_ASCII);
        String text = new String(src, StandardCharsets.US_ASCII);
        for (int from = 0; from < src.length; from++) {
            for (int count = 0; from + count <= src.length; count++) {
                JsonTextBuffer buffer = JsonTextBuffer.acquire();
                try {
                    // after a few characters, so that the copy starts at every alignment of the buffer too
                    for (int k = 0; k < from % 9; k++) {
                        buffer.appendAscii('.');
                    }
                    buffer.appendQuotedAscii(comma, src, from, count, colon);
                    buffer.appendAscii('}');
                    assertEquals(".........".substring(0, from % 9) + ", \"" + text.substring(from, from + count) + "\": }",
                            buffer.toString(), "from " + from + " count " + count);
                } finally {
                    buffer.release();
                }
            }
        }
    }

    @Test
    void isReusedFromThePoolAndNotSharedWhileInUse() {
        JsonTextBuffer first = JsonTextBuffer.acquire();
        first.appendAscii('x');
        JsonTextBuffer nested = JsonTextBuffer.acquire();
        try {
            assertNotSame(first, nested, "a buffer in use is not handed out again");
            assertEquals(0, nested.length());
        } finally {
            nested.release();
            first.release();
        }
        JsonTextBuffer again = JsonTextBuffer.acquire();
        try {
            assertTrue(again == first || again == nested, "a pooled buffer, reused");
            assertEquals("", again.toString(), "empty again");
        } finally {
            again.release();
        }
    }
}
