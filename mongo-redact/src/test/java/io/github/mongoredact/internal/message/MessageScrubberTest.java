package io.github.mongoredact.internal.message;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MessageScrubberTest {

    @Test
    void removesTheValueOfADuplicateKeyMessage() {
        assertEquals("E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: ? }",
                MessageScrubber.scrub(
                        "E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: \"alice@example.com\" }"));
    }

    @Test
    void removesEveryValueOfACompoundKey() {
        assertEquals("dup key: { tenant: ?, email: ?, card: ? }",
                MessageScrubber.scrub("dup key: { tenant: 42, email: \"a@b.c\", card: { number: \"4111\", exp: [1, 2] } }"));
    }

    @Test
    void replacesQuotedStringsOutsideBraces() {
        assertEquals("cannot convert \"?\" nor '?' to a number",
                MessageScrubber.scrub("cannot convert \"alice, \\\"the\\\" user\" nor 'bob' to a number"));
    }

    @Test
    void keepsMessagesWithoutValues() {
        String message = "Plan executor error during findAndModify :: caused by :: WriteConflict";
        assertEquals(message, MessageScrubber.scrub(message));
    }

    @Test
    void replacesAnUnquotedNumberAfterId() {
        String scrubbed = MessageScrubber.scrub(
                "After applying the update, the (immutable) field '_id' was found to have been altered to _id: 4222222222222222");
        assertEquals("After applying the update, the (immutable) field '_id' was found to have been altered to _id: ?", scrubbed);
    }

    @Test
    void dropsTheRegexPatternAfterNearIndex() {
        assertEquals("Unclosed group near index ?", MessageScrubber.scrub("Unclosed group near index 11 QZXSECRET(("));
        assertEquals("Unknown error: Unclosed group near index ?",
                MessageScrubber.scrub("Unknown error: Unclosed group near index 11\nQZXSECRET(("));
    }

    @Test
    void replacesPlainTextValuesWithoutQuotes() {
        assertEquals("Document failed validation: ?", MessageScrubber.scrub("Document failed validation: QZXSECRET"));
        assertEquals("Authentication failed for ? with ?",
                MessageScrubber.scrub("Authentication failed for QZXalice with QZXpassword1"));
        assertEquals("waiting for replication of ? timed out",
                MessageScrubber.scrub("waiting for replication of QZXSECRET@example.com timed out"));
        assertEquals("?", MessageScrubber.scrub("QZXSECRET"));
    }

    @Test
    void apostropheInProseDoesNotFlipTheQuoteState() {
        String scrubbed = MessageScrubber.scrub("Can't find 'QZXSECRET@example.com' and doesn't retry 'QZXtwo'");
        assertEquals("Can't find '?' and doesn't retry '?'", scrubbed);
        assertFalse(scrubbed.contains("QZX"), scrubbed);
    }

    @Test
    void aDocumentAfterAValueIsAValueWithItsKeys() {
        // only a document that follows server prose has keys that stay; one that follows a value is a value
        assertEquals("Cannot apply $inc to a value of non-numeric type. {_id: ?}? ?",
                MessageScrubber.scrub("Cannot apply $inc to a value of non-numeric type. {_id: QZXa}QZXb {QZXkey: 1}"));
        assertEquals("? ?", MessageScrubber.scrub("QZXfirst {QZXkey: 1}"));
    }

    @Test
    void aDocumentWithAQuoteOutOfPlaceIsOneValue() {
        // a quote inside an unquoted value shifts every later quote: keys after it could be text of a value
        assertEquals("dup key: ?", MessageScrubber.scrub("dup key: { a: \"QZX've', b: \" , QZXkey: \" }"));
        assertEquals("dup key: ? not found", MessageScrubber.scrub("dup key: { a: \"x\" QZXb, QZXkey: 1 } not found"));
        assertEquals("dup key: { a: ?, b: ? }", MessageScrubber.scrub("dup key: { a: ObjectId('QZX'), b: [ \"x\", 1 ] }"));
    }

    @Test
    void keepsPlaceholdersOfRedactedValues() {
        assertEquals("?maxKey", MessageScrubber.scrub("?maxKey"));
        byte[] src = "?javascriptWithScope".getBytes(StandardCharsets.US_ASCII);
        byte[] dst = new byte[MessageScrubber.scrub(src, 0, src.length, null, 0)];
        MessageScrubber.scrub(src, 0, src.length, dst, 0);
        assertEquals("?javascriptWithScope", new String(dst, StandardCharsets.US_ASCII));
        assertEquals("?? ?", MessageScrubber.scrub("?maxKey QZX"));
    }

    @Test
    void aSlashInAValueEndsTheScan() {
        assertEquals("dup key: ?", MessageScrubber.scrub("dup key: { re: /a}, QZXkey: 1 {/, n: 1 } and more"));
    }

    @Test
    void isIdempotent() {
        String once = MessageScrubber.scrub("x: { a: \"secret\", b: ObjectId('5f1d') } and \"more\"");
        assertEquals(once, MessageScrubber.scrub(once));
    }

    @Test
    void dropsTheRestOfAnUnterminatedQuote() {
        assertEquals("value \"?", MessageScrubber.scrub("value \"secret that never ends"));
    }

    @Test
    void replacesNonAsciiWordsAndCountsTheSameBytesItWrites() {
        byte[] src = "Fehler: { name: \"Jürgen 東京\" } in Köln".getBytes(StandardCharsets.UTF_8);
        int size = MessageScrubber.scrub(src, 0, src.length, null, 0);
        byte[] dst = new byte[size + 3];
        int written = MessageScrubber.scrub(src, 0, src.length, dst, 3);
        assertEquals(size, written);
        assertEquals("?: ? in ?", new String(dst, 3, written, StandardCharsets.UTF_8));
    }

    @Test
    void writesAsciiForInvalidUtf8AndControlBytes() {
        byte[] src = {'e', 'r', 'r', 'o', 'r', ' ', (byte) 0xC3, (byte) 0xFF, 'x', ' ', 0, 'y', ' ', 'i', 'n', ' ', (byte) 0x80};
        byte[] dst = new byte[MessageScrubber.scrub(src, 0, src.length, null, 0)];
        MessageScrubber.scrub(src, 0, src.length, dst, 0);
        assertEquals("error ? ? in ?", new String(dst, StandardCharsets.US_ASCII));
    }

    @Test
    void readsOnlyItsOwnRangeOfTheArray() {
        byte[] src = "Can't QZX'abc' done".getBytes(StandardCharsets.US_ASCII);
        // the range starts at the quote: the letter before it is not part of the message
        int from = 9;
        byte[] dst = new byte[MessageScrubber.scrub(src, from, 10, null, 0)];
        MessageScrubber.scrub(src, from, 10, dst, 0);
        assertEquals("'?' done", new String(dst, StandardCharsets.US_ASCII));
    }

    @Test
    void passesNullThroughAndKeepsEmptyEmpty() {
        assertNull(MessageScrubber.scrub(null));
        assertEquals("", MessageScrubber.scrub(""));
        assertEquals(" ", MessageScrubber.scrub(" \t\n "));
    }

    @Test
    void cutsAHugeMessageAtABoundWithAMarker() {
        StringBuilder message = new StringBuilder();
        while (message.length() < 1_000_000) {
            message.append("operation exceeded time limit QZX").append(message.length()).append(' ');
        }
        String scrubbed = MessageScrubber.scrub(message.toString());
        assertTrue(scrubbed.length() <= ServerMessageScanner.OUTPUT_BUDGET + 300, () -> "length=" + scrubbed.length());
        assertTrue(scrubbed.startsWith("operation exceeded time limit ? operation"), scrubbed);
        assertTrue(scrubbed.endsWith(" ..."), scrubbed);
        assertFalse(scrubbed.contains("QZX"), scrubbed);
        assertEquals(scrubbed, MessageScrubber.scrub(scrubbed));
    }

    @Test
    void cutsInsideADocumentByClosingIt() {
        StringBuilder message = new StringBuilder("dup key: { ");
        for (int i = 0; i < 2000; i++) {
            message.append("k").append(i).append(": \"QZX").append(i).append("\", ");
        }
        message.append("last: 1 } and more text");
        String scrubbed = MessageScrubber.scrub(message.toString());
        assertTrue(scrubbed.endsWith("?} ..."), scrubbed);
        assertTrue(scrubbed.length() <= ServerMessageScanner.OUTPUT_BUDGET + 300, () -> "length=" + scrubbed.length());
        assertFalse(scrubbed.contains("QZX"), scrubbed);
        assertEquals(scrubbed, MessageScrubber.scrub(scrubbed));
    }

    @Test
    void aValueLongerThanTheInputBoundIsOneValue() {
        String scrubbed = MessageScrubber.scrub("dup key: { email: \"" + "QZX".repeat(100_000) + "\" } tail");
        assertEquals("dup key: ?", scrubbed);
        assertEquals(scrubbed, MessageScrubber.scrub(scrubbed));
    }

    @Test
    void cutsAtTheInputBoundInTheByteApi() {
        byte[] src = ("error " + "in ".repeat(ServerMessageScanner.MAX_INPUT)).getBytes(StandardCharsets.US_ASCII);
        int size = MessageScrubber.scrub(src, 0, src.length, null, 0);
        byte[] dst = new byte[size];
        assertEquals(size, MessageScrubber.scrub(src, 0, src.length, dst, 0));
        String scrubbed = new String(dst, StandardCharsets.US_ASCII);
        assertTrue(scrubbed.startsWith("error in in "), scrubbed);
        assertTrue(scrubbed.endsWith(" ..."), scrubbed);
    }
}
