package io.github.mongoredact.internal.walk;

import io.github.mongoredact.DriverShapes.Backing;
import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.FieldAction;
import io.github.mongoredact.LastEventListener;
import io.github.mongoredact.PlaceholderStyle;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.RedactionPolicyBuilder;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.rules.CompiledPolicies;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import org.bson.BsonArray;
import org.bson.BsonBinaryReader;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Properties of the redaction over random commands and replies of every BSON type (our own seeded generator, see
 * {@link RandomCommands}). Each failure names the seed that reproduces it: run with {@code -Dredaction.seed=<seed>
 * -Dredaction.cases=1}.
 */
class RedactionPropertiesTest {
    private static final long BASE_SEED = Long.getLong("redaction.seed", 0x5EED_2026L);
    private static final int CASES = Integer.getInteger("redaction.cases", 400);
    private static final String[] RULE_PATHS = {"filter", "filter.email", "filter.*", "documents", "documents.email",
            "documents.s", "updates.q", "updates.u.$set", "deletes.q", "pipeline.$match", "pipeline.$lookup.let", "**.email",
            "**.s", "**.let", "let", "comment", "lsid", "writeConcern.w", "$db", "query", "x_unknown", "*", "**.$in", "**.a.b",
            "cursor", "cursor.firstBatch", "cursor.nextBatch.email", "writeErrors.errmsg", "ok"};

    interface Property {
        void check(long seed, String context);
    }

    private static void forAll(final String name, final Property property) {
        for (int i = 0; i < CASES; i++) {
            long seed = BASE_SEED + i;
            String context = name + " seed=" + seed;
            try {
                property.check(seed, context);
            } catch (AssertionError | RuntimeException e) {
                AssertionError failure = new AssertionError(context + " (rerun: -Dredaction.seed=" + seed
                        + " -Dredaction.cases=1): " + e.getMessage(), e);
                throw failure;
            }
        }
    }

    // ----------------------------------------------------------------------------------------------------------------------
    // input shapes

    /** The driver-shaped input of a generated command, backed as the seed chooses. */
    static BsonDocument input(final RandomCommands.Command command, final Random random) {
        Backing backing = Backing.values()[random.nextInt(Backing.values().length)];
        if (command.hasSequences()) {
            return DriverShapes.withSequences(command.top, backing, command.sequencePairs());
        }
        return DriverShapes.byteBacked(command.top, backing);
    }

    static BsonDocument merged(final RandomCommands.Command command) {
        return command.hasSequences() ? DriverShapes.merged(command.top, command.sequencePairs())
                : DriverShapes.deepCopy(command.top);
    }

    static byte[] started(final RedactionPolicy policy, final String name, final BsonDocument input, final String context) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
        listener.commandStarted(DriverShapes.started(1, name, input));
        assertEquals(0, listener.getCounters().getRedactionFailures(), () -> context + " " + last.started.getCommand().toJson());
        return DriverShapes.ownedBytes(last.started.getCommand());
    }

    static byte[] replied(final RedactionPolicy policy, final String name, final BsonDocument reply, final String context) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
        listener.commandSucceeded(DriverShapes.succeeded(1, name, reply));
        assertEquals(0, listener.getCounters().getRedactionFailures(),
                () -> context + " " + last.succeeded.getResponse().toJson());
        return DriverShapes.ownedBytes(last.succeeded.getResponse());
    }

    // ----------------------------------------------------------------------------------------------------------------------
    // defaults: values gone, shape kept

    @Test
    void markerNeverAppearsInRedactedCommands() {
        int[] planted = {0};
        forAll("markerNeverAppearsInRedactedCommands", (seed, context) -> {
            RandomCommands generator = new RandomCommands(seed);
            RandomCommands.Command command = generator.command();
            BsonDocument expectedInput = merged(command);
            byte[] inputBytes = DriverShapes.encode(expectedInput);
            assertTrue(indexOf(inputBytes, generator.markerBytes) >= 0, "the marker is planted in the input");
            planted[0] += generator.planted();

            byte[] out = started(RedactionPolicy.defaults(), command.name, input(command, generator.random), context);
            assertEquals(-1, indexOf(out, generator.markerBytes), () -> "marker " + generator.marker + " leaked: "
                    + new RawBsonDocument(out).toJson());
            BsonDocument decoded = decodeStrictly(out);
            assertShape(expectedInput, decoded, false, "", context);
            // kept metadata intact
            assertEquals(command.name, decoded.getFirstKey());
            assertEquals(expectedInput.get(command.name), decoded.get(command.name));
            assertEquals(expectedInput.get("$db"), decoded.get("$db"));
            assertEquals(generator.ordered, decoded.get("ordered"));
            assertEquals(generator.lsid, decoded.get("lsid"));
            assertEquals(generator.writeConcern, decoded.get("writeConcern"));
        });
        assertTrue(planted[0] >= CASES * 2, "markers planted: " + planted[0]);
    }

    @Test
    void markerNeverAppearsInRedactedReplies() {
        forAll("markerNeverAppearsInRedactedReplies", (seed, context) -> {
            RandomCommands generator = new RandomCommands(seed);
            BsonDocument reply = generator.reply();
            Backing backing = Backing.values()[generator.random.nextInt(Backing.values().length)];
            byte[] out = replied(RedactionPolicy.defaults(), "find", DriverShapes.byteBacked(reply, backing), context);
            assertEquals(-1, indexOf(out, generator.markerBytes), () -> "marker " + generator.marker + " leaked: "
                    + new RawBsonDocument(out).toJson());
            BsonDocument decoded = decodeStrictly(out);
            BsonDocument cursor = reply.getDocument("cursor");
            assertEquals(cursor.get("id"), decoded.getDocument("cursor").get("id"));
            assertEquals(cursor.get("ns"), decoded.getDocument("cursor").get("ns"));
            assertEquals(reply.get("ok"), decoded.get("ok"));
            if (reply.containsKey("writeErrors")) {
                BsonDocument error = decoded.getArray("writeErrors").get(0).asDocument();
                assertEquals(new BsonInt32(11000), error.get("code"));
                assertEquals(new BsonString("DuplicateKey"), error.get("codeName"));
                assertTrue(error.getString("errmsg").getValue().endsWith("dup key: { email: ? }"), error.toJson());
            }
            BsonDocument shapeOnly = DriverShapes.deepCopy(reply);
            shapeOnly.remove("writeErrors");
            decoded.remove("writeErrors");
            assertShape(shapeOnly, decoded, false, "", context);
        });
    }

    @Test
    void redactingTwiceEqualsRedactingOnce() {
        forAll("redactingTwiceEqualsRedactingOnce", (seed, context) -> {
            RandomCommands generator = new RandomCommands(seed);
            RandomCommands.Command command = generator.command();
            // masked keys hide the paths of kept values below them from a second pass: no REDACT_KEYS in these policies
            RedactionPolicy policy = generator.random.nextInt(3) == 0 ? randomPolicy(generator.random, false, false, false)
                    : RedactionPolicy.defaults();
            String policyContext = context + " " + describe(policy);
            byte[] once = started(policy, command.name, input(command, generator.random), policyContext);
            Backing backing = Backing.values()[generator.random.nextInt(Backing.values().length)];
            byte[] twice = started(policy, command.name, backing.apply(once), policyContext);
            assertArrayEquals(once, twice, () -> policyContext + "\nonce:  " + new RawBsonDocument(once).toJson()
                    + "\ntwice: " + new RawBsonDocument(twice).toJson());

            BsonDocument reply = generator.reply();
            byte[] replyOnce = replied(policy, "find", new RawBsonDocument(DriverShapes.encode(reply)), policyContext);
            byte[] replyTwice = replied(policy, "find", new RawBsonDocument(replyOnce), policyContext);
            assertArrayEquals(replyOnce, replyTwice, () -> policyContext + "\nonce:  " + new RawBsonDocument(replyOnce).toJson()
                    + "\ntwice: " + new RawBsonDocument(replyTwice).toJson());
        });
    }

    // ----------------------------------------------------------------------------------------------------------------------
    // random policies: one exact allocation, valid BSON, caps and limits

    @Test
    void sizingPassEqualsBytesWrittenForRandomPolicies() {
        forAll("sizingPassEqualsBytesWrittenForRandomPolicies", (seed, context) -> {
            RandomCommands generator = new RandomCommands(seed);
            RandomCommands.Command command = generator.command();
            RedactionPolicy policy = randomPolicy(generator.random, generator.random.nextBoolean(),
                    generator.random.nextBoolean());
            String policyContext = context + " " + describe(policy);
            // through the listener: the forwarded array is exactly the output, and it is valid BSON
            byte[] out = started(policy, command.name, input(command, generator.random), policyContext);
            decodeStrictly(out);
            byte[] replyOut = replied(policy, "find", DriverShapes.byteBacked(generator.reply(), Backing.BYTE_BUF_HEAP),
                    policyContext);
            decodeStrictly(replyOut);

            // the walker itself: size, then write into a larger array between sentinels
            byte[] src = DriverShapes.encode(merged(command));
            CompiledPolicy compiled = CompiledPolicies.compile(policy);
            for (boolean isCommand : new boolean[]{true, false}) {
                CompiledPolicy.RuleSet rules = isCommand ? compiled.commandRules(command.name) : compiled.replyRules("find");
                RedactionWalker walker = new RedactionWalker();
                int size = walker.size(src, 0, src.length, rules, isCommand, compiled);
                int cap = policy.getMaxDocumentBytes();
                int expected = size;
                if (cap > 0 && size > cap) {
                    walker.bind(src, 0, src.length, rules, isCommand, compiled);
                    expected = walker.sizeCapped(cap);
                    assertTrue(expected <= cap, "capped size " + expected + " over cap " + cap);
                }
                byte[] dst = new byte[expected + 8];
                Arrays.fill(dst, (byte) 0x7E);
                walker.bind(src, 0, src.length, rules, isCommand, compiled);
                int written = walker.write(dst, 0, cap > 0 && size > cap ? cap : 0, size);
                assertEquals(expected, written, "sized and written differ (command=" + isCommand + ")");
                assertEquals(expected, Bytes.readInt(dst, 0), "document length field");
                for (int i = 0; i < 8; i++) {
                    assertEquals(0x7E, dst[expected + i], "byte after the output touched at " + i);
                }
                decodeStrictly(Arrays.copyOf(dst, expected));
            }
        });
    }

    @Test
    void walkerWritesAtAnOffsetWhatItWritesAtZero() {
        forAll("walkerWritesAtAnOffsetWhatItWritesAtZero", (seed, context) -> {
            RandomCommands generator = new RandomCommands(seed);
            RandomCommands.Command command = generator.command();
            RedactionPolicy policy = randomPolicy(generator.random, generator.random.nextBoolean(), false);
            byte[] src = DriverShapes.encode(merged(command));
            CompiledPolicy compiled = CompiledPolicies.compile(policy);
            CompiledPolicy.RuleSet rules = compiled.commandRules(command.name);
            RedactionWalker walker = new RedactionWalker();
            int size = walker.size(src, 0, src.length, rules, true, compiled);
            int cap = policy.getMaxDocumentBytes() > 0 && size > policy.getMaxDocumentBytes() ? policy.getMaxDocumentBytes() : 0;
            walker.bind(src, 0, src.length, rules, true, compiled);
            int expected = cap > 0 ? walker.sizeCapped(cap) : size;
            byte[] atZero = new byte[expected];
            assertEquals(expected, walker.write(atZero, 0, cap, size));
            byte[] atOffset = new byte[expected + 8];
            walker.bind(src, 0, src.length, rules, true, compiled);
            int written = walker.write(atOffset, 8, cap, size);
            assertEquals(expected, written, () -> describe(policy) + " cap=" + cap);
            assertArrayEquals(atZero, Arrays.copyOfRange(atOffset, 8, 8 + expected), describe(policy));
        });
    }

    @Test
    void capCutsAtElementBoundaryAndSaysHowMuch() {
        forAll("capCutsAtElementBoundaryAndSaysHowMuch", (seed, context) -> {
            RandomCommands generator = new RandomCommands(seed);
            RandomCommands.Command command = generator.command();
            RedactionPolicy capped = randomPolicy(generator.random, true, false);
            RedactionPolicy uncapped = RedactionPolicy.builder(capped).maxDocumentBytes(0).build();
            String policyContext = context + " " + describe(capped);
            BsonDocument input = input(command, generator.random);
            byte[] full = started(uncapped, command.name, input, policyContext);
            byte[] cut = started(capped, command.name, input, policyContext);
            int cap = capped.getMaxDocumentBytes();
            if (full.length <= cap) {
                assertArrayEquals(full, cut, policyContext);
                return;
            }
            assertTrue(cut.length <= cap, () -> policyContext + " output " + cut.length + " over cap " + cap);
            BsonDocument decoded = decodeStrictly(cut);
            List<String> keys = new ArrayList<>(decoded.keySet());
            assertEquals("$truncatedBytes", keys.get(keys.size() - 1), () -> decoded.toJson());
            long truncated = decoded.getInt64("$truncatedBytes").getValue();
            assertEquals(full.length, cut.length - RedactionWalker.TRUNCATION_MARKER_SIZE + truncated,
                    () -> policyContext + " " + decoded.toJson());
            // what is kept is a prefix of the full output, element by element
            assertPrefix(decodeStrictly(full), decoded, policyContext);
        });
    }

    @Test
    void capCutsRepliesAtElementBoundaryAndSaysHowMuch() {
        forAll("capCutsRepliesAtElementBoundaryAndSaysHowMuch", (seed, context) -> {
            RandomCommands generator = new RandomCommands(seed);
            BsonDocument reply = generator.reply();
            // batch limits too: a cursor measured whole is then written as measured
            RedactionPolicy capped = randomPolicy(generator.random, true, true);
            RedactionPolicy uncapped = RedactionPolicy.builder(capped).maxDocumentBytes(0).build();
            String policyContext = context + " " + describe(capped);
            Backing backing = Backing.values()[generator.random.nextInt(Backing.values().length)];
            byte[] full = replied(uncapped, "find", DriverShapes.byteBacked(reply, backing), policyContext);
            byte[] cut = replied(capped, "find", DriverShapes.byteBacked(reply, backing), policyContext);
            int cap = capped.getMaxDocumentBytes();
            if (full.length <= cap) {
                assertArrayEquals(full, cut, policyContext);
                return;
            }
            assertTrue(cut.length <= cap, () -> policyContext + " output " + cut.length + " over cap " + cap + ": "
                    + new RawBsonDocument(cut).toJson());
            BsonDocument decoded = decodeStrictly(cut);
            List<String> keys = new ArrayList<>(decoded.keySet());
            assertEquals("$truncatedBytes", keys.get(keys.size() - 1), () -> decoded.toJson());
            assertEquals(full.length, cut.length - RedactionWalker.TRUNCATION_MARKER_SIZE
                    + decoded.getInt64("$truncatedBytes").getValue(), () -> policyContext + " " + decoded.toJson());
            assertPrefix(decodeStrictly(full), decoded, policyContext);
        });
    }

    @Test
    void sequenceLimitShowsAtMostMaxDocumentsAndCountsTheRest() {
        forAll("sequenceLimitShowsAtMostMaxDocumentsAndCountsTheRest", (seed, context) -> {
            RandomCommands generator = new RandomCommands(seed);
            RandomCommands.Command command = generator.command();
            int max = generator.random.nextInt(4);
            RedactionPolicyBuilder builder = generator.random.nextBoolean() ? RedactionPolicy.builder()
                    : RedactionPolicy.builder(RedactionPolicy.specOnly());
            if (generator.random.nextBoolean()) {
                // what nothing names redacted: on specOnly(), a policy without a rule
                builder.unmatchedCommandAction(FieldAction.REDACT).unmatchedReplyAction(FieldAction.REDACT);
            }
            RedactionPolicy unlimited = builder.build();
            RedactionPolicy limited = builder.maxSequenceDocuments(max).build();
            String policyContext = context + " " + describe(limited);
            BsonDocument input = input(command, generator.random);
            BsonDocument full = decodeStrictly(started(unlimited, command.name, input, policyContext));
            BsonDocument shown = decodeStrictly(started(limited, command.name, input, policyContext));
            for (String sequence : new String[]{"documents", "updates", "deletes"}) {
                if (full.containsKey(sequence)) {
                    assertLimited(full.getArray(sequence), shown.getArray(sequence), max, policyContext + " " + sequence);
                }
            }
            BsonDocument reply = generator.reply();
            BsonDocument fullReply = decodeStrictly(replied(unlimited, "find", new RawBsonDocument(DriverShapes.encode(reply)),
                    policyContext));
            BsonDocument shownReply = decodeStrictly(replied(limited, "find", new RawBsonDocument(DriverShapes.encode(reply)),
                    policyContext));
            String batch = reply.getDocument("cursor").getFirstKey();
            assertLimited(fullReply.getDocument("cursor").getArray(batch), shownReply.getDocument("cursor").getArray(batch), max,
                    policyContext + " " + batch);
        });
    }

    @Test
    void aSuffixDropLeavesTheKeyNowhere() {
        int[] held = {0};
        forAll("aSuffixDropLeavesTheKeyNowhere", (seed, context) -> {
            RandomCommands generator = new RandomCommands(seed);
            RandomCommands.Command command = generator.command();
            // what nothing names kept (the spec-only base) or redacted (the defaults), and a filter kept by a rule of its own
            RedactionPolicyBuilder builder = generator.random.nextBoolean() ? RedactionPolicy.builder()
                    : RedactionPolicy.builder(RedactionPolicy.specOnly());
            if (generator.random.nextBoolean()) {
                builder.keep("filter");
            }
            RedactionPolicy policy = builder.drop("**.s").replyField("**.s", FieldAction.DROP)
                    .maxSequenceDocuments(generator.random.nextBoolean() ? Integer.MAX_VALUE : 2).build();
            String policyContext = context + " " + describe(policy);
            held[0] += countKey(merged(command), "s");
            BsonDocument out = decodeStrictly(started(policy, command.name, input(command, generator.random), policyContext));
            assertEquals(0, countKey(out, "s"), () -> policyContext + " " + out.toJson());
            BsonDocument reply = generator.reply();
            Backing backing = Backing.values()[generator.random.nextInt(Backing.values().length)];
            BsonDocument replyOut = decodeStrictly(replied(policy, "find", DriverShapes.byteBacked(reply, backing),
                    policyContext));
            assertEquals(0, countKey(replyOut, "s"), () -> policyContext + " " + replyOut.toJson());
        });
        assertTrue(held[0] >= CASES, "keys s in the inputs: " + held[0]);
    }

    /** @return how many elements of documents at any depth have the key, scopes of code with scope apart (values) */
    private static int countKey(final BsonValue value, final String key) {
        int count = 0;
        if (value.isDocument()) {
            for (Map.Entry<String, BsonValue> entry : value.asDocument().entrySet()) {
                count += (entry.getKey().equals(key) ? 1 : 0) + countKey(entry.getValue(), key);
            }
        } else if (value.isArray()) {
            for (BsonValue element : value.asArray()) {
                count += countKey(element, key);
            }
        }
        return count;
    }

    private static void assertLimited(final BsonArray full, final BsonArray shown, final int max, final String context) {
        if (full.size() <= max) {
            assertEquals(full, shown, context);
            return;
        }
        assertEquals(max + 1, shown.size(), () -> context + " " + shown);
        assertEquals(full.subList(0, max), shown.subList(0, max), context);
        assertEquals(new BsonDocument("$omitted", new BsonInt32(full.size() - max)), shown.get(max), context);
    }

    // ----------------------------------------------------------------------------------------------------------------------

    static RedactionPolicy randomPolicy(final Random random, final boolean cap, final boolean limit) {
        return randomPolicy(random, cap, limit, true);
    }

    static RedactionPolicy randomPolicy(final Random random, final boolean cap, final boolean limit,
                                        final boolean maskedKeys) {
        RedactionPolicyBuilder builder = random.nextBoolean() ? RedactionPolicy.builder()
                : RedactionPolicy.builder(RedactionPolicy.specOnly());
        int rules = random.nextInt(6);
        FieldAction[] actions = FieldAction.values();
        for (int i = 0; i < rules; i++) {
            String path = RULE_PATHS[random.nextInt(RULE_PATHS.length)];
            FieldAction action = actions[random.nextInt(actions.length)];
            if (action == FieldAction.REDACT_KEYS && !maskedKeys) {
                action = FieldAction.REDACT;
            }
            switch (random.nextInt(4)) {
                case 0:
                    builder.field("find", path, action);
                    break;
                case 1:
                    builder.replyField(path, action);
                    break;
                default:
                    builder.field(path, action);
                    break;
            }
        }
        if (random.nextInt(3) == 0) {
            FieldAction[] unmatched = {FieldAction.KEEP, FieldAction.REDACT, FieldAction.REDACT_KEYS};
            int choices = maskedKeys ? 3 : 2;
            builder.unmatchedCommandAction(unmatched[random.nextInt(choices)]);
            builder.unmatchedReplyAction(unmatched[random.nextInt(choices)]);
        }
        builder.placeholderStyle(random.nextBoolean() ? PlaceholderStyle.FIXED : PlaceholderStyle.TYPED);
        if (limit) {
            builder.maxSequenceDocuments(random.nextInt(4));
        }
        if (cap) {
            builder.maxDocumentBytes(RedactionPolicy.MIN_DOCUMENT_BYTES + random.nextInt(700));
        }
        return builder.build();
    }

    static String describe(final RedactionPolicy policy) {
        return policy + " " + policy.getRules().subList(Math.max(0, policy.getRules().size() - 6), policy.getRules().size());
    }

    /** Decodes with the driver's codec, and checks the bytes are exactly what the codec writes back. */
    static BsonDocument decodeStrictly(final byte[] bytes) {
        BsonDocument decoded;
        try (BsonBinaryReader reader = new BsonBinaryReader(ByteBuffer.wrap(bytes))) {
            decoded = new BsonDocumentCodec().decode(reader, DecoderContext.builder().build());
        }
        assertArrayEquals(bytes, DriverShapes.encode(decoded), "not canonical BSON");
        return decoded;
    }

    static int indexOf(final byte[] haystack, final byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** The output has the input's shape: same keys in order (masked at every depth under {@code let}), arrays of the same length. */
    static void assertShape(final BsonValue in, final BsonValue out, final boolean maskKeys, final String path,
                            final String context) {
        if (in.isDocument()) {
            if (!out.isDocument()) {
                fail(context + " at " + path + ": document became " + out);
            }
            BsonDocument inDocument = in.asDocument();
            BsonDocument outDocument = out.asDocument();
            assertEquals(inDocument.size(), outDocument.size(), () -> context + " at " + path + ": " + outDocument.toJson());
            int i = 0;
            List<String> outKeys = new ArrayList<>(outDocument.keySet());
            for (Map.Entry<String, BsonValue> entry : inDocument.entrySet()) {
                String outKey = outKeys.get(i);
                String expectedKey = maskKeys ? "?" + i : entry.getKey();
                assertEquals(expectedKey, outKey, context + " at " + path);
                // defaults mask the keys of let variables (top level and $lookup stages) and every key below them
                boolean masked = maskKeys || entry.getKey().equals("let") && (path.isEmpty() || path.endsWith(".$lookup"));
                assertShape(entry.getValue(), outDocument.get(outKey), masked, path + "." + outKey, context);
                i++;
            }
        } else if (in.isArray()) {
            if (!out.isArray()) {
                fail(context + " at " + path + ": array became " + out);
            }
            assertEquals(in.asArray().size(), out.asArray().size(), context + " at " + path);
            for (int i = 0; i < in.asArray().size(); i++) {
                assertShape(in.asArray().get(i), out.asArray().get(i), maskKeys, path + "." + i, context);
            }
        } else if (!in.equals(out)) {
            String placeholder = placeholder(in.getBsonType());
            if (!new BsonString(placeholder).equals(out)) {
                fail(context + " at " + path + ": " + in + " became " + out + ", expected it kept or " + placeholder);
            }
        }
    }

    static String placeholder(final BsonType type) {
        switch (type) {
            case DOUBLE:
            case INT32:
            case INT64:
            case DECIMAL128:
                return "?number";
            case STRING:
                return "?string";
            case BINARY:
                return "?binData";
            case UNDEFINED:
                return "?undefined";
            case OBJECT_ID:
                return "?objectId";
            case BOOLEAN:
                return "?bool";
            case DATE_TIME:
                return "?date";
            case NULL:
                return "?null";
            case REGULAR_EXPRESSION:
                return "?regex";
            case DB_POINTER:
                return "?dbPointer";
            case JAVASCRIPT:
                return "?javascript";
            case SYMBOL:
                return "?symbol";
            case JAVASCRIPT_WITH_SCOPE:
                return "?javascriptWithScope";
            case TIMESTAMP:
                return "?timestamp";
            case MIN_KEY:
                return "?minKey";
            case MAX_KEY:
                return "?maxKey";
            default:
                throw new IllegalArgumentException("no placeholder for " + type);
        }
    }

    /** Every element of the cut document, but the marker and the last one (which may be cut inside), equals the full one's. */
    static void assertPrefix(final BsonDocument full, final BsonDocument cut, final String context) {
        List<String> keys = new ArrayList<>(cut.keySet());
        List<String> fullKeys = new ArrayList<>(full.keySet());
        int kept = keys.size() - 1;
        assertTrue(kept <= fullKeys.size(), context);
        for (int i = 0; i < kept; i++) {
            assertEquals(fullKeys.get(i), keys.get(i), context);
            if (i < kept - 1) {
                assertEquals(full.get(fullKeys.get(i)), cut.get(keys.get(i)), context + " element " + keys.get(i));
            }
        }
    }
}
