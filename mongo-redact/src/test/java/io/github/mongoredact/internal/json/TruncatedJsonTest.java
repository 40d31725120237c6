package io.github.mongoredact.internal.json;

import io.github.mongoredact.Allocations;
import io.github.mongoredact.Events;
import io.github.mongoredact.Json;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TruncatedJsonTest {

    private static RawBsonDocument raw(final BsonDocument document) {
        return new RawBsonDocument(document, new BsonDocumentCodec());
    }

    private static String repeat(final String s, final int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(s);
        }
        return b.toString();
    }

    @Test
    void rendersWholeDocumentsLikeTheDriver() {
        RawBsonDocument document = Events.raw("{\"find\": \"users\", \"filter\": {\"age\": {\"$gt\": 3}, \"d\": {\"$date\":"
                + " \"2024-01-02T03:04:05.678Z\"}, \"o\": {\"$oid\": \"5f0000000000000000000001\"}, \"l\": {\"$numberLong\":"
                + " \"12345678901\"}, \"x\": 1.5, \"b\": {\"$binary\": {\"base64\": \"AQID\", \"subType\": \"00\"}}},"
                + " \"limit\": 1}");
        assertEquals(Json.whole(document), TruncatedJson.render(document, 0));
        assertEquals(Json.driverLog(document, 1000), TruncatedJson.render(document, 1000));
    }

    @Test
    void cutsWhereTheDriverCutsAtEveryLengthKeepingCharactersWhole() {
        BsonDocument document = new BsonDocument("insert", new BsonString("users"))
                .append("s", new BsonString("plain ascii \"quoted\" \\ back\tslash " + repeat("x", 200)))
                .append("u", new BsonString(repeat("é€日", 50)))
                .append("e", new BsonString(repeat("😀a", 20)))
                .append("bin", new BsonBinary(new byte[300]))
                .append("code", new org.bson.BsonJavaScript(repeat("f();", 80)));
        RawBsonDocument raw = raw(document);
        String whole = Json.whole(raw);
        int shorter = 0;
        for (int max = 1; max <= whole.length() + 2; max++) {
            String driver = Json.driverLog(raw, max);
            String rendered = TruncatedJson.render(raw, max);
            if (max >= whole.length()) {
                // the driver appends " ..." at exactly its length; the specification cuts only longer texts
                assertEquals(whole, rendered, "max=" + max);
                continue;
            }
            if (!driver.endsWith(" ...")) {
                assertEquals(driver, rendered, "max=" + max);
                continue;
            }
            String expected = Json.wholeCharacters(whole, max) + " ...";
            assertEquals(expected, rendered, "max=" + max);
            if (!expected.equals(driver)) {
                shorter++;
                assertTrue(driver.length() - expected.length() <= 11, "max=" + max);
            }
        }
        assertTrue(shorter > 20, "the document has escapes to cut inside: " + shorter);
    }

    @Test
    void neverSplitsASurrogatePairAtTheCut() {
        RawBsonDocument raw = raw(new BsonDocument("find", new BsonString("😀é😀€😀" + repeat("😀", 40))));
        String whole = Json.whole(raw);
        assertTrue(whole.contains("\\ud83d\\ude00"), "the driver escapes pairs: " + whole);
        for (int max = 1; max < whole.length(); max++) {
            String rendered = TruncatedJson.render(raw, max);
            assertTrue(rendered.endsWith(" ..."), rendered);
            String shown = rendered.substring(0, rendered.length() - 4);
            assertTrue(whole.startsWith(shown), "max=" + max);
            assertEquals(Json.wholeCharacters(whole, max), shown, "max=" + max);
            int escapes = shown.lastIndexOf("\\u");
            if (escapes >= 0) {
                assertTrue(shown.length() - escapes >= 6, "no partial escape at max=" + max + ": " + shown);
                char last = (char) Integer.parseInt(shown.substring(escapes + 2, escapes + 6), 16);
                assertFalse(Character.isHighSurrogate(last), "no lone high surrogate at max=" + max + ": " + shown);
            }
        }
    }

    @Test
    void neverLeavesARawHalfPair() {
        TruncatedJson.Output out = new TruncatedJson.Output(16);
        out.write("{\"a\": \"x\ud83d");
        out.dropPartialCharacter();
        assertEquals("{\"a\": \"x", out.builder.toString());
    }

    @Test
    void keepsMultiByteCharactersWholeAtTheCut() {
        RawBsonDocument raw = raw(new BsonDocument("find", new BsonString(repeat("é€日", 30))));
        String whole = Json.whole(raw);
        for (int max = 1; max < 60; max++) {
            String shown = TruncatedJson.render(raw, max);
            shown = shown.substring(0, shown.length() - 4);
            assertEquals(max, shown.length());
            assertTrue(whole.startsWith(shown));
            byte[] utf8 = shown.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(shown, new String(utf8, java.nio.charset.StandardCharsets.UTF_8), "whole characters in UTF-8");
        }
    }

    @Test
    void worksInProportionToTheLimitNotToTheDocument() {
        char[] chars = new char[8 * 1024 * 1024];
        Arrays.fill(chars, 'a');
        BsonDocument big = new BsonDocument("insert", new BsonString("users"))
                .append("payload", new BsonString(new String(chars)))
                .append("blob", new BsonBinary(new byte[4 * 1024 * 1024]));
        RawBsonDocument bigString = raw(big);
        BsonDocument many = new BsonDocument("insert", new BsonString("users"));
        for (int i = 0; i < 100_000; i++) {
            many.append("k" + i, new BsonString("v"));
        }
        RawBsonDocument manyFields = raw(many);
        RawBsonDocument bigBlob = raw(new BsonDocument("insert", new BsonString("users"))
                .append("blob", new BsonBinary(new byte[4 * 1024 * 1024])));
        double driverBytes = Allocations.perRun(2, () -> Json.driverLog(bigString, 1000));
        assertTrue(driverBytes > 8 * 1024 * 1024, "a reader that decodes whole values allocates the 8 MB string: " + driverBytes);
        for (RawBsonDocument document : new RawBsonDocument[]{bigString, manyFields, bigBlob}) {
            assertEquals(Json.driverLog(document, 1000), TruncatedJson.render(document, 1000));
            double bytes = Allocations.perRun(20, () -> TruncatedJson.render(document, 1000));
            assertTrue(bytes < 64 * 1024, "rendering 1000 characters of a " + document.getByteBuffer().remaining()
                    + "-byte document allocated " + bytes + " bytes");
        }
    }
}
