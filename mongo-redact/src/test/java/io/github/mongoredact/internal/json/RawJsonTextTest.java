package io.github.mongoredact.internal.json;

import io.github.mongoredact.Allocations;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The direct path's text buffer: ASCII runs copied in bulk, escapes, characters past ASCII and past Latin-1, numbers, long
 * names and values that grow the buffer; at every cut, the same text as the driver's reader and writer (which the direct
 * path matched character by character before it wrote bytes).
 */
class RawJsonTextTest {
    private static final String[] SKIPPED = {"lsid", "$db"};

    private static RawBsonDocument raw(final BsonDocument document) {
        return new RawBsonDocument(document, new BsonDocumentCodec());
    }

    /** The direct path writes the document (it holds only types it writes) as the writer does, whole and at every cut. */
    private static void sameAtEveryCut(final RawBsonDocument raw) {
        String whole = TruncatedJson.renderByWriter(raw, 0, SKIPPED);
        assertNotNull(RawJson.render(raw, 0, SKIPPED), "the direct path writes it");
        assertEquals(whole, RawJson.render(raw, 0, SKIPPED));
        for (int limit = 1; limit <= whole.length() + 1; limit++) {
            assertEquals(TruncatedJson.renderByWriter(raw, limit, SKIPPED), RawJson.render(raw, limit, SKIPPED),
                    "limit " + limit + ": " + whole);
        }
    }

    @Test
    void writesAsciiRunsAndEscapesAsTheWriterAtEveryCut() {
        String runs = "abcdefghij\"klmno\\pq\nrs\tuv\u0001wx\u007fyz</script>$.{}[]0123456789" + "\b\f\r";
        RawBsonDocument raw = raw(new BsonDocument("find", new BsonString("users"))
                .append(runs, new BsonString(runs + runs))
                .append("filter", new BsonDocument("plain", new BsonString("?string")).append("\"", new BsonString("\\")))
                .append("$db", new BsonString("test")));
        String text = RawJson.render(raw, 0, SKIPPED);
        String start = "{\"find\": \"users\", \"abcdefghij\\\"klmno\\\\pq\\nrs\\tuv\\u0001wx\\u007fyz</script>$.{}[]0123456789"
                + "\\b\\f\\r\": ";
        assertTrue(text.startsWith(start), text);
        sameAtEveryCut(raw);
    }

    @Test
    void writesMultiByteCharactersAroundTheCutAsTheWriter() {
        // each after a run of ASCII, so that the cut falls before, inside and after its bytes and its escape
        String[] characters = {"é", "ÿ", "\u0085", "€", "日", "\u2028", "\uFEFF", "\uD83D\uDE00", "\uFFFD"};
        for (String c : characters) {
            String text = "abcdef" + c + "gh" + c + c + "ij";
            sameAtEveryCut(raw(new BsonDocument("k" + c, new BsonString(text))
                    .append("array", new BsonArray(Arrays.asList(new BsonString(text), new BsonInt32(7))))));
        }
    }

    @Test
    void writesCharactersPastLatin1AfterALatin1Prefix() {
        // the text is Latin-1 (one byte a character) up to the euro sign, then goes on in chars
        RawBsonDocument raw = raw(new BsonDocument("café", new BsonString("crème brûlée")).append("price",
                new BsonString("3 € 50")).append("after", new BsonInt64(-12)));
        assertEquals("{\"café\": \"crème brûlée\", \"price\": \"3 € 50\", \"after\": -12}", RawJson.render(raw, 0, SKIPPED));
        sameAtEveryCut(raw);
    }

    @Test
    void decodesInvalidUtf8AfterAnAsciiRunAsTheReader() {
        RawBsonDocument valid = raw(new BsonDocument("name", new BsonString("abcdeé€fg")).append("n", new BsonInt32(1)));
        byte[] bytes = valid.getByteBuffer().array().clone();
        byte[] e = "é".getBytes(StandardCharsets.UTF_8);
        byte[] euro = "€".getBytes(StandardCharsets.UTF_8);
        int at = indexOf(bytes, e);
        bytes[at + 1] = 'X'; // a lead byte without its continuation
        int euroAt = indexOf(bytes, euro);
        bytes[euroAt] = (byte) 0xFF; // never valid in UTF-8
        RawBsonDocument invalid = new RawBsonDocument(bytes);
        assertEquals("{\"name\": \"abcde\uFFFDX\uFFFD\uFFFD\uFFFDfg\", \"n\": 1}", RawJson.render(invalid, 0, SKIPPED));
        sameAtEveryCut(invalid);
    }

    @Test
    void writesNumbersAsTheirDecimalText() {
        long[] longs = {0, 1, -1, 9, 10, -10, 99, 100, 999_999_999_999_999_999L, 1_000_000_000_000_000_000L,
                Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
        int[] ints = {0, 7, -7, 2_147_483_647, Integer.MIN_VALUE, Integer.MIN_VALUE + 1, 1_000_000_000, -999_999_999};
        BsonDocument document = new BsonDocument();
        StringBuilder expected = new StringBuilder("{");
        for (int i = 0; i < longs.length; i++) {
            document.append("l" + i, new BsonInt64(longs[i]));
            expected.append(i == 0 ? "" : ", ").append("\"l").append(i).append("\": ").append(longs[i]);
        }
        for (int i = 0; i < ints.length; i++) {
            document.append("i" + i, new BsonInt32(ints[i]));
            expected.append(", \"i").append(i).append("\": ").append(ints[i]);
        }
        RawBsonDocument raw = raw(document);
        assertEquals(expected.append('}').toString(), RawJson.render(raw, 0, SKIPPED));
        sameAtEveryCut(raw);
    }

    @Test
    void growsTheBufferForLongNamesAndValuesAndStartsEmptyAfterwards() {
        char[] name = new char[3 * JsonTextBuffer.RETAINED];
        Arrays.fill(name, 'n');
        name[name.length / 2] = '"';
        char[] value = new char[2 * JsonTextBuffer.RETAINED];
        Arrays.fill(value, 'v');
        value[value.length - 3] = '\u00e9';
        value[value.length - 2] = '\u65e5';
        RawBsonDocument raw = raw(new BsonDocument(new String(name), new BsonString(new String(value)))
                .append("oid", new BsonObjectId(new ObjectId("5f0a0b0c0d0e0f1011121314"))));
        String whole = TruncatedJson.renderByWriter(raw, 0, SKIPPED);
        assertEquals(whole, RawJson.render(raw, 0, SKIPPED));
        for (int limit : new int[]{1, 255, 256, 257, JsonTextBuffer.RETAINED, 3 * JsonTextBuffer.RETAINED + 3,
                whole.length() - 40, whole.length() - 1, whole.length()}) {
            assertEquals(TruncatedJson.renderByWriter(raw, limit, SKIPPED), RawJson.render(raw, limit, SKIPPED),
                    "limit " + limit);
        }
        // the same thread's next render starts from an empty buffer
        RawBsonDocument small = raw(new BsonDocument("find", new BsonString("c")));
        assertEquals("{\"find\": \"c\"}", RawJson.render(small, 0, SKIPPED));
    }

    @Test
    void copiesTheTextOfAnArraysElementRepeatedAsTheWriterWritesIt() {
        BsonDocument placeholders = new BsonDocument("_id", new BsonString("?objectId")).append("name",
                new BsonString("?string")).append("tags", new BsonArray(Arrays.asList(new BsonString("?string"),
                new BsonDocument("k", new BsonString("?number")), new BsonDocument("k", new BsonString("?number")))));
        BsonArray documents = new BsonArray();
        for (int i = 0; i < 6; i++) {
            documents.add(placeholders.clone());
        }
        // the same length and names, one byte apart: written, not copied
        documents.add(new BsonDocument("_id", new BsonString("?objectId")).append("name", new BsonString("?strinG"))
                .append("tags", placeholders.getArray("tags").clone()));
        documents.add(placeholders.clone());
        // text past Latin-1 in the repeated element, and arrays of arrays repeated
        documents.add(new BsonDocument("€", new BsonString("日本")));
        documents.add(new BsonDocument("€", new BsonString("日本")));
        documents.add(new BsonArray(Arrays.asList(new BsonArray(), new BsonArray())));
        documents.add(new BsonArray(Arrays.asList(new BsonArray(), new BsonArray())));
        documents.add(new BsonInt32(1));
        documents.add(new BsonArray(Arrays.asList(new BsonArray(), new BsonArray())));
        RawBsonDocument raw = raw(new BsonDocument("insert", new BsonString("users")).append("documents", documents)
                .append("$db", new BsonString("test")));
        String text = RawJson.render(raw, 0, SKIPPED);
        String one = "{\"_id\": \"?objectId\", \"name\": \"?string\", \"tags\": [\"?string\", {\"k\": \"?number\"}, "
                + "{\"k\": \"?number\"}]}";
        assertTrue(text.startsWith("{\"insert\": \"users\", \"documents\": [" + one + ", " + one + ", " + one + ", "), text);
        assertTrue(text.endsWith(", {\"€\": \"日本\"}, {\"€\": \"日本\"}, [[], []], [[], []], 1, [[], []]]}"), text);
        sameAtEveryCut(raw);
    }

    @Test
    void aDocumentAndAnArrayOfTheSameBytesInARowKeepTheirOwnBrackets() {
        // {} and [] are the same five bytes, as are {"0": 1} and [1]: only the element's type tells them apart
        BsonArray values = new BsonArray(Arrays.asList(new BsonDocument(), new BsonArray(), new BsonArray(),
                new BsonDocument(), new BsonDocument("0", new BsonInt32(1)), new BsonArray(Arrays.asList(new BsonInt32(1))),
                new BsonArray(Arrays.asList(new BsonInt32(1))), new BsonDocument("0", new BsonInt32(1))));
        RawBsonDocument raw = raw(new BsonDocument("find", new BsonString("c")).append("filter",
                new BsonDocument("$in", values)));
        String text = RawJson.render(raw, 0, SKIPPED);
        assertEquals("{\"find\": \"c\", \"filter\": {\"$in\": [{}, [], [], {}, {\"0\": 1}, [1], [1], {\"0\": 1}]}}", text);
        assertEquals(TruncatedJson.renderByWriter(raw, 0, SKIPPED), text);
        sameAtEveryCut(raw);
    }

    @Test
    void allocatesOnlyTheTextItReturns() {
        BsonArray documents = new BsonArray();
        for (int i = 0; i < 1000; i++) {
            documents.add(new BsonDocument("_id", new BsonObjectId(new ObjectId())).append("name", new BsonString("?string"))
                    .append("n", new BsonInt32(i)));
        }
        RawBsonDocument raw = raw(new BsonDocument("insert", new BsonString("users")).append("documents", documents)
                .append("$db", new BsonString("test")));
        int limit = 32 * 1024;
        String text = TruncatedJson.render(raw, limit, SKIPPED);
        assertEquals(limit + TruncatedJson.ELLIPSIS.length(), text.length());
        double bytes = Allocations.perRun(20, () -> TruncatedJson.render(raw, limit, SKIPPED));
        // the String and its Latin-1 array (header, length, padding): the buffer and the walk's frames are reused
        long textBytes = 24 + 16 + text.length() + 8;
        System.out.println("rendering 1000 documents at 32 KiB allocated " + bytes + " bytes per render, its text "
                + textBytes);
        assertTrue(bytes <= textBytes + 64, "allocated " + bytes + " bytes; the text takes " + textBytes);
    }

    private static int indexOf(final byte[] bytes, final byte[] part) {
        for (int i = 0; i + part.length <= bytes.length; i++) {
            if (Arrays.equals(Arrays.copyOfRange(bytes, i, i + part.length), part)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }
}
