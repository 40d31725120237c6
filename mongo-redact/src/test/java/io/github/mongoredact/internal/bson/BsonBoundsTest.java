package io.github.mongoredact.internal.bson;

import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDbPointer;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonJavaScript;
import org.bson.BsonJavaScriptWithScope;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonSymbol;
import org.bson.BsonTimestamp;
import org.bson.BsonUndefined;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void findsTheEndOfAValueOfEveryTypeAndRefusesOthersAndOverruns() {
        BsonValue[] values = {new BsonDouble(1.5), new BsonString("abc"), new BsonDocument("a", new BsonInt32(1)),
            new BsonArray(Arrays.asList(new BsonInt32(1), new BsonString("x"))), new BsonBinary(new byte[]{1, 2, 3}),
            new BsonBinary((byte) 2, new byte[]{1, 2}), new BsonUndefined(), new BsonObjectId(new ObjectId()), BsonBoolean.TRUE,
            new BsonDateTime(5), new BsonNull(), new BsonRegularExpression("a.*b", "i"),
            new BsonDbPointer("db.c", new ObjectId()), new BsonJavaScript("f()"), new BsonSymbol("sym"),
            new BsonJavaScriptWithScope("g()", new BsonDocument("s", new BsonInt32(2))), new BsonInt32(7),
            new BsonTimestamp(1, 2), new BsonInt64(8), new BsonDecimal128(Decimal128.parse("1.25")), new BsonMinKey(),
            new BsonMaxKey()};
        Set<Integer> known = new HashSet<>();
        for (BsonValue value : values) {
            // {k: value, z: 1}: the value ends where the next element's type is
            ByteBuffer buffer = new RawBsonDocument(new BsonDocument("k", value).append("z", new BsonInt32(1)),
                    new BsonDocumentCodec()).getByteBuffer().asNIO();
            byte[] src = new byte[buffer.remaining()];
            buffer.get(src);
            byte type = src[4];
            known.add(type & 0xff);
            int v = 4 + 1 + 2;
            int next = src.length - 1 - (1 + 2 + 4);
            assertEquals(next, BsonBounds.valueEnd(src, type, v, src.length - 1), value.getBsonType().name());
            // the same value cut short by its document's end
            assertThrows(BsonFormatException.class, () -> BsonBounds.valueEnd(src, type, v, next - 1),
                    value.getBsonType().name());
        }
        assertEquals(21, known.size(), "every BSON type but the old binary subtype's once: " + known);
        byte[] src = new byte[32];
        for (int type = 0; type < 256; type++) {
            if (!known.contains(type)) {
                byte unknown = (byte) type;
                BsonFormatException e = assertThrows(BsonFormatException.class,
                        () -> BsonBounds.valueEnd(src, unknown, 8, 30));
                assertTrue(e.getMessage().contains("unknown BSON type 0x" + Integer.toHexString(type)), e.getMessage());
            }
        }
    }
}
