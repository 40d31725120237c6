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
}
