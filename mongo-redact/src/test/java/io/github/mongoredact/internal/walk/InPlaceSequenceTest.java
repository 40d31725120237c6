package io.github.mongoredact.internal.walk;

import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.FieldAction;
import io.github.mongoredact.KeyMasking;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.internal.bson.BsonFormatException;
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
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sequence documents of a plain top level, walked where they lie, give what the walk of the same command held as one
 * {@link RawBsonDocument} gives, byte for byte: output, size, fingerprint, collection and values redacted, under every walk
 * mode (one pass into an output that grows, caps that cut inside a sequence, sequence limits, rule-free runs, rules inside the
 * documents, masked keys, fingerprint on and off), for the driver's layout (every document in one message buffer), for other
 * byte-backed documents, and for documents not in a heap array (copied, then walked).
 */
class InPlaceSequenceTest {
    private static final int[] COUNTS = {1, 2, 10, 1000};

    @Test
    void inPlaceWalkEqualsTheWalkOfTheCommandAsOneDocument() {
        Random random = new Random(20);
        int compared = 0;
        for (int count : COUNTS) {
            List<BsonDocument> documents = documents(random, count);
            List<BsonDocument> ops = new ArrayList<>();
            for (int i = 0; i < Math.min(count, 50); i++) {
                ops.add(new BsonDocument("insert", new BsonInt32(0)).append("document", documents.get(i)));
            }
            List<BsonDocument> nsInfo = List.of(new BsonDocument("ns", new BsonString("shop.customers")),
                    new BsonDocument("ns", new BsonString("shop.orders")));
            BsonDocument insert = top("insert", new BsonString("customers"), "shop");
            BsonDocument bulkWrite = top("bulkWrite", new BsonInt32(1), "admin").append("ordered", BsonBoolean.FALSE);
            BsonDocument update = top("update", new BsonString("customers"), "shop");
            List<BsonDocument> updates = new ArrayList<>();
            for (int i = 0; i < Math.min(count, 20); i++) {
                updates.add(new BsonDocument("q", new BsonDocument("email", new BsonString("a" + i + "@example.com")))
                        .append("u", new BsonDocument("$set", new BsonDocument("prefs.alice@example.com", BsonBoolean.TRUE)
                                .append("name", new BsonString("Alice " + i))))
                        .append("multi", BsonBoolean.FALSE));
            }
            compared += compare("insert", count, insert, "documents", documents);
            compared += compare("bulkWrite", count, bulkWrite, "ops", ops, "nsInfo", nsInfo);
            compared += compare("update", count, update, "updates", updates);
            // values far shorter than their placeholders: the output grows past the room it started with
            compared += compare("insert", count, insert, "documents", nullsAndFlags(count));
        }
        assertTrue(compared > 1000, "compared=" + compared);
    }

    /**
     * The top level is written while it is sized, into a fresh redactor's input scratch at its first size (4 KiB), or written
     * a second time into a larger one where it did not fit; either way the walk gives what the command as one document gives.
     */
    @Test
    void aTopLevelWrittenWhileSizedOrWrittenAgainWalksAlike() throws InterruptedException {
        Random random = new Random(7);
        BsonDocument insert = top("insert", new BsonString("customers"), "shop");
        BsonDocument longComment = top("insert", new BsonString("customers"), "shop")
                .append("comment", new BsonString("c".repeat(6000)));
        List<BsonDocument> many = documents(random, 1000);
        List<BsonDocument> few = documents(random, 2);
        onFreshRedactor(insert, many);
        onFreshRedactor(longComment, few);
    }

    private static void onFreshRedactor(final BsonDocument top, final List<BsonDocument> documents)
            throws InterruptedException {
        Throwable[] failure = new Throwable[1];
        Thread thread = new Thread(() -> {
            try {
                BsonDocument command = DriverShapes.withSequences(top, DriverShapes.Backing.BYTE_BUF_HEAP_IN_MESSAGE,
                        "documents", documents);
                RawBsonDocument whole = new RawBsonDocument(DriverShapes.encode(
                        DriverShapes.merged(top, new Object[]{"documents", documents})));
                CompiledPolicy policy = CompiledPolicies.compile(RedactionPolicy.defaults());
                DocumentRedactor redactor = new DocumentRedactor(CollectionNames.shared());
                Result inPlace = Result.of(redactor, command, policy, true);
                inPlace.assertSame(Result.of(redactor, whole, policy, true), "against one document");
            } catch (Throwable e) {
                failure[0] = e;
            }
        });
        thread.start();
        thread.join();
        if (failure[0] != null) {
            throw new AssertionError(failure[0]);
        }
    }

    @Test
    void aDocumentNotInAHeapArrayIsCopiedAndWalkedAlike() {
        List<BsonDocument> documents = documents(new Random(3), 3);
        BsonDocument command = DriverShapes.withSequences(top("insert", new BsonString("customers"), "shop"),
                DriverShapes.Backing.BYTE_BUF_DIRECT, "documents", documents);
        CompiledPolicy policy = CompiledPolicies.compile(RedactionPolicy.defaults());
        DocumentRedactor redactor = new DocumentRedactor(CollectionNames.shared());
        Result direct = Result.of(redactor, command, policy, true);
        BsonDocument heap = DriverShapes.withSequences(top("insert", new BsonString("customers"), "shop"),
                DriverShapes.Backing.BYTE_BUF_HEAP, "documents", documents);
        Result inPlace = Result.of(redactor, heap, policy, true);
        direct.assertSame(inPlace, "direct against heap");
    }

    @Test
    void aBrokenSequenceDocumentIsRefusedWhereverItLies() {
        byte[] good = DriverShapes.encode(new BsonDocument("a", new BsonInt32(1)));
        byte[] unterminated = good.clone();
        unterminated[unterminated.length - 1] = 7;
        byte[] tooLong = good.clone();
        tooLong[0] = (byte) (good.length + 1);
        CompiledPolicy policy = CompiledPolicies.compile(RedactionPolicy.defaults());
        for (byte[] broken : new byte[][]{unterminated, tooLong}) {
            for (boolean direct : new boolean[]{false, true}) {
                BsonArray array = new BsonArray();
                array.add(DriverShapes.byteBufDocument(buffer(good, direct), 0));
                array.add(DriverShapes.byteBufDocument(buffer(broken, direct), 0));
                BsonDocument command = top("insert", new BsonString("customers"), "shop").append("documents", array);
                DocumentRedactor redactor = new DocumentRedactor(CollectionNames.shared());
                assertThrows(BsonFormatException.class, () -> Result.of(redactor, command, policy, true),
                        "direct=" + direct);
            }
        }
    }

    private static ByteBuffer buffer(final byte[] bytes, final boolean direct) {
        if (!direct) {
            return ByteBuffer.wrap(bytes.clone());
        }
        ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length);
        buffer.put(bytes).flip();
        return buffer;
    }

    private static BsonDocument top(final String name, final BsonValue value, final String db) {
        return new BsonDocument(name, value)
                .append("lsid", new BsonDocument("id", new BsonBinary((byte) 4, new byte[16])))
                .append("$db", new BsonString(db));
    }

    /**
     * @param count the size of the sequences: the largest are compared in the driver's layout and one other only
     * @return the comparisons made
     */
    private static int compare(final String name, final int count, final BsonDocument top, final Object... sequences) {
        int compared = 0;
        List<BsonDocument> shapes = new ArrayList<>();
        shapes.add(messageLayout(top, sequences));
        DriverShapes.Backing[] backings = count >= 1000 ? new DriverShapes.Backing[]{DriverShapes.Backing.RAW_SLICE}
                : new DriverShapes.Backing[]{DriverShapes.Backing.RAW, DriverShapes.Backing.RAW_SLICE,
                DriverShapes.Backing.BYTE_BUF_HEAP, DriverShapes.Backing.BYTE_BUF_HEAP_IN_MESSAGE};
        for (DriverShapes.Backing backing : backings) {
            shapes.add(DriverShapes.withSequences(top, backing, sequences));
        }
        RawBsonDocument whole = new RawBsonDocument(DriverShapes.encode(DriverShapes.merged(top, sequences)));
        DocumentRedactor inPlace = new DocumentRedactor(CollectionNames.shared());
        DocumentRedactor oneDocument = new DocumentRedactor(CollectionNames.shared());
        int size = whole.getByteBuffer().remaining();
        for (RedactionPolicy policy : policies(size)) {
            CompiledPolicy compiled = CompiledPolicies.compile(policy);
            for (boolean fingerprint : new boolean[]{true, false}) {
                Result reference = Result.of(oneDocument, whole, compiled, fingerprint);
                for (int s = 0; s < shapes.size(); s++) {
                    String context = name + " shape=" + s + " policy=" + policy + " fingerprint=" + fingerprint;
                    BsonDocument command = shapes.get(s);
                    Result actual = Result.of(inPlace, command, compiled, fingerprint);
                    actual.assertSame(reference, context + " against the command as one document");
                    compared++;
                }
            }
        }
        return compared;
    }

    private static List<RedactionPolicy> policies(final int size) {
        RedactionPolicy strict = RedactionPolicy.builder().clearRules()
                .keep("documents.country").keep("documents.tags").keep("documents.address")
                .keep("ops.insert").keep("ops.document.country").keep("nsInfo.ns")
                .field("documents.profile", FieldAction.REDACT_KEYS).field("updates.q.email", FieldAction.SCRUB)
                .keep("updates.multi").drop("documents.secret").build();
        List<RedactionPolicy> policies = new ArrayList<>(List.of(RedactionPolicy.defaults(), strict,
                RedactionPolicy.builder(RedactionPolicy.defaults()).keyMasking(KeyMasking.NONE).build(),
                RedactionPolicy.builder().clearRules().keep("documents").keep("ops").keep("nsInfo").keep("updates").build(),
                RedactionPolicy.builder(RedactionPolicy.defaults()).maxSequenceDocuments(3).build(),
                RedactionPolicy.builder(strict).maxSequenceDocuments(1).build()));
        // **. rules inside kept containers, some from a sequence's name down (its first key in the top level's array)
        RedactionPolicy suffixes = RedactionPolicy.builder(RedactionPolicy.specOnly()).drop("**.documents.secret")
                .redact("**.updates.q.email").redact("**.country").field("**.ops.document", FieldAction.REDACT_KEYS).build();
        policies.add(suffixes);
        for (int cap : new int[]{size / 3, size / 2, size - 40, size + 1000}) {
            if (cap >= 256) {
                policies.add(RedactionPolicy.builder(RedactionPolicy.defaults()).maxDocumentBytes(cap).build());
                policies.add(RedactionPolicy.builder(strict).maxDocumentBytes(cap).maxSequenceDocuments(5).build());
                policies.add(RedactionPolicy.builder(suffixes).maxDocumentBytes(cap).build());
            }
        }
        policies.add(RedactionPolicy.builder(RedactionPolicy.defaults()).maxDocumentBytes(256).build());
        return policies;
    }

    /** The driver's layout: the top level plain, every sequence's documents back to back in one heap message buffer. */
    private static BsonDocument messageLayout(final BsonDocument top, final Object... sequences) {
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        message.writeBytes(new byte[]{1, 2, 3, 4, 5, 6, 7});
        List<int[]> positions = new ArrayList<>();
        for (int i = 0; i < sequences.length; i += 2) {
            @SuppressWarnings("unchecked")
            List<BsonDocument> documents = (List<BsonDocument>) sequences[i + 1];
            int[] at = new int[documents.size()];
            for (int j = 0; j < at.length; j++) {
                at[j] = message.size();
                message.writeBytes(DriverShapes.encode(documents.get(j)));
            }
            positions.add(at);
        }
        message.writeBytes(new byte[]{9, 9});
        ByteBuffer buffer = ByteBuffer.wrap(message.toByteArray());
        BsonDocument command = DriverShapes.deepCopy(top);
        for (int i = 0; i < sequences.length; i += 2) {
            BsonArray array = new BsonArray();
            for (int at : positions.get(i / 2)) {
                array.add(DriverShapes.byteBufDocument(buffer.duplicate(), at));
            }
            command.append((String) sequences[i], array);
        }
        return command;
    }

    private static List<BsonDocument> nullsAndFlags(final int count) {
        List<BsonDocument> documents = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            BsonDocument document = new BsonDocument();
            for (int k = 0; k < 40; k++) {
                document.append("k" + k, k % 2 == 0 ? BsonNull.VALUE : BsonBoolean.valueOf(k % 3 == 0));
            }
            documents.add(document);
        }
        return documents;
    }

    private static List<BsonDocument> documents(final Random random, final int count) {
        List<BsonDocument> documents = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ObjectId id = new ObjectId(random.nextInt() & 0x7fffffff, random.nextInt(0x1000000));
            BsonDocument document = new BsonDocument("_id", new BsonObjectId(id))
                    .append("email", new BsonString("user" + i + "@example.com"))
                    .append("age", new BsonInt32(random.nextInt(90)))
                    .append("score", new BsonDouble(random.nextDouble()))
                    .append("country", new BsonString(random.nextBoolean() ? "FR" : "DE"));
            // runs of three flat documents (the placeholder runs take them whole), then one of each other shape
            switch ((i / 3) % 2 == 0 ? 5 : i % 5) {
                case 5:
                    break;
                case 0:
                    document.append("address", new BsonDocument("street", new BsonString(i + " Main St"))
                            .append("geo", new BsonArray(List.of(new BsonDouble(1.5), new BsonDouble(-2.5)))));
                    break;
                case 1:
                    document.append("tags", new BsonArray(List.of(new BsonString("a"),
                            new BsonDocument("t", new BsonInt64(i)))));
                    break;
                case 2:
                    document.append("profile", new BsonDocument("alice@example.com", BsonBoolean.TRUE)
                            .append("since", new BsonDateTime(1_700_000_000_000L + i)));
                    break;
                case 3:
                    document.append("secret", new BsonString("s3cret")).append("note", new BsonString("?string"))
                            .append("nothing", BsonNull.VALUE);
                    break;
                default:
                    document.append("user@example.com", new BsonInt32(i));
                    break;
            }
            documents.add(document);
        }
        return documents;
    }

    /** What a redaction returns, copied out of the thread's result. */
    private static final class Result {
        final byte[] bytes;
        final int inputSize;
        final long fingerprint;
        final String collection;
        final long valuesRedacted;

        private Result(final byte[] bytes, final Redaction redaction) {
            this.bytes = bytes;
            this.inputSize = redaction.inputSize();
            this.fingerprint = redaction.fingerprint();
            this.collection = redaction.collectionName();
            this.valuesRedacted = redaction.valuesRedacted();
        }

        static Result of(final DocumentRedactor redactor, final BsonDocument command, final CompiledPolicy policy,
                         final boolean fingerprint) {
            String name = command.getFirstKey();
            byte[] bytes = redactor.redactCommand(command, policy, policy.commandRules(name), true, fingerprint);
            return new Result(bytes, redactor.redaction());
        }

        void assertSame(final Result expected, final String context) {
            assertArrayEquals(expected.bytes, bytes, () -> context + ": " + (bytes == null ? "no output"
                    : new RawBsonDocument(Arrays.copyOf(bytes, bytes.length)).toJson()));
            assertEquals(expected.inputSize, inputSize, context);
            assertEquals(expected.fingerprint, fingerprint, context);
            assertEquals(expected.collection, collection, context);
            assertEquals(expected.valuesRedacted, valuesRedacted, context);
        }
    }
}
