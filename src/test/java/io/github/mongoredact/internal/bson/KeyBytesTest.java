package io.github.mongoredact.internal.bson;

import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static io.github.mongoredact.internal.bson.PlainSizeTest.assertCountsAndWritesWhatTheCodecWrites;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Keys are counted and written as the codec writes them whether their encoded form is remembered or not: held, too long to be
 * held, or in a slot another key took first; a key with a NUL is refused every time, never remembered.
 */
class KeyBytesTest {

    private static int slot(final String key) {
        int h = key.hashCode();
        return (h ^ (h >>> 16)) & (KeyBytes.SLOTS - 1);
    }

    private static void assertKey(final String key) {
        byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
        assertEquals(utf8.length, KeyBytes.length(key, true), key);
        byte[] dst = new byte[utf8.length + 3];
        assertEquals(2 + utf8.length + 1, KeyBytes.write(key, dst, 2, true), key);
        byte[] expected = new byte[dst.length];
        System.arraycopy(utf8, 0, expected, 2, utf8.length);
        assertArrayEquals(expected, dst, key);
    }

    @Test
    void countsAndWritesHeldAndUnheldKeysAlike() {
        String held = "k\u00fcnde";
        // twice: measured the first time, remembered the second
        assertKey(held);
        assertKey(held);
        String tooLong = "\u00e9".repeat(KeyBytes.MAX_KEY_LENGTH + 1);
        assertKey(tooLong);
        assertKey(tooLong);
        String rival = null;
        for (int i = 0; rival == null; i++) {
            String candidate = "rival\u20ac" + i;
            if (slot(candidate) == slot(held) && !candidate.equals(held)) {
                rival = candidate;
            }
        }
        assertKey(rival);
        assertKey(rival);
        assertCountsAndWritesWhatTheCodecWrites(new BsonDocument(held, new BsonInt32(1)).append(tooLong, new BsonInt32(2))
                .append(rival, new BsonDocument(rival, new BsonInt32(3))), "keys held and not");
    }

    @Test
    void keysBelowTheTopLevelAreNotRemembered() {
        // keys whose slots no earlier test of this JVM took: each would be remembered there if it were remembered at all
        String nested = freeSlotKey("customer-4711@example.com");
        String top = freeSlotKey("topLevelField");
        assumeTrue(nested != null && top != null, "every slot of the key table is taken by the tests before this one");
        assertTrue(slot(nested) != slot(top), "two slots");
        assertCountsAndWritesWhatTheCodecWrites(new BsonDocument(top, new BsonDocument(nested, new BsonInt32(1))),
                "a key that is data below the top level");
        assertEquals(top, KeyBytes.heldKey(top), "a top level's key is remembered");
        assertEquals(null, KeyBytes.heldKey(nested), "a key below the top level is not");
    }

    /** @return a key of that prefix whose slot no key holds yet, or null when none is found */
    @Nullable
    private static String freeSlotKey(final String prefix) {
        for (int i = 0; i < 100 * KeyBytes.SLOTS; i++) {
            String candidate = prefix + i;
            if (KeyBytes.slotFree(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    @Test
    void keyWithNulIsRefusedEveryTime() {
        String nul = "a\0b";
        for (int i = 0; i < 2; i++) {
            assertThrows(BsonFormatException.class, () -> KeyBytes.length(nul, true));
            assertThrows(BsonFormatException.class, () -> KeyBytes.write(nul, new byte[8], 0, true));
            assertThrows(BsonFormatException.class, () -> new PlainEncoder().writeKey(nul, new byte[8], 0));
        }
    }
}
