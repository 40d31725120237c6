package io.github.mongoredact.internal.message;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Plants random secrets into server message templates, each rendered the way the server renders a value there: {@code D}
 * inside double quotes with {@code "} and {@code \} escaped (as mongod and the embedded server print strings), {@code S}
 * inside single quotes unescaped (field and command names), {@code U} unquoted (numbers, ids, plain text, a regular
 * expression's pattern). No planted secret of three or more characters that holds a letter, digit or non-ASCII character
 * may survive, unless the same text is part of what the template alone scrubs to (a coincidence with the server's
 * wording, not a leak).
 */
class MessageScrubberRandomTest {
    private static final String[] TEMPLATES = {
        "E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: \"D\" }",
        "E11000 duplicate key error collection: shop.users index: a_1_b_1 dup key: { a: U, b: \"D\" }",
        "E11000 duplicate key error collection: shop.users index: _id_ dup key: { _id: ObjectId('S') }",
        "E11000 duplicate key error index: test.c.$a_1 dup key: { : \"D\", : U }",
        "Plan executor error during findAndModify :: caused by :: E11000 duplicate key error collection: db.c index: k_1"
                + " dup key: { k: \"D\" }",
        "After applying the update, the (immutable) field '_id' was found to have been altered to _id: U",
        "Performing an update on the path 'S' would modify the immutable field 'S'",
        "Cannot apply $inc to a value of non-numeric type. {_id: U} has the field 'S' of non-numeric type string",
        "Unknown error: Unclosed group near index 11\nU",
        "Dangling meta character '*' near index 0\nU\n^",
        "Document failed validation: U",
        "U",
        "waiting for replication of U timed out",
        "Can't find 'S' and won't use U",
        "can't compare U with 'S', it doesn't matter",
        "no such command: 'S'",
        "Unrecognized pipeline stage name: 'S'",
        "unknown operator: U",
        "Cursor not found (namespace: 'S', id: U).",
        "cursor id U not found",
        "not authorized on U to execute command { find: \"D\", filter: { email: \"D\" } }",
        "Failed to parse number 'S' in $convert with no onError value.",
        "Write concern error: U; Error details: { w: U, wtimeout: U }",
    };
    private static final String[] UNICODE = {"é", "東京", "Ä", "ß", "\uD83D\uDE00", "ж", "\u00A0", "\u2019"};
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

    @Test
    void noPlantedSecretSurvives() {
        Random random = new Random(20240610L);
        int checked = 0;
        for (int run = 0; run < 20_000; run++) {
            String template = TEMPLATES[random.nextInt(TEMPLATES.length)];
            List<String> secrets = new ArrayList<>();
            StringBuilder message = new StringBuilder();
            for (int k = 0; k < template.length(); k++) {
                char c = template.charAt(k);
                boolean slot = (c == 'D' || c == 'S' || c == 'U') && isSlot(template, k);
                if (!slot) {
                    message.append(c);
                    continue;
                }
                String secret = secret(random, c != 'U');
                secrets.add(secret);
                message.append(c == 'D' ? secret.replace("\\", "\\\\").replace("\"", "\\\"") : secret);
            }
            String scrubbed = MessageScrubber.scrub(message.toString());
            String skeleton = MessageScrubber.scrub(fill(template));
            for (String secret : secrets) {
                if (secret.length() >= 3 && holdsAValue(secret) && !skeleton.contains(secret)) {
                    checked++;
                    assertTrue(!scrubbed.contains(secret), () -> "secret [" + secret + "] survived: " + message + " -> "
                            + scrubbed);
                }
            }
            assertEquals(scrubbed, MessageScrubber.scrub(scrubbed), message::toString);
            assertTrue(scrubbed.chars().allMatch(ch -> ch < 0x80), scrubbed);
            byte[] bytes = message.toString().getBytes(StandardCharsets.UTF_8);
            assertEquals(scrubbed.length(), MessageScrubber.scrub(bytes, 0, bytes.length, null, 0));
        }
        assertTrue(checked > 20_000, "checked=" + checked);
    }

    /** Punctuation and spaces alone are structure, which stays: a secret made only of them is not checked. */
    private static boolean holdsAValue(final String secret) {
        return secret.chars().anyMatch(c -> Character.isLetterOrDigit(c) || c >= 0x80);
    }

    /** A slot is a lone {@code D}, {@code S} or {@code U}, not a letter of a word. */
    private static boolean isSlot(final String template, final int k) {
        boolean before = k > 0 && Character.isLetterOrDigit(template.charAt(k - 1));
        boolean after = k + 1 < template.length() && Character.isLetterOrDigit(template.charAt(k + 1));
        return !before && !after;
    }

    private static String fill(final String template) {
        StringBuilder filled = new StringBuilder();
        for (int k = 0; k < template.length(); k++) {
            char c = template.charAt(k);
            filled.append((c == 'D' || c == 'S' || c == 'U') && isSlot(template, k) ? "0" : String.valueOf(c));
        }
        return filled.toString();
    }

    /**
     * Chunks of letters, digits, e-mail addresses, unicode, quotes, apostrophes, braces and spaces; quoted slots also get
     * {@code : , \}, which an unquoted value never holds as the server prints it (a string is printed quoted).
     */
    private static String secret(final Random random, final boolean quoted) {
        StringBuilder secret = new StringBuilder();
        int chunks = 1 + random.nextInt(4);
        for (int n = 0; n < chunks; n++) {
            switch (random.nextInt(quoted ? 10 : 8)) {
                case 0:
                    secret.append(word(random));
                    break;
                case 1:
                    secret.append(1 + random.nextInt(Integer.MAX_VALUE));
                    break;
                case 2:
                    secret.append(word(random)).append('@').append(word(random)).append(".example.com");
                    break;
                case 3:
                    secret.append(UNICODE[random.nextInt(UNICODE.length)]).append(word(random));
                    break;
                case 4:
                    secret.append(random.nextBoolean() ? '"' : '\'');
                    break;
                case 5:
                    secret.append(word(random)).append('\'').append(word(random));
                    break;
                case 6:
                    secret.append(random.nextBoolean() ? '{' : '}');
                    break;
                case 7:
                    secret.append(' ');
                    break;
                case 8:
                    secret.append(random.nextBoolean() ? ": " : ", ");
                    break;
                default:
                    secret.append('\\');
                    break;
            }
        }
        return secret.toString();
    }

    /** A random word that is not one of the server's words (those stay by design wherever they stand). */
    private static String word(final Random random) {
        while (true) {
            int length = 1 + random.nextInt(8);
            StringBuilder word = new StringBuilder();
            for (int k = 0; k < length; k++) {
                word.append(LETTERS.charAt(random.nextInt(LETTERS.length())));
            }
            byte[] bytes = word.toString().getBytes(StandardCharsets.US_ASCII);
            if (ServerMessageVocabulary.classify(bytes, 0, bytes.length) == ServerMessageVocabulary.NONE) {
                return word.toString();
            }
        }
    }
}
