package io.github.mongoredact.internal.mask;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which keys look like data ({@link DataLikeKeys}): the forms the rule names, the schema names it keeps, the masked form, and
 * the false-positive rate on a corpus of real field names (every key of the specifications' and the driver's JSON test files,
 * derived by {@link FieldNameCorpus}).
 */
class DataLikeKeysTest {

    private static boolean dataLike(final String key) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        return DataLikeKeys.isDataLike(bytes, 0, bytes.length);
    }

    private static String masked(final String key, final int number) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        int size = DataLikeKeys.writeMasked(bytes, 0, bytes.length, number, null, 0);
        byte[] out = new byte[size];
        assertEquals(size, DataLikeKeys.writeMasked(bytes, 0, bytes.length, number, out, 0));
        return new String(out, StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"alice@example.com", "grace.hopper@navy.example", "6b0dd09aa86bc4d263d28547",
            "123e4567-e89b-12d3-a456-426614174000", "2026-12-01", "20261201", "+1 555 0100", "0049 30 1234567", "123456",
            "user_123456", "Alice Martin", "no\u00a0break", "c29tZS1yYW5kb20tdG9rZW4", "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
            "k3j4h5g6f7d8s9a0", "da39a3ee5e6b4b0d3255bfef95601890afd80709", "a1b2c3d4e5f6"})
    void valuesLookLikeData(final String key) {
        assertTrue(dataLike(key), key);
        assertTrue(dataLike("prefs." + key), "prefs." + key);
    }

    @ParameterizedTest
    @ValueSource(strings = {"firstName", "address.zip", "items.0.qty", "$set", "_id", "createdAt", "createdAt2", "@type",
            "x509", "sha256", "line1", "utf8mb4", "$[elem]", "grades.$[elem].mean", "$**", "2dsphereIndexVersion",
            "propertiesNotSatisfied", "encryptedDecimalPrecision", "aws_binData=00_det_auto_id", "day_1_u_1_b_1", "?key",
            "?key12", "prefs.?key.count", "\u00e9t\u00e9", "n\u00fameroDeCliente", "maxStalenessSeconds", "topologyVersion",
            "readConcern.afterClusterTime", "isMaster", "HTTPServerName", "userIds"})
    void schemaNamesDoNot(final String key) {
        assertFalse(dataLike(key), key);
    }

    /** Every operator, stage, Extended JSON name and positional is read on what follows its '$', and none looks like data. */
    @Test
    void operatorsAndPositionalsAreKept() throws IOException {
        int names = 0;
        try (InputStream in = DataLikeKeysTest.class.getResourceAsStream("/field-names/operator-names.txt")) {
            assertNotNull(in, "the operator names");
            for (String name : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (name.isEmpty() || name.startsWith("#")) {
                    continue;
                }
                names++;
                assertFalse(dataLike(name), name);
                assertFalse(dataLike("grades." + name + ".mean"), name);
            }
        }
        assertTrue(names > 250, names + " names");
    }

    /**
     * A '$' does not keep a segment that looks like data: the segment is judged on what follows it. The corrupt-input fuzz
     * (seed 12150775) made {@code $in5^Zq3dBNK4GdM8gRDu.*} of an operator's key run into a regular expression's pattern.
     */
    @ParameterizedTest
    @ValueSource(strings = {"$in5^Zq3dBNK4GdM8gRDu.*", "$4111111111111111", "$2026-12-01", "$c29tZS1yYW5kb20tdG9rZW4",
            "$6b0dd09aa86bc4d263d28547", "$+1 555 0100", "$[k3j4h5g6f7d8s9a0]"})
    void aDollarDoesNotKeepData(final String key) {
        assertTrue(dataLike(key), key);
        assertTrue(dataLike("prefs." + key), "prefs." + key);
    }

    @Test
    void dottedKeysKeepTheirStructureAndOnlyTheDataIsMasked() {
        assertEquals("stats.?key.count", masked("stats.2026-12-01.count", 0));
        assertEquals("stats.?key.?key", masked("stats.2026-12-01.c29tZS1yYW5kb20tdG9rZW4", 0));
        // an address has dots of its own: no segment around it is known to be a name
        assertEquals("?key", masked("prefs.alice@example.com", 0));
        assertEquals("?key2", masked("wallet.grace.hopper@navy.example.balance", 2));
        assertEquals("meta.@type", masked("meta.@type", 0));
        assertEquals("sessions.?key3", masked("sessions.c29tZS1yYW5kb20tdG9rZW4", 3));
        assertEquals("?key12", masked("6b0dd09aa86bc4d263d28547", 12));
        // a mask is never masked again: masking is idempotent
        assertEquals("prefs.?key12", masked("prefs.?key12", 5));
    }

    @Test
    void onlyKeysWithASuspectByteOrOfTokenLengthAreLookedAt() {
        for (String key : new String[]{"alice@example.com", "2026-12-01", "Alice Martin", "c29tZS1yYW5kb20tdG9rZW4",
                "prefs.\u00e9t\u00e9"}) {
            byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
            boolean suspect = false;
            for (byte b : bytes) {
                suspect |= b < 0 || (b <= DataLikeKeys.PUNCTUATION_END && DataLikeKeys.isSuspect(b));
            }
            assertTrue(DataLikeKeys.mayLookLikeData(suspect, bytes.length), key);
        }
        assertFalse(DataLikeKeys.mayLookLikeData(false, "firstName".length()));
    }

    /** Random values of the forms the rule names: most are found, and those of fixed forms always. */
    @Test
    void generatedValuesAreFound() {
        Random random = new Random(1);
        String base62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        int tokens = 0;
        for (int i = 0; i < 10_000; i++) {
            assertTrue(dataLike(UUID.randomUUID().toString()));
            assertTrue(dataLike("u" + random.nextInt(1_000_000) + "@example.com"));
            assertTrue(dataLike(String.format("%04d-%02d-%02d", 1990 + random.nextInt(40), 1 + random.nextInt(12),
                    1 + random.nextInt(28))));
            assertTrue(dataLike(new org.bson.types.ObjectId().toHexString()));
            StringBuilder token = new StringBuilder();
            for (int c = 0; c < 22; c++) {
                token.append(base62.charAt(random.nextInt(base62.length())));
            }
            tokens += dataLike(token.toString()) ? 1 : 0;
        }
        // 22 random base62 characters (128 bits): found 98.6% of the time (measured)
        assertTrue(tokens > 9_700, "tokens found " + tokens);
    }

    /**
     * The false-positive rate on real field names: every key of the specifications' and the driver's JSON test files. The
     * keys flagged are all server addresses ({@code host:port}) that the discovery tests use as map keys, values that are
     * keys; no schema name is flagged.
     */
    @Test
    void realFieldNamesAreKept() throws IOException {
        int distinct = 0;
        long occurrences = 0;
        long flaggedOccurrences = 0;
        List<String> flagged = new ArrayList<>();
        try (InputStream in = DataLikeKeysTest.class.getResourceAsStream("/field-names/test-suite-keys.tsv")) {
            assertNotNull(in, "the corpus");
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int tab = line.lastIndexOf('\t');
                String key = FieldNameCorpus.unescape(line.substring(0, tab));
                long count = Long.parseLong(line.substring(tab + 1));
                distinct++;
                occurrences += count;
                if (dataLike(key)) {
                    flagged.add(key);
                    flaggedOccurrences += count;
                }
            }
        }
        System.out.printf("data-like keys in the corpus: %d of %d distinct keys (%.2f%%), %d of %d occurrences (%.3f%%): %s%n",
                flagged.size(), distinct, 100.0 * flagged.size() / distinct, flaggedOccurrences, occurrences,
                100.0 * flaggedOccurrences / occurrences, flagged);
        assertTrue(distinct > 1_500, "corpus of " + distinct + " keys");
        for (String key : flagged) {
            assertTrue(key.matches("(\\[::1]|[a-z]+):270\\d\\d"), "a schema name flagged as data: " + key);
        }
        assertTrue(flagged.size() <= 12, flagged.toString());
    }
}
