package io.github.mongoredact.internal.json;

import io.github.mongoredact.Documents;
import io.github.mongoredact.internal.bson.BsonBounds;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The direct path writes what the driver's writer writes, cut or whole, on every driver line the suite runs on. */
class RawJsonTest {
    private static final String[] SKIPPED = {"lsid", "$db"};

    @Test
    void isInUseOnThisDriverLine() {
        assertTrue(RawJson.ENABLED, "the direct path writes what this line's writer writes: " + RawJson.difference());
    }

    @Test
    void writesWhatTheDriversWriterWritesAtEveryLimit() {
        Random random = new Random(0x15EED);
        for (int n = 0; n < 300; n++) {
            BsonDocument document = document(random, 0);
            document.append("lsid", new BsonDocument("id", new BsonInt32(1))).append("$db", new BsonString("test"));
            RawBsonDocument raw = new RawBsonDocument(document, new BsonDocumentCodec());
            String whole = TruncatedJson.renderByWriter(raw, 0, SKIPPED);
            assertEquals(whole, TruncatedJson.render(raw, 0, SKIPPED), document.toJson());
            for (int limit : new int[]{1, 2, 7, random.nextInt(whole.length() + 2) + 1, whole.length() - 1, whole.length(),
                    whole.length() + 1}) {
                if (limit > 0) {
                    assertEquals(TruncatedJson.renderByWriter(raw, limit, SKIPPED), TruncatedJson.render(raw, limit, SKIPPED),
                            "limit " + limit + ": " + whole);
                }
            }
        }
    }

    @Test
    void leavesTypesItDoesNotWriteToTheDriversWriter() {
        BsonDocument document = new BsonDocument("insert", new BsonString("c")).append("documents", new BsonArray(
                java.util.Arrays.asList(new BsonDocument("x", new BsonDouble(1.5)).append("t", new BsonDateTime(0)))));
        RawBsonDocument raw = new RawBsonDocument(document, new BsonDocumentCodec());
        String[] none = {};
        assertEquals(null, RawJson.render(raw, 0, none));
        assertEquals(TruncatedJson.renderByWriter(raw, 0, none), TruncatedJson.render(raw, 0, none));
    }

    /**
     * The contract with the caller: bytes that do not add up make the direct path return null, never throw, so that the
     * driver's writer renders them or reports them; where the direct path writes a text, the writer writes the same one. Every
     * byte of random documents (lengths, type bytes, names, booleans, terminators) changed one at a time, and lengths off by
     * a few.
     */
    @Test
    void returnsNullWhereTheBytesDoNotAddUpAndTheWritersTextOtherwise() {
        Random random = new Random(0xC0FFEE);
        String[] none = {};
        int direct = 0;
        int refused = 0;
        for (int n = 0; n < 200; n++) {
            BsonDocument document = document(random, 0);
            byte[] bytes = new RawBsonDocument(document, new BsonDocumentCodec()).getByteBuffer().array().clone();
            for (int i = 0; i < bytes.length; i++) {
                byte[] changed = bytes.clone();
                changed[i] = (byte) (i % 4 == 0 ? changed[i] + 1 + random.nextInt(3) : random.nextInt(256));
                RawBsonDocument raw = new RawBsonDocument(changed);
                int limit = random.nextBoolean() ? 0 : 1 + random.nextInt(200);
                String text = RawJson.render(raw, limit, none);
                if (text == null) {
                    refused++;
                    continue;
                }
                direct++;
                String byWriter;
                try {
                    byWriter = TruncatedJson.renderByWriter(raw, limit, none);
                } catch (RuntimeException e) {
                    byWriter = "the writer refuses them: " + e;
                }
                assertEquals(byWriter, text, "byte " + i + " set to " + changed[i] + ", limit " + limit + ", of "
                        + document.toJson());
            }
        }
        assertTrue(direct > 1000 && refused > 1000, "direct " + direct + ", refused " + refused);
    }

    /** Every document a copy can hold is written directly; one level more is the driver's writer's to refuse. */
    @Test
    void writesTheDeepestCopyAndLeavesDeeperDocumentsToTheWriter() {
        int levels = BsonBounds.MAX_DEPTH;
        StringBuilder expected = new StringBuilder("{");
        for (int i = 1; i < levels; i++) {
            expected.append(i % 2 == 0 ? "\"a\": {" : "\"b\": {");
        }
        expected.append("\"leaf\": 1").append("}".repeat(levels));
        String[] none = {};
        assertEquals(expected.toString(), RawJson.render(Documents.deep(levels), 0, none));
        assertEquals(expected.substring(0, 100) + TruncatedJson.ELLIPSIS, RawJson.render(Documents.deep(levels), 100, none));
        assertEquals(null, RawJson.render(Documents.deep(levels + 1), 0, none));
    }

    private static BsonDocument document(final Random random, final int depth) {
        BsonDocument document = new BsonDocument();
        int fields = random.nextInt(6);
        for (int i = 0; i < fields; i++) {
            document.append(text(random, 1 + random.nextInt(8)), value(random, depth));
        }
        return document;
    }

    private static BsonValue value(final Random random, final int depth) {
        switch (random.nextInt(depth > 4 ? 7 : 9)) {
            case 0:
                return new BsonString(text(random, random.nextInt(40)));
            case 1:
                return new BsonInt32(random.nextInt());
            case 2:
                return new BsonInt64(random.nextLong());
            case 3:
                return BsonBoolean.valueOf(random.nextBoolean());
            case 4:
                return BsonNull.VALUE;
            case 5:
                return new BsonObjectId(new ObjectId());
            case 6:
                return new BsonString("?string");
            case 7:
                return document(random, depth + 1);
            default:
                BsonArray array = new BsonArray();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(value(random, depth + 1));
                }
                return array;
        }
    }

    /** Text from every class of character: ASCII, escapes, controls, accents, CJK, emoji (surrogate pairs). */
    private static String text(final Random random, final int length) {
        StringBuilder text = new StringBuilder();
        String[] pieces = {"a", "Z", "0", " ", "\"", "\\", "\n", "\t", "\u0001", "\u007f", "é", "€", "日", "\uD83D\uDE00",
                "\u2028", "\uFEFF", "/", "<", "$", "."};
        for (int i = 0; i < length; i++) {
            text.append(pieces[random.nextInt(pieces.length)]);
        }
        return text.toString();
    }
}
