package io.github.mongoredact.internal.bson;

import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plain top level as {@link SequenceViews#sizeAndWrite} writes it while sizing it: scalars are written without being sized
 * first where the room holds the most they can take, every other value sized first; the bytes and the size are the encoder's
 * at every room, and the top level counts as written only where all of it fitted.
 */
class SequenceViewsTest {

    @Test
    void topLevelWrittenWhileSizedIsTheEncodersBytesAtEveryRoom() {
        BsonDocument top = new BsonDocument("insert", new BsonString("orders"))
                .append("ordered", BsonBoolean.TRUE)
                .append("n", new BsonInt32(-7))
                .append("txnNumber", new BsonInt64(1L << 40))
                .append("ratio", new BsonDouble(0.25))
                .append("at", new BsonDateTime(1_700_000_000_000L))
                .append("ts", new BsonTimestamp(1_700_000_000, 3))
                .append("nothing", BsonNull.VALUE)
                .append("oid", new BsonObjectId(new ObjectId("65a1b2c3d4e5f60718293a4b")))
                .append("dec", new BsonDecimal128(Decimal128.parse("1.5")))
                .append("bin", new BsonBinary(new byte[]{1, 2, 3}))
                .append("lsid", new BsonDocument("id", new BsonBinary(new byte[16])))
                .append("clé", new BsonString("grüße \uD83D\uDE00 \uD800 fin"))
                // three bytes a character: at the bound
                .append("euro", new BsonString("\u20AC".repeat(40)))
                .append("$db", new BsonString("shop"));
        BsonDocument withSequence = top.clone().append("documents", new BsonArray(Arrays.asList(
                raw(new BsonDocument("a", new BsonInt32(1))), raw(new BsonDocument("b", new BsonString("x"))))));
        byte[] expected = encoded(top.clone().append("documents", new BsonArray()));
        for (int room = 0; room <= expected.length + 8; room++) {
            SequenceViews views = new SequenceViews();
            byte[] dst = new byte[room];
            int size = views.sizeAndWrite(withSequence, new PlainEncoder(), dst, 0);
            assertEquals(expected.length, size, "room=" + room);
            // written where the room holds the whole top level, its terminator included
            assertEquals(room >= expected.length, views.written(), "room=" + room);
            if (views.written()) {
                assertArrayEquals(expected, Arrays.copyOf(dst, size), "room=" + room);
            }
            assertEquals(1, views.sequences());
            assertEquals(2, views.end(0) - views.first(0));
        }
    }

    @Test
    void aScalarThatFitsOnlyByItsExactSizeIsWrittenAfterBeingSized() {
        // three bytes a character at most: the bound of a 100-character ASCII string is far above its 100 bytes
        BsonDocument top = new BsonDocument("comment", new BsonString("c".repeat(100)));
        byte[] expected = encoded(top);
        SequenceViews views = new SequenceViews();
        byte[] dst = new byte[expected.length + 1];
        assertEquals(expected.length, views.sizeAndWrite(top, new PlainEncoder(), dst, 0));
        assertTrue(views.written());
        assertArrayEquals(expected, Arrays.copyOf(dst, expected.length));
        assertFalse(new SequenceViews().sizeAndWrite(top, new PlainEncoder(), new byte[expected.length], 0) < 0);
    }

    private static RawBsonDocument raw(final BsonDocument document) {
        return new RawBsonDocument(document, new BsonDocumentCodec());
    }

    private static byte[] encoded(final BsonDocument document) {
        RawBsonDocument raw = new RawBsonDocument(document, new BsonDocumentCodec());
        return Arrays.copyOf(raw.getByteBuffer().array(), raw.getByteBuffer().remaining());
    }
}
