package io.github.mongoredact.internal.bson;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The word operations the searches for a NUL rest on. */
class BytesTest {

    @Test
    void flagsTheLowestZeroByteOfAWordExactly() {
        for (int b = 0; b < 256; b++) {
            for (int at = 0; at < 8; at++) {
                // letters below the zero byte, the byte b everywhere above it (0x01 is flagged too, through the borrow)
                long w = 0;
                for (int i = 0; i < 8; i++) {
                    w |= (long) (i < at ? 'a' : i == at ? 0 : b) << (8 * i);
                }
                long zero = Bytes.zeroBytes(w);
                assertEquals(0x80L << (8 * at), zero & -zero, "byte=" + b + " at=" + at);
            }
        }
        assertEquals(0, Bytes.zeroBytes(0x6161616161616161L));
        assertEquals(0, Bytes.zeroBytes(0xFF80017F20410901L));
    }
}
