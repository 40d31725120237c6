package io.github.mongoredact.internal.walk;

import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFormatException;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The cursor finds where documents and elements end, and refuses what does not hold, saying where. */
class BsonCursorTest {

    @Test
    void readsWhereEachKeyAndValueLie() {
        byte[] src = DriverShapes.encode(new BsonDocument("a", new BsonInt32(7)).append("bb", new BsonString("xy")));
        BsonCursor cursor = new BsonCursor();
        cursor.bind(src, src.length, true);
        int end = cursor.open(0, 0);
        assertEquals(src.length - 1, end);
        cursor.read(4, end);
        assertEquals(0x10, cursor.type);
        assertEquals(5, cursor.key);
        assertEquals(1, cursor.keyLength());
        assertEquals(7, cursor.value);
        assertEquals(11, cursor.valueEnd);
        cursor.read(cursor.valueEnd, end);
        assertEquals(0x02, cursor.type);
        assertEquals(2, cursor.keyLength());
        assertEquals(2, cursor.stringLength());
        assertEquals(end, cursor.valueEnd);
    }

    @Test
    void refusesAControlCharacterInAKeyOnlyWhenStrict() {
        byte[] src = DriverShapes.encode(new BsonDocument("a\u0001", new BsonInt32(7)));
        BsonCursor cursor = new BsonCursor();
        cursor.bind(src, src.length, true);
        int end = cursor.open(0, 0);
        BsonFormatException e = assertThrows(BsonFormatException.class, () -> cursor.read(4, end));
        assertEquals("control character in key: index=6 byte=1", e.getMessage());
        cursor.bind(src, src.length, false);
        cursor.read(4, end);
        assertEquals(2, cursor.keyLength());
    }

    @Test
    void checksAKeyPastAsciiAsUtf8() {
        byte[] src = DriverShapes.encode(new BsonDocument("cl\u00e9", new BsonInt32(7)));
        BsonCursor cursor = new BsonCursor();
        cursor.bind(src, src.length, true);
        int end = cursor.open(0, 0);
        cursor.read(4, end);
        assertEquals(4, cursor.keyLength());
        // an overlong form of 'i' where the first byte of 'é' stands
        src[7] = (byte) 0xC1;
        assertThrows(BsonFormatException.class, () -> cursor.read(4, end));
    }

    @Test
    void refusesADocumentDeeperThanTheCap() {
        byte[] src = DriverShapes.encode(new BsonDocument());
        BsonCursor cursor = new BsonCursor();
        cursor.bind(src, src.length, true);
        assertEquals(4, cursor.open(0, BsonBounds.MAX_DEPTH - 1));
        assertThrows(BsonFormatException.class, () -> cursor.open(0, BsonBounds.MAX_DEPTH));
    }

    @Test
    void refusesADocumentWithoutItsTerminatorOrPastTheSource() {
        byte[] src = DriverShapes.encode(new BsonDocument("a", new BsonInt32(7)));
        BsonCursor cursor = new BsonCursor();
        cursor.bind(src, src.length - 1, true);
        assertThrows(BsonFormatException.class, () -> cursor.open(0, 0));
        src[src.length - 1] = 1;
        cursor.bind(src, src.length, true);
        assertEquals("document does not end with NUL: index=0 length=" + src.length,
                assertThrows(BsonFormatException.class, () -> cursor.open(0, 0)).getMessage());
    }

    @Test
    void refusesAValueThatOverrunsItsDocument() {
        byte[] src = DriverShapes.encode(new BsonDocument("a", new BsonInt32(7)));
        src[4] = 0x12;
        BsonCursor cursor = new BsonCursor();
        cursor.bind(src, src.length, true);
        int end = cursor.open(0, 0);
        assertThrows(BsonFormatException.class, () -> cursor.read(4, end));
    }

    /**
     * The key loop reads eight bytes at a time while they are letters and the like, and takes a word's first NUL as the key's
     * end where no other byte it looks at comes before it: every byte value, at every place of keys of 1 to 20 bytes, with
     * the document's end before, at and after the key's NUL and the bytes after the NUL letters, NULs, 0x01 (which the NUL's
     * borrow flags too), digits or bytes past ASCII, gives what a loop byte by byte gives.
     */
    @Test
    void findsEachKeysEndAsALoopByteByByteDoes() {
        byte[] src = new byte[40];
        for (byte after : new byte[]{'k', 0, 1, '7', (byte) 0x80}) {
            for (int length = 1; length <= 20; length++) {
                for (int at = 0; at < length; at++) {
                    for (int b = 0; b < 256; b++) {
                        java.util.Arrays.fill(src, 0, 2 + length, (byte) 'k');
                        java.util.Arrays.fill(src, 2 + length, src.length, after);
                        src[2 + at] = (byte) b;
                        src[2 + length] = 0;
                        for (int end = 2 + length - 1; end <= 2 + length + 9; end++) {
                            assertEquals(keyEndByteByByte(src, 2, end), BsonCursor.keyEnd(src, 2, end), "length=" + length
                                    + " at=" + at + " byte=" + b + " end=" + end + " after=" + after);
                        }
                    }
                }
            }
        }
    }

    @Test
    void marksTheBytesTheKeyLoopLooksAtOneByOne() {
        for (int b = 0; b < 256; b++) {
            for (int at = 0; at < 8; at++) {
                long w = 0x6161616161616161L & ~(0xFFL << (8 * at)) | ((long) b << (8 * at));
                long expected = b >= 'A' && b <= '~' ? 0 : 0x80L << (8 * at);
                assertEquals(expected, BsonCursor.unplain(w), "byte=" + b + " at=" + at);
            }
        }
    }

    /** The key loop one byte at a time, DEL (0x7F, the MaxKey type byte) a control character: the reference. */
    private static int keyEndByteByByte(final byte[] s, final int k, final int end) {
        boolean suspect = false;
        for (int i = k; i < end; i++) {
            byte b = s[i];
            if (b > '@' && b != 0x7F) {
                continue;
            }
            if (b > 0x1F && b != 0x7F) {
                suspect |= (b >= '0' && b <= '9') || b == '@' || b == ' ';
            } else {
                return b != 0 ? -1 : suspect ? -2 - i : i;
            }
        }
        return -1;
    }
}
