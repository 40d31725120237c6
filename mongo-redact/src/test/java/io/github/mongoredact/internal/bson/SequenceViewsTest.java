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

/**
 * The plain top level as {@link SequenceViews#place} encodes it: the encoder's bytes with each sequence as an empty array,
 * whatever the room its scratch starts with, each sequence's documents reached where they lie.
 */
class SequenceViewsTest {

    @Test
    void topLevelIsTheEncodersBytesWithEachSequenceAsAnEmptyArray() {
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
                // three bytes a character: a string of 40 takes 120
                .append("euro", new BsonString("\u20AC".repeat(40)))
                .append("comment", new BsonString("c".repeat(700)))
                .append("$db", new BsonString("shop"));
        BsonDocument withSequence = top.clone().append("documents", new BsonArray(Arrays.asList(
                raw(new BsonDocument("a", new BsonInt32(1))), raw(new BsonDocument("b", new BsonString("x"))))));
        byte[] expected = encoded(top.clone().append("documents", new BsonArray()));
        for (int repeat = 0; repeat < 3; repeat++) {
            // a fresh scratch grows past its first room (512 bytes); a used one holds the top level at once
            Workspace.Scratch input = new Workspace.Scratch();
            SequenceViews views = new SequenceViews();
            for (int call = 0; call < 2; call++) {
                int size = views.place(withSequence, new PlainEncoder(), input, new Workspace.Scratch());
                assertEquals(expected.length, size);
                assertArrayEquals(expected, Arrays.copyOf(views.placed(), size), "call=" + call);
                assertEquals(1, views.sequences());
                assertEquals(2, views.end(0) - views.first(0));
                assertEquals(expected.length + 2 * (2 + 1) + encoded(new BsonDocument("a", new BsonInt32(1))).length
                        + encoded(new BsonDocument("b", new BsonString("x"))).length, views.inputLength(size));
                views.clear();
                input.release();
            }
        }
    }

    private static RawBsonDocument raw(final BsonDocument document) {
        return new RawBsonDocument(document, new BsonDocumentCodec());
    }

    private static byte[] encoded(final BsonDocument document) {
        RawBsonDocument raw = new RawBsonDocument(document, new BsonDocumentCodec());
        return Arrays.copyOf(raw.getByteBuffer().array(), raw.getByteBuffer().remaining());
    }
}
