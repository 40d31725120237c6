package io.github.mongoredact.internal.bson;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A kept string's check: refused exactly where it holds a NUL or is not UTF-8, wherever that byte lies in its words; a key's:
 * refused where it holds a control character, wherever it lies.
 */
class BsonValidationTest {
    /** What may stand at one place of a string: ASCII, a NUL, UTF-8 of two and three bytes, and bytes that are not UTF-8. */
    private static final byte[][] PIECES = {
        {'k'}, {0}, {(byte) 0xC3, (byte) 0xA9}, {(byte) 0xE2, (byte) 0x82, (byte) 0xAC}, {(byte) 0xFF}, {(byte) 0x80},
        {(byte) 0xC3}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {0x7F}, {0x01}};

    @Test
    void refusesANulOrBytesThatAreNotUtf8AtEveryPlaceAndOffset() {
        for (int length = 0; length < 26; length++) {
            for (byte[] piece : PIECES) {
                for (int at = 0; at <= length; at++) {
                    for (int off = 0; off < 9; off++) {
                        byte[] text = new byte[length + piece.length];
                        Arrays.fill(text, (byte) 'a');
                        System.arraycopy(piece, 0, text, at, piece.length);
                        // the string inside a larger array, as in a document: bytes before it and its NUL after
                        byte[] src = new byte[off + text.length + 1 + 8];
                        Arrays.fill(src, (byte) 'z');
                        System.arraycopy(text, 0, src, off, text.length);
                        src[off + text.length] = 0;
                        String where = "piece=" + Arrays.toString(piece) + " at=" + at + " length=" + length + " off=" + off;
                        int start = off;
                        int len = text.length;
                        if (piece[0] == 0) {
                            BsonFormatException e = assertThrows(BsonFormatException.class,
                                    () -> BsonValidation.checkString(src, start, len), where);
                            assertTrue(e.getMessage().contains("index=" + (off + at)), where + ": " + e.getMessage());
                        } else if (isUtf8(text)) {
                            assertDoesNotThrow(() -> BsonValidation.checkString(src, start, len), where);
                        } else {
                            assertThrows(BsonFormatException.class, () -> BsonValidation.checkString(src, start, len), where);
                        }
                    }
                }
            }
        }
    }

    private static boolean isUtf8(final byte[] text) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(text));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /**
     * A run of a value's bytes into a key (a key's NUL changed) crosses the next element's type byte: refused even where a
     * character past ASCII comes first, as a date's bytes may make one (found by the corrupt-input fuzz, seed 12077215).
     */
    @Test
    void refusesAControlCharacterAnywhereInAKey() {
        for (byte control : new byte[]{0x01, 0x11, 0x1F, 0x7F}) {
            for (byte[] before : new byte[][]{{'d', 'a', 't'}, {'d', 'a', 't', (byte) 0xDC, (byte) 0xB0, 'Q', 'Z', 'X'},
                {(byte) 0xE2, (byte) 0x82, (byte) 0xAC}}) {
                byte[] key = new byte[before.length + 1 + 9];
                System.arraycopy(before, 0, key, 0, before.length);
                key[before.length] = control;
                System.arraycopy("timestamp".getBytes(StandardCharsets.US_ASCII), 0, key, before.length + 1, 9);
                String where = "control=" + control + " after " + Arrays.toString(before);
                BsonFormatException e = assertThrows(BsonFormatException.class,
                        () -> BsonValidation.checkKey(key, 0, key.length), where);
                assertTrue(e.getMessage().startsWith("control character in key: index=" + before.length), where + ": "
                        + e.getMessage());
            }
        }
        // past ASCII and valid UTF-8, no control character: a key
        byte[] key = "dat\u0730QZX".getBytes(StandardCharsets.UTF_8);
        BsonValidation.checkKey(key, 0, key.length);
    }
}
