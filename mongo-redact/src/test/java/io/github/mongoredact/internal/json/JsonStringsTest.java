package io.github.mongoredact.internal.json;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The scan for the end of a run of characters written as they are, eight bytes at a time, against a byte-by-byte rule. */
class JsonStringsTest {
    /** The driver's writer writes printable ASCII as it is, but for the quote and the backslash. */
    private static boolean literal(final byte b) {
        return b >= 0x20 && b < 0x7F && b != '"' && b != '\\';
    }

    private static int expectedRunEnd(final byte[] src, final int from, final int to) {
        int i = from;
        while (i < to && literal(src[i])) {
            i++;
        }
        return i;
    }

    @Test
    void scansEightBytesAtATime() {
        assertTrue(JsonStrings.BY_WORD, "the word scan flags what the table flags");
    }

    @Test
    void findsTheFirstByteNotWrittenAsItIsAtEveryPlace() {
        for (int b = 0; b < 256; b++) {
            for (int length = 1; length <= 24; length++) {
                for (int at = 0; at < length; at++) {
                    byte[] src = new byte[length];
                    java.util.Arrays.fill(src, (byte) 'a');
                    src[at] = (byte) b;
                    for (int from = 0; from <= at; from++) {
                        assertEquals(expectedRunEnd(src, from, length), JsonStrings.literalRunEnd(src, from, length),
                                "byte " + b + " at " + at + " of " + length + " from " + from);
                    }
                }
            }
        }
    }

    @Test
    void stopsAtTheEndOfTheRangeWhateverFollows() {
        Random random = new Random(0x5CA9);
        byte[] pieces = {'a', 'Z', '0', ' ', '~', '"', '\\', '\n', 0, 0x1F, 0x7F, (byte) 0x80, (byte) 0xC3, (byte) 0xFF};
        for (int n = 0; n < 20_000; n++) {
            byte[] src = new byte[1 + random.nextInt(40)];
            for (int i = 0; i < src.length; i++) {
                // mostly literal, so that runs are long
                src[i] = random.nextInt(4) == 0 ? pieces[random.nextInt(pieces.length)] : (byte) ('a' + random.nextInt(26));
            }
            int from = random.nextInt(src.length);
            int to = from + random.nextInt(src.length - from + 1);
            assertEquals(expectedRunEnd(src, from, to), JsonStrings.literalRunEnd(src, from, to),
                    "from " + from + " to " + to + " in " + java.util.Arrays.toString(src));
        }
    }
}
