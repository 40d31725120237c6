package io.github.mongoredact.internal.walk;

import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.Workspace;
import io.github.mongoredact.internal.rules.CollectionNames;
import io.github.mongoredact.internal.rules.CompiledPolicies;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A small command of a shape walked before gets the walk's output without a walk ({@link ShapeReplay}): every copy it makes
 * must be the one a redactor that never saw the shape makes by walking, with the same collection and count.
 */
class ShapeReplayTest {
    private static final CompiledPolicy DEFAULTS = CompiledPolicies.compile(RedactionPolicy.defaults());

    @Test
    void replaysAFindOfAShapeWalkedBeforeWithItsOwnKeptValues() {
        DocumentRedactor redactor = new DocumentRedactor(CollectionNames.shared());
        redact(redactor, find("customers", "ann@example.com", 30));
        long before = redactor.replays();
        BsonDocument second = find("suppliers", "bob.smith@example.org", 41);
        Outcome replayed = redact(redactor, second);
        assertEquals(before + 1, redactor.replays(), "the second find of the shape is replayed");
        replayed.assertSame(walked(second));
        String json = new RawBsonDocument(replayed.bytes).toJson();
        assertTrue(json.contains("suppliers") && !json.contains("bob.smith"), json);
    }

    @Test
    void theFingerprintIsReplayedForTheSameNamespaceOnly() {
        DocumentRedactor redactor = new DocumentRedactor(CollectionNames.shared());
        Outcome first = redact(redactor, find("customers", "ann@example.com", 30), true);
        long before = redactor.replays();
        BsonDocument sameNamespace = find("customers", "bob@example.org", 41);
        Outcome replayed = redact(redactor, sameNamespace, true);
        assertEquals(before + 1, redactor.replays());
        replayed.assertSame(walked(sameNamespace, true));
        assertEquals(first.fingerprint, replayed.fingerprint);
        // a collection of the same length: the copy's shape is the same, the fingerprint is not
        BsonDocument otherNamespace = find("suppliers", "bob@example.org", 41);
        Outcome walkedAgain = redact(redactor, otherNamespace, true);
        assertEquals(before + 1, redactor.replays());
        walkedAgain.assertSame(walked(otherNamespace, true));
        assertTrue(walkedAgain.fingerprint != first.fingerprint);
        // without the fingerprint, the same shape is replayed
        redact(redactor, otherNamespace, false).assertSame(walked(otherNamespace, false));
        assertEquals(before + 2, redactor.replays());
    }

    @Test
    void anElementThePolicyDropsIsReplayedByItsKeyAndType() {
        DocumentRedactor redactor = new DocumentRedactor(CollectionNames.shared());
        redact(redactor, withClusterTime(find("customers", "ann@example.com", 30), (byte) 1));
        long before = redactor.replays();
        BsonDocument other = withClusterTime(find("customers", "bob@example.org", 41), (byte) 2);
        Outcome replayed = redact(redactor, other);
        assertEquals(before + 1, redactor.replays(), "the cluster time's signature is dropped, whatever its hash");
        replayed.assertSame(walked(other));
        assertTrue(!new RawBsonDocument(replayed.bytes).toJson().contains("signature"));
    }

    @Test
    void aWalkThatMaskedAKeyIsNeverReplayed() {
        DocumentRedactor redactor = new DocumentRedactor(CollectionNames.shared());
        BsonDocument wallet = new BsonDocument("find", new BsonString("users"))
                .append("filter", new BsonDocument("wallet.alice@example.com", new BsonInt32(1)))
                .append("$db", new BsonString("shop"));
        redact(redactor, wallet);
        redact(redactor, wallet).assertSame(walked(wallet));
        assertEquals(0, redactor.replays(), "the key is not in the output: there is nothing to read it from");
    }

    @Test
    void corruptBytesInAShapeWalkedBeforeFailOrPassAsTheWalkAlone() {
        Random random = new Random(1202);
        int compared = 0;
        int replayed = 0;
        for (int i = 0; i < 300; i++) {
            BsonDocument command = withClusterTime(find("c" + random.nextInt(3), "u" + random.nextInt(99) + "@example.com",
                    random.nextInt(99)), (byte) i).append("singleBatch", BsonBoolean.TRUE);
            byte[] bytes = DriverShapes.encode(command);
            DocumentRedactor redactor = new DocumentRedactor(CollectionNames.shared());
            redact(redactor, command, true);
            for (int k = 0; k < 30; k++) {
                byte[] corrupt = bytes.clone();
                corrupt[4 + random.nextInt(corrupt.length - 5)] = (byte) random.nextInt(256);
                long before = redactor.replays();
                String ours = outcomeOrFailure(redactor, corrupt);
                replayed += (int) (redactor.replays() - before);
                assertEquals(outcomeOrFailure(new DocumentRedactor(CollectionNames.shared()), corrupt), ours);
                compared++;
            }
        }
        assertEquals(9000, compared);
        // a byte changed in a value the policy replaces is replayed; the others fail as the walk fails, or are walked
        assertTrue(replayed > 900, "replayed " + replayed);
    }

    /** @return the outcome as text (the copy, collection, count and fingerprint), or the failure's type and message */
    private static String outcomeOrFailure(final DocumentRedactor redactor, final byte[] bytes) {
        try {
            Outcome outcome = new Outcome(redactor.redactCommand(new RawBsonDocument(bytes), DEFAULTS,
                    DEFAULTS.commandRules("find"), true, true, Workspace.current()));
            return Arrays.toString(outcome.bytes) + " " + outcome.collection + " " + outcome.valuesRedacted + " "
                    + outcome.fingerprint;
        } catch (RuntimeException e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }

    private static BsonDocument withClusterTime(final BsonDocument command, final byte hash) {
        byte[] bytes = new byte[20];
        Arrays.fill(bytes, hash);
        return command.append("$clusterTime", new BsonDocument("clusterTime", new org.bson.BsonTimestamp(1_700_000_000, 3))
                .append("signature", new BsonDocument("hash", new BsonBinary(bytes)).append("keyId", new BsonInt64(7L))))
                .append("lsid", new BsonDocument("id", new BsonBinary(java.util.UUID.randomUUID())));
    }

    @Test
    void aKeptValueOfAnotherLengthIsWalked() {
        DocumentRedactor redactor = new DocumentRedactor(CollectionNames.shared());
        redact(redactor, find("customers", "ann@example.com", 30));
        long before = redactor.replays();
        BsonDocument longer = find("customers_archive", "ann@example.com", 30);
        redact(redactor, longer).assertSame(walked(longer));
        assertEquals(before, redactor.replays(), "a collection name of another length changes the output's lengths");
    }

    @Test
    void aStringThatAlreadyIsAPlaceholderIsWalked() {
        DocumentRedactor redactor = new DocumentRedactor(CollectionNames.shared());
        redact(redactor, find("customers", "ann@example.com", 30));
        long before = redactor.replays();
        BsonDocument placeholder = find("customers", "?", 30);
        Outcome outcome = redact(redactor, placeholder);
        outcome.assertSame(walked(placeholder));
        assertEquals(before, redactor.replays());
        assertEquals(1, outcome.valuesRedacted, "the walk keeps a placeholder as it is and does not count it");
    }

    @Test
    void aFlagKeptByItsValueIsNeverReplayed() {
        DocumentRedactor redactor = new DocumentRedactor(CollectionNames.shared());
        BsonDocument ascending = find("customers", "ann@example.com", 30).append("sort", new BsonDocument("age", new BsonInt32(1)));
        redact(redactor, ascending);
        redact(redactor, ascending);
        long before = redactor.replays();
        BsonDocument large = find("customers", "ann@example.com", 30).append("sort", new BsonDocument("age", new BsonInt32(7)));
        Outcome outcome = redact(redactor, large);
        outcome.assertSame(walked(large));
        assertEquals(before, redactor.replays(), "whether 1 or 7 is kept depends on the value: not replayed");
        assertTrue(!new RawBsonDocument(outcome.bytes).toJson().contains("7"), "7 is no flag");
    }

    @Test
    void corruptInputOfAShapeWalkedBeforeFailsAsTheWalkFails() {
        DocumentRedactor redactor = new DocumentRedactor(CollectionNames.shared());
        redact(redactor, find("customers", "ann@example.com", 30));
        byte[] bytes = DriverShapes.encode(find("customerz", "ann@example.com", 30));
        // the kept collection name, same length, with a byte that is no UTF-8
        int at = indexOf(bytes, "customerz".getBytes(java.nio.charset.StandardCharsets.UTF_8)) + 8;
        bytes[at] = (byte) 0xC3;
        RawBsonDocument corrupt = new RawBsonDocument(bytes);
        BsonFormatException replayed = assertThrows(BsonFormatException.class, () -> redact(redactor, corrupt));
        BsonFormatException walkedFailure = assertThrows(BsonFormatException.class, () -> walked(corrupt));
        assertEquals(walkedFailure.getMessage(), replayed.getMessage());
    }

    @Test
    void commandsOfEveryShapeWithOtherValuesComeOutAsWalked() {
        Random random = new Random(20261202);
        int replays = 0;
        for (int i = 0; i < 400; i++) {
            RandomCommands.Command command = new RandomCommands(random.nextLong()).command();
            BsonDocument whole = DriverShapes.merged(command.top, command.sequencePairs());
            if (DriverShapes.encode(whole).length > ShapeReplay.MAX_SOURCE_BYTES) {
                whole = new BsonDocument(command.name, whole.get(command.name)).append("filter", small(random))
                        .append("$db", new BsonString("app"));
            }
            DocumentRedactor redactor = new DocumentRedactor(CollectionNames.shared());
            // half of them with the fingerprint, which a replay gives only for the same namespace
            boolean fingerprint = i % 2 == 0;
            redact(redactor, whole, fingerprint).assertSame(walked(whole, fingerprint));
            for (int k = 0; k < 3; k++) {
                BsonDocument other = (BsonDocument) mutated(whole, random);
                long before = redactor.replays();
                redact(redactor, other, fingerprint).assertSame(walked(other, fingerprint));
                replays += (int) (redactor.replays() - before);
            }
        }
        // most generated commands hold a flag, code or regex, or pass 512 bytes: those are walked every time
        assertTrue(replays >= 100, "the mutated commands were replayed " + replays + " times of 1200");
    }

    private static BsonDocument small(final Random random) {
        return new BsonDocument("email", new BsonString("u" + random.nextInt(1000) + "@example.com"))
                .append("age", new BsonInt32(random.nextInt(90))).append("tags", new BsonArray(Arrays.asList(
                        new BsonString("a"), new BsonBoolean(random.nextBoolean()))));
    }

    /** A copy with other values of the same types: strings of other lengths, placeholders now and then. */
    private static BsonValue mutated(final BsonValue value, final Random random) {
        switch (value.getBsonType()) {
            case DOCUMENT:
                BsonDocument document = new BsonDocument();
                for (Map.Entry<String, BsonValue> e : value.asDocument().entrySet()) {
                    document.append(e.getKey(), mutated(e.getValue(), random));
                }
                return document;
            case ARRAY:
                BsonArray array = new BsonArray();
                for (BsonValue element : value.asArray()) {
                    array.add(mutated(element, random));
                }
                return array;
            case STRING:
                int kind = random.nextInt(10);
                int length = value.asString().getValue().length();
                return new BsonString(kind == 0 ? "?" : kind == 1 ? RandomCommands.ALPHABET.substring(0, 1 + random.nextInt(12))
                        : kind == 2 ? value.asString().getValue() : letters(random, length));
            case INT32:
                return new BsonInt32(random.nextInt(5) - 2);
            case INT64:
                return new BsonInt64(random.nextLong());
            case DOUBLE:
                return new BsonDouble(random.nextDouble());
            case BOOLEAN:
                return BsonBoolean.valueOf(random.nextBoolean());
            case OBJECT_ID:
                return new BsonObjectId(new ObjectId());
            case DATE_TIME:
                return new BsonDateTime(random.nextLong());
            case BINARY:
                BsonBinary binary = value.asBinary();
                byte[] data = binary.getData().clone();
                random.nextBytes(data);
                return binary.getType() == 2 ? binary : new BsonBinary(binary.getType(), data);
            default:
                return value;
        }
    }

    private static String letters(final Random random, final int length) {
        StringBuilder letters = new StringBuilder();
        for (int i = 0; i < length; i++) {
            letters.append(RandomCommands.ALPHABET.charAt(random.nextInt(RandomCommands.ALPHABET.length())));
        }
        return letters.toString();
    }

    private static BsonDocument find(final String collection, final String email, final int age) {
        return new BsonDocument("find", new BsonString(collection))
                .append("filter", new BsonDocument("email", new BsonString(email)).append("age", new BsonInt32(age)))
                .append("limit", new BsonInt32(1)).append("$db", new BsonString("shop"));
    }

    private static Outcome walked(final BsonDocument command) {
        return walked(command, false);
    }

    private static Outcome walked(final BsonDocument command, final boolean fingerprint) {
        return redact(new DocumentRedactor(CollectionNames.shared()), command, fingerprint);
    }

    private static Outcome redact(final DocumentRedactor redactor, final BsonDocument command) {
        return redact(redactor, command, false);
    }

    private static Outcome redact(final DocumentRedactor redactor, final BsonDocument command, final boolean fingerprint) {
        RawBsonDocument raw = command instanceof RawBsonDocument ? (RawBsonDocument) command
                : new RawBsonDocument(DriverShapes.encode(command));
        String name = raw.getFirstKey();
        return new Outcome(redactor.redactCommand(raw, DEFAULTS, DEFAULTS.commandRules(name), true, fingerprint,
                Workspace.current()));
    }

    private static int indexOf(final byte[] bytes, final byte[] part) {
        for (int i = 0; i + part.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }

    private static final class Outcome {
        final byte[] bytes;
        final String collection;
        final long valuesRedacted;
        final int inputSize;
        final long fingerprint;

        Outcome(final Redaction redaction) {
            byte[] output = redaction.takeBytes();
            assertNotNull(output);
            this.bytes = output;
            this.collection = redaction.collectionName();
            this.valuesRedacted = redaction.valuesRedacted();
            this.inputSize = redaction.inputSize();
            this.fingerprint = redaction.fingerprint();
        }

        void assertSame(final Outcome walked) {
            assertArrayEquals(walked.bytes, bytes, () -> new RawBsonDocument(bytes).toJson() + " walked: "
                    + new RawBsonDocument(walked.bytes).toJson());
            assertEquals(walked.collection, collection);
            assertEquals(walked.valuesRedacted, valuesRedacted);
            assertEquals(walked.inputSize, inputSize);
            assertEquals(walked.fingerprint, fingerprint);
        }
    }
}
