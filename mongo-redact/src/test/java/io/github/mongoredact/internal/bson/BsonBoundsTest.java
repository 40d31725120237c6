package io.github.mongoredact.internal.bson;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The bounds every reader of elements goes through: a C string's end found eight bytes at a time, never past its bound. */
class BsonBoundsTest {

    @Test
    void findsTheNulOfKeysOfEveryLengthAtEveryOffset() {
        for (int length = 0; length < 40; length++) {
            for (int at = 0; at < 9; at++) {
                byte[] src = new byte[at + length + 1 + 9];
                Arrays.fill(src, (byte) 'k');
                src[at + length] = 0;
                assertEquals(at + length, BsonBounds.cstringEnd(src, at, at + length + 1));
                int start = at;
                int end = at + length;
                assertThrows(BsonFormatException.class, () -> BsonBounds.cstringEnd(src, start, end),
                        "length=" + length + " at=" + at);
            }
        }
    }
}
