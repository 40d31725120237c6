package io.github.mongoredact.internal.walk;

import io.github.mongoredact.DriverShapes.Backing;
import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.FieldAction;
import io.github.mongoredact.KeyMasking;
import io.github.mongoredact.LastEventListener;
import io.github.mongoredact.LibraryWarnings;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.SequenceBytes;
import io.github.mongoredact.internal.event.CommandProcessor;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBinaryReader;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Seeded byte-flip fuzzing of commands and replies whose every value holds a secret marker, in every backing the driver hands
 * over. Under {@link RedactionPolicy#defaults()} the output is either the {@code $redactionError} marker, or valid BSON that
 * the driver's codec reads, with no text the walk refuses, and that holds no 6-byte piece of a secret; whatever the driver's
 * own decoding refuses becomes the marker. The same holds under other policies that replace every value; under policies that
 * keep values, all of it but the secrets. Under {@link RedactionPolicy#specOnly()} the output is the marker or an exact copy
 * (of the whole bytes, or of each sequence document as the driver holds it, corruptions inside a well-framed document
 * included).
 * Rerun one case with {@code -Dfuzz.seed=<seed> -Dfuzz.cases=1}.
 */
class CorruptInputFuzzTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();

    private static final long BASE_SEED = Long.getLong("fuzz.seed", 0xF1_1BL);
    private static final int CASES = Integer.getInteger("fuzz.cases", 3000);
    static final byte[] SECRET = "QZXSECRT".getBytes(StandardCharsets.US_ASCII);
    private static final int WINDOW = 6;
    /** Bytes a flip sets, besides random ones: every type byte, NUL, and the bytes of a boolean or binary subtype. */
    private static final byte[] INTERESTING = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C,
            0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x7F, (byte) 0xFF, 0x20, (byte) 0x80};

    /** Every 8-byte, string and binary slot holds the secret, under keys named like values and like server fields. */
    static BsonDocument planted() {
        long eight = ByteBuffer.wrap(SECRET).order(ByteOrder.LITTLE_ENDIAN).getLong();
        byte[] twelve = Arrays.copyOf(SECRET, 12);
        System.arraycopy(SECRET, 0, twelve, 8, 4);
        return new BsonDocument("date", new BsonDateTime(eight)).append("timestamp", new BsonTimestamp(eight))
                .append("long", new BsonInt64(eight)).append("oid", new BsonObjectId(new ObjectId(twelve)))
                .append("s", new BsonString(new String(SECRET, StandardCharsets.US_ASCII)))
                .append("bin", new BsonBinary((byte) 0x00, SECRET)).append("old", new BsonBinary((byte) 0x02, SECRET))
                .append("flag", BsonBoolean.TRUE).append("errmsg", new BsonString("x " + new String(SECRET, StandardCharsets.US_ASCII)))
                .append("nested", new BsonDocument("$limit", new BsonDateTime(eight)).append("i", new BsonInt32(7)))
                .append("arr", new BsonArray(List.of(new BsonDateTime(eight), new BsonString("QZXSECRT"))));
    }

    /** One command or reply to corrupt: byte-backed as a whole, or a plain top level with byte-backed sequence documents. */
    static final class Subject {
        final String name;
        final boolean reply;
        final BsonDocument top;
        /** The parts that are bytes: the whole command, or the sequence documents. */
        final List<byte[]> parts = new ArrayList<>();
        final byte[][] secrets;

        Subject(final String name, final boolean reply, final BsonDocument top, final byte[][] secrets) {
            this.name = name;
            this.reply = reply;
            this.top = top;
            this.secrets = secrets;
        }
    }

    static Subject subject(final Random random) {
        int kind = random.nextInt(5);
        byte[][] secrets = {SECRET};
        switch (kind) {
            case 0: {
                Subject s = new Subject("find", false, null, secrets);
                s.parts.add(DriverShapes.encode(new BsonDocument("find", new BsonString("c")).append("filter", planted())
                        .append("$db", new BsonString("shop"))));
                return s;
            }
            case 1: {
                Subject s = new Subject("insert", false, new BsonDocument("insert", new BsonString("c"))
                        .append("$db", new BsonString("shop")), secrets);
                s.parts.add(DriverShapes.encode(planted()));
                s.parts.add(DriverShapes.encode(planted()));
                return s;
            }
            case 2: {
                Subject s = new Subject("find", true, null, secrets);
                s.parts.add(DriverShapes.encode(new BsonDocument("cursor", new BsonDocument("firstBatch",
                        new BsonArray(List.of(planted(), planted()))).append("id", new BsonInt64(0))
                        .append("ns", new BsonString("shop.c"))).append("ok", new BsonInt32(1))));
                return s;
            }
            default: {
                // the property test's generator: a marker in every kind of user-data position of every command family
                RandomCommands generator = new RandomCommands(random.nextLong());
                RandomCommands.Command command = generator.command();
                // values only: the generator also plants the marker in let keys, and keys are kept wherever a corrupt key
                // byte moves them out of a masked place (keys as data are a documented limit, not a corruption)
                unplantKeys(command.top, generator.marker);
                for (Object sequence : command.sequences) {
                    if (sequence instanceof List) {
                        for (Object document : (List<?>) sequence) {
                            unplantKeys((BsonDocument) document, generator.marker);
                        }
                    }
                }
                byte[][] both = {SECRET, generator.markerBytes};
                if (kind == 4 && command.hasSequences()) {
                    Subject s = new Subject(command.name, false, command.top, both);
                    Object[] pairs = command.sequencePairs();
                    for (int i = 0; i < pairs.length; i += 2) {
                        for (Object document : (List<?>) pairs[i + 1]) {
                            s.parts.add(DriverShapes.encode((BsonDocument) document));
                        }
                    }
                    if (!s.parts.isEmpty()) {
                        return s;
                    }
                }
                Subject s = new Subject(command.name, false, null, both);
                s.parts.add(DriverShapes.encode(command.hasSequences()
                        ? DriverShapes.merged(command.top, command.sequencePairs()) : command.top));
                return s;
            }
        }
    }

    /** Renames, at every depth, the keys that hold the marker. */
    static void unplantKeys(final BsonDocument document, final String marker) {
        for (String key : new ArrayList<>(document.keySet())) {
            BsonValue value = document.get(key);
            unplantKeys(value, marker);
            if (key.contains(marker)) {
                document.remove(key);
                document.put(key.replace(marker, "k"), value);
            }
        }
    }

    private static void unplantKeys(final BsonValue value, final String marker) {
        if (value.isDocument()) {
            unplantKeys(value.asDocument(), marker);
        } else if (value.isArray()) {
            for (BsonValue element : value.asArray()) {
                unplantKeys(element, marker);
            }
        }
    }

    /** @return the number of bytes set: 1 or 2 */
    static int flip(final List<byte[]> parts, final Random random) {
        int flips = 1 + random.nextInt(2);
        for (int f = 0; f < flips; f++) {
            byte[] part = parts.get(random.nextInt(parts.size()));
            int at = random.nextInt(part.length);
            part[at] = random.nextBoolean() ? INTERESTING[random.nextInt(INTERESTING.length)] : (byte) random.nextInt(256);
        }
        return flips;
    }

    /** The driver-shaped input, and whether the driver's own decoding of it throws. */
    static BsonDocument input(final Subject s, final Backing backing) {
        if (s.top == null) {
            return backing.apply(s.parts.get(0).clone());
        }
        BsonDocument command = DriverShapes.deepCopy(s.top);
        BsonArray documents = new BsonArray();
        for (byte[] part : s.parts) {
            documents.add(backing.apply(part.clone()));
        }
        command.append(sequenceKey(s), documents);
        return command;
    }

    /** @return the identifier under which the subject's sequence documents are appended */
    static String sequenceKey(final Subject s) {
        return s.name.equals("insert") ? "documents" : s.name.equals("update") ? "updates" : "deletes";
    }

    /**
     * What a verbatim copy of the subject must hold: the whole bytes, or the top level with each sequence document as the
     * driver's document holds it (its bytes up to its length prefix), which must be framed for a copy to exist at all.
     */
    static byte[] verbatim(final Subject s, final String context) {
        if (s.top == null) {
            return s.parts.get(0);
        }
        List<byte[]> documents = new ArrayList<>();
        for (byte[] part : s.parts) {
            int length = ByteBuffer.wrap(part).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
            if (length < 5 || length > part.length || part[length - 1] != 0) {
                fail(context + ": copied a document whose framing is broken: length=" + length + " bytes=" + part.length);
            }
            documents.add(Arrays.copyOf(part, length));
        }
        return SequenceBytes.merged(s.top, sequenceKey(s), documents);
    }

    static boolean driverRefuses(final Subject s, final Backing backing) {
        try {
            DriverShapes.deepCopy(input(s, backing));
            return false;
        } catch (RuntimeException e) {
            if (Boolean.getBoolean("fuzz.debug")) {
                e.printStackTrace();
            }
            return true;
        }
    }

    static BsonDocument forward(final RedactionPolicy policy, final Subject s, final BsonDocument input) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
        if (s.reply) {
            listener.commandSucceeded(DriverShapes.succeeded(1, s.name, input));
            return last.succeeded.getResponse();
        }
        listener.commandStarted(DriverShapes.started(1, s.name, input));
        return last.started.getCommand();
    }

    @Test
    void corruptBytesBecomeTheMarkerOrValidBsonWithoutSecrets() {
        markerOrValidBson("defaults", RedactionPolicy.defaults(), CASES, true, true);
    }

    /**
     * Policies that replace every value of the subjects in other ways than {@code defaults()} (a cap that cuts inside
     * documents, keys redacted with the values, a field whose flags alone are kept, keys never masked): the same outcome.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("policiesThatReplaceEveryValue")
    void otherPoliciesThatReplaceValuesGiveTheMarkerOrValidBsonWithoutSecrets(final String name, final RedactionPolicy policy) {
        markerOrValidBson(name, policy, CASES / 3, true, true);
    }

    static Stream<Arguments> policiesThatReplaceEveryValue() {
        return Stream.of(
                Arguments.of("cap 200", RedactionPolicy.builder(RedactionPolicy.defaults()).maxDocumentBytes(200).build()),
                Arguments.of("cap 120", RedactionPolicy.builder(RedactionPolicy.defaults()).maxDocumentBytes(120).build()),
                Arguments.of("keys redacted", RedactionPolicy.builder(RedactionPolicy.defaults())
                        .unmatchedCommandAction(FieldAction.REDACT_KEYS).unmatchedReplyAction(FieldAction.REDACT_KEYS).build()),
                Arguments.of("filter flags", RedactionPolicy.builder(RedactionPolicy.defaults())
                        .field("filter", FieldAction.KEEP_FLAGS).build()),
                Arguments.of("keys not masked", RedactionPolicy.builder(RedactionPolicy.defaults()).keyMasking(KeyMasking.NONE)
                        .build()));
    }

    /**
     * Policies that keep values (a kept container, kept sequence documents, a {@code **.} rule, everything kept, kept
     * containers under a cap, scrubbed strings): the secrets they keep leave by design, but where the driver's own decoding
     * refuses the input the output is the marker, and any other output is BSON the driver reads with only text the walk
     * accepts (UTF-8, no NUL in a string): the walk checks what a kept container holds as it checks what it replaces.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("policiesThatKeepValues")
    void policiesThatKeepValuesGiveTheMarkerWhereTheDriverRefuses(final String name, final RedactionPolicy policy) {
        markerOrValidBson(name, policy, CASES / 3, false, true);
    }

    static Stream<Arguments> policiesThatKeepValues() {
        RedactionPolicy defaults = RedactionPolicy.defaults();
        return Stream.of(
                Arguments.of("filter kept", RedactionPolicy.builder(defaults).keep("filter").build()),
                Arguments.of("sequence documents kept", RedactionPolicy.builder(defaults).keep("documents").keep("updates")
                        .keep("deletes").build()),
                Arguments.of("suffix rules", RedactionPolicy.builder(defaults).keep("**.s").keep("**.nested").keep("**.arr")
                        .build()),
                Arguments.of("everything kept", RedactionPolicy.builder(defaults).unmatchedCommandAction(FieldAction.KEEP)
                        .unmatchedReplyAction(FieldAction.KEEP).build()),
                Arguments.of("kept under a cap", RedactionPolicy.builder(defaults).keep("filter").keep("documents")
                        .maxDocumentBytes(300).build()),
                Arguments.of("strings scrubbed", RedactionPolicy.builder(defaults).field("**.s", FieldAction.SCRUB)
                        .field("**.errmsg", FieldAction.SCRUB).build()));
    }

    /**
     * A limit on the documents shown of a sequence or a reply's batch, alone and under a cap: the documents past it are counted,
     * not read (docs/policy.md), so a corruption inside one of them does not give the marker; what is shown holds no secret
     * and is BSON the driver reads.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("sequenceLimits")
    void aSequenceLimitShowsNoSecretOfTheDocumentsItReads(final String name, final RedactionPolicy policy) {
        markerOrValidBson(name, policy, CASES / 3, true, false);
    }

    static Stream<Arguments> sequenceLimits() {
        return Stream.of(
                Arguments.of("limit 1", RedactionPolicy.builder(RedactionPolicy.defaults()).maxSequenceDocuments(1).build()),
                Arguments.of("limit 1, cap 250", RedactionPolicy.builder(RedactionPolicy.defaults()).maxSequenceDocuments(1)
                        .maxDocumentBytes(250).build()));
    }

    /**
     * Corrupts {@code cases} subjects and forwards each under {@code policy}: the marker, or BSON the driver reads; with
     * {@code noSecrets}, no piece of a secret in the output but the documented keys, counted apart; with
     * {@code refusedIsMarker}, the marker wherever the driver's own decoding refuses the input.
     */
    private void markerOrValidBson(final String name, final RedactionPolicy policy, final int cases, final boolean noSecrets,
                                   final boolean refusedIsMarker) {
        int[] markers = new int[2];
        Set<String> textAsKeys = new LinkedHashSet<>();
        Set<String> twoByteKeys = new LinkedHashSet<>();
        for (int i = 0; i < cases; i++) {
            long seed = BASE_SEED + i;
            Random random = new Random(seed);
            Subject s = subject(random);
            List<byte[]> originals = new ArrayList<>();
            for (byte[] part : s.parts) {
                originals.add(part.clone());
            }
            flip(s.parts, random);
            int changed = TextAsElements.changedBytes(originals, s.parts);
            Backing backing = Backing.values()[i % Backing.values().length];
            String context = name + " seed=" + seed + " backing=" + backing + " " + s.name + (s.reply ? " reply" : "");
            BsonDocument forwarded = forward(policy, s, input(s, backing));
            List<String> said = warnedOncePerMarker(forwarded, context);
            for (byte[] secret : noSecrets ? s.secrets : new byte[0][]) {
                for (String text : said) {
                    assertEquals(-1, window(text.getBytes(StandardCharsets.UTF_8), secret), () -> context + ": " + text);
                }
            }
            if (forwarded.containsKey(CommandProcessor.REDACTION_ERROR_KEY)) {
                assertEquals(1, forwarded.size(), context);
                markers[0]++;
                continue;
            }
            markers[1]++;
            byte[] out = DriverShapes.ownedBytes(forwarded);
            for (byte[] secret : noSecrets ? s.secrets : new byte[0][]) {
                for (int at = window(out, secret, 0); at >= 0; at = window(out, secret, at + 1)) {
                    if (TextAsElements.inKeyReadFromText(out, at, WINDOW, originals, s.parts)) {
                        textAsKeys.add(context);
                    } else if (changed == 2 && TextAsElements.inKey(out, at, WINDOW)) {
                        twoByteKeys.add(context);
                    } else {
                        fail(context + ": secret piece at " + at + " in " + forwarded.toJson());
                    }
                }
            }
            BsonDocument read;
            try (BsonBinaryReader reader = new BsonBinaryReader(ByteBuffer.wrap(out))) {
                read = new BsonDocumentCodec().decode(reader, DecoderContext.builder().build());
            } catch (RuntimeException e) {
                throw new AssertionError(context + ": the driver can not read the output: " + e, e);
            }
            String badText = badText(read);
            assertTrue(badText == null, () -> context + ": text the walk refuses was forwarded: " + badText);
            assertTrue(!refusedIsMarker || !driverRefuses(s, backing),
                    () -> context + ": the driver refuses the input, we forwarded " + forwarded.toJson());
        }
        // the corruptions reach both outcomes, so that the assertions above were exercised
        assertTrue(markers[0] > cases / 10 && markers[1] > cases / 10, "markers=" + markers[0] + " forwarded=" + markers[1]);
        if (!noSecrets) {
            return;
        }
        // the documented limits: counted, printed, never a value
        System.out.println(name + ": a string's text read as elements, a secret in their keys: " + textAsKeys.size() + " of " + cases
                + " cases " + textAsKeys + "; two bytes set that make well-formed BSON, a secret in a key: "
                + twoByteKeys.size() + " " + twoByteKeys);
    }

    /**
     * specOnly forwards the marker or an exact copy. A command or reply the driver holds as bytes as a whole is checked element
     * by element: a copy of it is the exact bytes. A plain top level's sequence documents are copied whole with their framing
     * checked only (length prefix within their bytes, terminating NUL): a copy holds each of them exactly as the driver's
     * document does, whatever lies inside, and a document whose framing is broken is never copied.
     */
    @Test
    void specOnlyForwardsTheMarkerOrAnExactCopy() {
        int[] copies = new int[2];
        int[] markers = new int[2];
        for (int i = 0; i < CASES / 2; i++) {
            long seed = BASE_SEED + i;
            Random random = new Random(seed);
            Subject s = subject(random);
            flip(s.parts, random);
            Backing backing = Backing.values()[i % Backing.values().length];
            String context = "seed=" + seed + " backing=" + backing + " " + s.name;
            BsonDocument forwarded = forward(RedactionPolicy.specOnly(), s, input(s, backing));
            warnedOncePerMarker(forwarded, context);
            int kind = s.top == null ? 0 : 1;
            if (forwarded.containsKey(CommandProcessor.REDACTION_ERROR_KEY)) {
                assertEquals(1, forwarded.size(), context);
                markers[kind]++;
                continue;
            }
            copies[kind]++;
            assertArrayEquals(verbatim(s, context), DriverShapes.ownedBytes(forwarded), context);
        }
        // both shapes reach both outcomes, so that the assertions above were exercised
        assertTrue(copies[0] > 0 && copies[1] > 0 && markers[0] > 0 && markers[1] > 0,
                "copies=" + Arrays.toString(copies) + " markers=" + Arrays.toString(markers));
    }

    /**
     * @return the first key or text of the document, at any depth, that the driver read from bytes that are not UTF-8 (it
     *         reads them as U+FFFD) or that holds a NUL, which the walk refuses wherever it keeps text; null if none
     */
    static String badText(final BsonDocument document) {
        for (Map.Entry<String, BsonValue> entry : document.entrySet()) {
            String bad = badText(entry.getKey());
            bad = bad != null ? bad : badText(entry.getValue());
            if (bad != null) {
                return bad;
            }
        }
        return null;
    }

    private static String badText(final BsonValue value) {
        switch (value.getBsonType()) {
            case DOCUMENT:
                return badText(value.asDocument());
            case ARRAY:
                for (BsonValue element : value.asArray()) {
                    String bad = badText(element);
                    if (bad != null) {
                        return bad;
                    }
                }
                return null;
            case STRING:
                return badText(value.asString().getValue());
            case JAVASCRIPT:
                return badText(value.asJavaScript().getCode());
            case SYMBOL:
                return badText(value.asSymbol().getSymbol());
            case DB_POINTER:
                return badText(value.asDBPointer().getNamespace());
            case REGULAR_EXPRESSION:
                String pattern = badText(value.asRegularExpression().getPattern());
                return pattern != null ? pattern : badText(value.asRegularExpression().getOptions());
            case JAVASCRIPT_WITH_SCOPE:
                String code = badText(value.asJavaScriptWithScope().getCode());
                return code != null ? code : badText(value.asJavaScriptWithScope().getScope());
            default:
                return null;
        }
    }

    private static String badText(final String text) {
        return text.indexOf('\uFFFD') >= 0 || text.indexOf('\0') >= 0 ? text : null;
    }

    /** Each case has a listener of its own: it warns once when it forwards the marker (its first failure), else not at all. */
    private List<String> warnedOncePerMarker(final BsonDocument forwarded, final String context) {
        List<String> said = warnings.drain();
        if (forwarded.containsKey(CommandProcessor.REDACTION_ERROR_KEY)) {
            assertEquals(1, said.size(), () -> context + ": " + said);
            assertTrue(said.get(0).contains("a marker document was forwarded in its place"), () -> context + ": " + said);
        } else {
            assertEquals(List.of(), said, context);
        }
        return said;
    }

    /** @return where a {@link #WINDOW}-byte piece of the secret occurs, or -1 */
    static int window(final byte[] haystack, final byte[] secret) {
        return window(haystack, secret, 0);
    }

    /** @return the first place from {@code from} where a {@link #WINDOW}-byte piece of the secret occurs, or -1 */
    static int window(final byte[] haystack, final byte[] secret, final int from) {
        for (int i = from; i + WINDOW <= haystack.length; i++) {
            pieces:
            for (int start = 0; start + WINDOW <= secret.length; start++) {
                for (int j = 0; j < WINDOW; j++) {
                    if (haystack[i + j] != secret[start + j]) {
                        continue pieces;
                    }
                }
                return i;
            }
        }
        return -1;
    }
}
