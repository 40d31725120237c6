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

/** A kept string's check: refused exactly where it holds a NUL or is not UTF-8, wherever that byte lies in its words. */
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
}
