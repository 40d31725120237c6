package io.github.mongoredact.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
    void isIdempotent() {
        String once = MessageScrubber.scrub("x: { a: \"secret\", b: ObjectId('5f1d') } and \"more\"");
        assertEquals(once, MessageScrubber.scrub(once));
    }

    @Test
    void dropsTheRestOfAnUnterminatedQuote() {
        assertEquals("value \"?", MessageScrubber.scrub("value \"secret that never ends"));
    }

    @Test
    void keepsMultiByteTextAndCountsTheSameBytesItWrites() {
        byte[] src = "Fehler: { name: \"Jürgen 東京\" } in Köln".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int size = MessageScrubber.scrub(src, 0, src.length, null, 0);
        byte[] dst = new byte[size + 3];
        int written = MessageScrubber.scrub(src, 0, src.length, dst, 3);
        assertEquals(size, written);
        assertEquals("Fehler: { name: ? } in Köln",
                new String(dst, 3, written, java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void passesNullThrough() {
        assertEquals(null, MessageScrubber.scrub(null));
    }
}
