package io.github.mongoredact.internal.walk;

import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.PlaceholderStyle;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.bson.Workspace;
import io.github.mongoredact.internal.rules.CompiledPolicies;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tight loops for rule-free documents write what the general path writes. A policy with a {@code **.} rule whose key never
 * occurs runs the general path everywhere (a suffix rule may match any key), with the same actions: the two outputs, sizes,
 * fingerprints and counts must be identical.
 */
class PlaceholderRunTest {
    private static final String ABSENT = "**.keyThatNoGeneratedCommandHolds";

    /** 150 random commands x 4 placeholder styles x fingerprint on and off: 1,200 walks compared with the general path. */
    @Test
    void ruleFreeDocumentsComeOutAsTheGeneralPathWritesThem() {
        Random random = new Random(23);
        for (int round = 0; round < 150; round++) {
            RandomCommands.Command command = new RandomCommands(random.nextLong()).command();
            byte[] src = DriverShapes.encode(RedactionPropertiesTest.merged(command));
            for (PlaceholderStyle style : PlaceholderStyle.values()) {
                RedactionPolicy fast = RedactionPolicy.builder().placeholderStyle(style).build();
                RedactionPolicy general = RedactionPolicy.builder().placeholderStyle(style).redact(ABSENT).build();
                assertSameWalk(src, command.name, fast, general, "round=" + round + " style=" + style);
            }
        }
    }

    @Test
    void elementsTheLoopDoesNotTakeGoToTheGeneralPathAndTheLoopResumes() {
        BsonDocument odd = new BsonDocument("a", new BsonInt32(1))
                .append("nested", new BsonDocument("x", new BsonString("secret")).append("y", new BsonArray()))
                .append("already", new BsonString("?string"))
                .append("bin", new BsonBinary(new byte[]{1, 2, 3}))
                .append("clé", new BsonString("secret"))
                .append("flag", BsonBoolean.TRUE)
                .append("b", new BsonString("secret"));
        BsonArray documents = new BsonArray();
        documents.add(new BsonDocument("plain", new BsonString("secret")));
        documents.add(odd);
        documents.add(new BsonDocument("plain", new BsonInt32(7)));
        documents.add(new BsonInt32(42));
        byte[] src = DriverShapes.encode(new BsonDocument("insert", new BsonString("c")).append("documents", documents)
                .append("$db", new BsonString("db")));
        RedactionPolicy general = RedactionPolicy.builder().redact(ABSENT).build();
        byte[] written = assertSameWalk(src, "insert", RedactionPolicy.defaults(), general, "odd documents");
        String text = new String(written, java.nio.charset.StandardCharsets.ISO_8859_1);
        assertFalse(text.contains("secret"), "a value left in " + text);
        assertTrue(text.contains("?string") && text.contains("?binData") && text.contains("?bool"), text);
    }

    @Test
    void keysThatLookLikeDataAreLeftToTheGeneralPathAndMaskedAlike() {
        String[] keys = {"alice@example.com", "prefs.bob@example.com", "stats.2026-12-01.count", "name", "items.0.qty",
                "sessions.c29tZS1yYW5kb20tdG9rZW4", "6b0dd09aa86bc4d263d28547", "+1 555 0100", "firstName", "$set", "_id",
                "x".repeat(40)};
        Random random = new Random(5);
        BsonArray documents = new BsonArray();
        for (int i = 0; i < 40; i++) {
            BsonDocument document = new BsonDocument();
            for (int k = 0; k < 1 + random.nextInt(5); k++) {
                String key = keys[random.nextInt(keys.length)];
                if (!document.containsKey(key)) {
                    document.append(key, random.nextBoolean() ? new BsonString("v" + i) : new BsonInt32(i));
                }
            }
            documents.add(document);
        }
        byte[] src = DriverShapes.encode(new BsonDocument("insert", new BsonString("c")).append("documents", documents)
                .append("$db", new BsonString("db")));
        RedactionPolicy general = RedactionPolicy.builder().redact(ABSENT).build();
        byte[] written = assertSameWalk(src, "insert", RedactionPolicy.defaults(), general, "data-like keys");
        String text = new String(written, java.nio.charset.StandardCharsets.ISO_8859_1);
        for (String data : new String[]{"@example.com", "2026", "c29tZS1y", "6b0dd09a", "555"}) {
            assertFalse(text.contains(data), data + " left in " + text);
        }
        assertTrue(text.contains("sessions.?key") && text.contains("stats.?key.count") && text.contains("items.0.qty")
                && text.contains("firstName"), text);
        // keys kept as they are: the loop takes every document whole
        RedactionPolicy keepKeys = RedactionPolicy.builder().keyMasking(io.github.mongoredact.KeyMasking.NONE).build();
        RedactionPolicy keepKeysGeneral = RedactionPolicy.builder(keepKeys).redact(ABSENT).build();
        String kept = new String(assertSameWalk(src, "insert", keepKeys, keepKeysGeneral, "keys kept"),
                java.nio.charset.StandardCharsets.ISO_8859_1);
        assertTrue(kept.contains("prefs.bob@example.com") && !kept.contains("?key"), kept);
    }

    /**
     * Keys are copied eight bytes at a time while they are letters and the like: keys of 1 to 24 bytes with a byte of each
     * kind (a digit, {@code @}, a space, punctuation, a byte past ASCII; a control character or DEL, refused) at each place,
     * in documents nested and not, come out as the general path writes them.
     */
    @Test
    void keysOfEveryLengthWithEveryKindOfByteComeOutAsTheGeneralPathWritesThem() {
        String[] odd = {"7", "@", " ", "_", ".", "$", "\u00e9", "Z", "~"};
        RedactionPolicy general = RedactionPolicy.builder().redact(ABSENT).build();
        RedactionPolicy keepKeys = RedactionPolicy.builder().keyMasking(io.github.mongoredact.KeyMasking.NONE).build();
        RedactionPolicy keepKeysGeneral = RedactionPolicy.builder(keepKeys).redact(ABSENT).build();
        for (int length = 1; length <= 24; length++) {
            BsonArray documents = new BsonArray();
            for (int at = 0; at < length; at++) {
                for (String b : odd) {
                    String key = "k".repeat(at) + b + "k".repeat(length - at - 1);
                    documents.add(new BsonDocument(key, new BsonString("secret"))
                            .append("n", new BsonDocument(key, new BsonInt32(at)).append("last" + key, new BsonArray()))
                            .append("e", BsonBoolean.FALSE));
                }
            }
            byte[] src = DriverShapes.encode(new BsonDocument("insert", new BsonString("c")).append("documents", documents)
                    .append("$db", new BsonString("db")));
            assertSameWalk(src, "insert", RedactionPolicy.defaults(), general, "length=" + length);
            assertSameWalk(src, "insert", keepKeys, keepKeysGeneral, "keys kept, length=" + length);
            for (int at = 0; at < length; at++) {
                for (String control : new String[]{"\u0001", "\u007f"}) {
                    // a control character, DEL (the MaxKey type byte) included: refused by both
                    String key = "k".repeat(at) + control + "k".repeat(length - at - 1);
                    byte[] refused = DriverShapes.encode(new BsonDocument("insert", new BsonString("c")).append("documents",
                            new BsonArray(java.util.List.of(new BsonDocument("n", new BsonDocument(key, new BsonInt32(1))))))
                            .append("$db", new BsonString("db")));
                    for (RedactionPolicy policy : new RedactionPolicy[]{RedactionPolicy.defaults(), general}) {
                        assertThrows(BsonFormatException.class, () -> walk(refused, "insert", policy, "control character"),
                                "length=" + length + " at=" + at + " control=" + (int) control.charAt(0));
                    }
                }
            }
        }
    }

    /**
     * Documents and arrays nested in a rule-free document are taken by the loop's own levels: array keys written as positions
     * (also where the sent keys are not), empty ones, arrays of arrays; and where a nested level holds what the loop leaves
     * to the general path (a binary, a key that looks like data, a key past ASCII, more levels than the loop holds, a broken
     * length), the element of the document that holds it goes to the general path whole, with the same output.
     */
    @Test
    void nestedDocumentsAndArraysComeOutAsTheGeneralPathWritesThem() {
        BsonDocument deep = new BsonDocument("leaf", new BsonString("secret"));
        for (int i = 0; i < RuleFreeLoop.MAX_LEVELS + 8; i++) {
            deep = new BsonDocument("l" + i, i % 2 == 0 ? deep : new BsonArray(java.util.List.of(deep, new BsonInt32(i))));
        }
        BsonArray matrix = new BsonArray();
        for (int i = 0; i < 12; i++) {
            matrix.add(new BsonArray(java.util.List.of(new BsonInt32(i), new BsonString("s" + i), new BsonArray(),
                    new BsonDocument())));
        }
        BsonDocument[] variants = {
                new BsonDocument("address", new BsonDocument("street", new BsonString("1 Main St"))
                        .append("geo", new BsonDocument("lat", new org.bson.BsonDouble(1.5)).append("tags", new BsonArray(
                                java.util.List.of(new BsonString("a"), new BsonString("b"))))))
                        .append("matrix", matrix).append("empty", new BsonDocument()).append("none", new BsonArray()),
                new BsonDocument("a", new BsonDocument("b", new BsonArray(java.util.List.of(new BsonDocument("bin",
                        new BsonBinary(new byte[]{1, 2})))))).append("after", new BsonInt32(1)),
                new BsonDocument("a", new BsonDocument("prefs", new BsonDocument("alice@example.com", BsonBoolean.TRUE)))
                        .append("after", new BsonString("x")),
                new BsonDocument("a", new BsonArray(java.util.List.of(new BsonDocument("clé", new BsonString("v")))))
                        .append("after", new BsonString("x")),
                new BsonDocument("deep", deep).append("after", new BsonString("x")),
                new BsonDocument("odd", new BsonDocument("x", new BsonInt32(1)).append("y", new BsonString("v")))
                        .append("after", new BsonString("x"))};
        int v = 0;
        for (BsonDocument variant : variants) {
            BsonArray documents = new BsonArray();
            for (int i = 0; i < 3; i++) {
                documents.add(variant.clone().append("i", new BsonInt32(i)));
            }
            byte[] src = DriverShapes.encode(new BsonDocument("insert", new BsonString("c")).append("documents", documents)
                    .append("$db", new BsonString("db")));
            if (v == variants.length - 1) {
                // the document {"x": .., "y": ..} turned into an array: its keys are not positions
                for (int at = indexOf(src, new byte[]{0x03, 'o', 'd', 'd', 0}); at >= 0; at = indexOf(src, at + 1)) {
                    src[at] = 0x04;
                }
            }
            RedactionPolicy general = RedactionPolicy.builder().redact(ABSENT).build();
            String text = new String(assertSameWalk(src, "insert", RedactionPolicy.defaults(), general, "variant=" + v),
                    java.nio.charset.StandardCharsets.ISO_8859_1);
            assertFalse(text.contains("secret") || text.contains("Main St") || text.contains("s11"), text);
            v++;
        }
        // a nested length past its document: refused, as by the general path
        byte[] src = DriverShapes.encode(new BsonDocument("insert", new BsonString("c")).append("documents",
                new BsonArray(java.util.List.of(new BsonDocument("n", new BsonDocument("a", new BsonInt32(1)))))));
        int at = indexOf(src, new byte[]{0x03, 'n', 0});
        src[at + 3] += 9;
        CompiledPolicy compiled = CompiledPolicies.compile(RedactionPolicy.defaults());
        RedactionWalker walker = new RedactionWalker();
        assertThrows(BsonFormatException.class,
                () -> walker.size(src, 0, src.length, compiled.commandRules("insert"), true, compiled));
    }

    /**
     * The documents of an array held in the command's own bytes: a name that is the element's position is matched against
     * it, any other (a digit and more, another position, punctuation, a leading zero, a space) is read to its end; either way
     * the output names the element by its position, as the general path does. A name with a control character is refused
     * on both paths.
     */
    @Test
    void arrayDocumentsWhoseNamesAreNotTheirPositionsComeOutAsTheGeneralPathWritesThem() {
        String[] names = {"0", "1x", "x", "3", "00", "5 ", "$6", "777", "8", "9", "10", "1", "12"};
        BsonDocument documents = new BsonDocument();
        for (int i = 0; i < names.length; i++) {
            documents.append(names[i], new BsonDocument("a", new BsonString("secret")).append("i", new BsonInt32(i)));
        }
        byte[] src = DriverShapes.encode(new BsonDocument("insert", new BsonString("c")).append("documents", documents)
                .append("$db", new BsonString("db")));
        // the document becomes an array whose element names are the ones above
        src[indexOf(src, new byte[]{0x03, 'd', 'o', 'c', 'u', 'm', 'e', 'n', 't', 's', 0})] = 0x04;
        RedactionPolicy general = RedactionPolicy.builder().redact(ABSENT).build();
        byte[] written = assertSameWalk(src, "insert", RedactionPolicy.defaults(), general, "names not positions");
        String text = new String(written, java.nio.charset.StandardCharsets.ISO_8859_1);
        assertFalse(text.contains("secret") || text.contains("1x") || text.contains("777") || text.contains("$6"), text);
        for (int i = 0; i < names.length; i++) {
            assertTrue(text.contains("\u0003" + i + "\u0000"), "element " + i + " named by its position: " + text);
        }
        // a control character in a name: refused by both paths
        int at = indexOf(src, new byte[]{0x03, 'x', 0});
        src[at + 1] = 0x01;
        CompiledPolicy compiled = CompiledPolicies.compile(RedactionPolicy.defaults());
        CompiledPolicy compiledGeneral = CompiledPolicies.compile(general);
        RedactionWalker walker = new RedactionWalker();
        assertThrows(BsonFormatException.class,
                () -> walker.size(src, 0, src.length, compiled.commandRules("insert"), true, compiled));
        assertThrows(BsonFormatException.class,
                () -> walker.size(src, 0, src.length, compiledGeneral.commandRules("insert"), true, compiledGeneral));
    }

    /**
     * Documents nested down to the reader's bound and past it: the rule-free loop takes {@link RuleFreeLoop#MAX_LEVELS} levels
     * at a time, the general path the element it stops at, down to the deepest document accepted; past the bound the command
     * is refused alike (the frame check before the walk refuses it, so the loop's own bound on depth is a second guard).
     */
    @Test
    void documentsNestedToTheDepthBoundComeOutAsTheGeneralPathWritesThem() {
        RedactionPolicy general = RedactionPolicy.builder().redact(ABSENT).build();
        int written = 0;
        int refused = 0;
        for (int levels = BsonBounds.MAX_DEPTH - 2 * RuleFreeLoop.MAX_LEVELS; levels <= BsonBounds.MAX_DEPTH + 2; levels++) {
            byte[] src = insertOf(nested(levels));
            String context = "levels=" + levels;
            BsonFormatException generalError = null;
            try {
                walk(src, "insert", general, context);
            } catch (BsonFormatException e) {
                generalError = e;
            }
            if (generalError == null) {
                byte[] out = assertSameWalk(src, "insert", RedactionPolicy.defaults(), general, context);
                assertFalse(new String(out, java.nio.charset.StandardCharsets.ISO_8859_1).contains("secret"), context);
                written++;
            } else {
                String expected = generalError.getMessage();
                BsonFormatException fast = assertThrows(BsonFormatException.class,
                        () -> walk(src, "insert", RedactionPolicy.defaults(), context), context);
                assertEquals(expected, fast.getMessage(), context);
                refused++;
            }
        }
        // the range holds both sides of the bound
        assertTrue(written > RuleFreeLoop.MAX_LEVELS && refused > 0, "written=" + written + " refused=" + refused);
    }

    /**
     * @return {@code {a: [{a: [ ... {s: "secret", n: 1} ... ]}]}}, documents and arrays alternating: {@code levels} documents
     *         and arrays in all
     */
    private static byte[] nested(final int levels) {
        byte[] inner = document(element(BsonTypes.STRING, "s", string("secret")), element(BsonTypes.INT32, "n",
                new byte[]{1, 0, 0, 0}));
        byte innerType = BsonTypes.DOCUMENT;
        for (int level = 1; level < levels || innerType != BsonTypes.DOCUMENT; level++) {
            boolean array = innerType == BsonTypes.DOCUMENT;
            inner = document(element(innerType, array ? "0" : "a", inner));
            innerType = array ? BsonTypes.ARRAY : BsonTypes.DOCUMENT;
        }
        return inner;
    }

    /** @return {@code {insert: "c", documents: [document], $db: "db"}} as the driver's encoder lays it out, by hand */
    private static byte[] insertOf(final byte[] document) {
        return document(element(BsonTypes.STRING, "insert", string("c")),
                element(BsonTypes.ARRAY, "documents", document(element(BsonTypes.DOCUMENT, "0", document))),
                element(BsonTypes.STRING, "$db", string("db")));
    }

    @Test
    void valueOverrunningItsDocumentIsRefusedInARuleFreeDocument() {
        BsonArray documents = new BsonArray();
        documents.add(new BsonDocument("a", new BsonInt32(1)));
        byte[] src = DriverShapes.encode(new BsonDocument("insert", new BsonString("c")).append("documents", documents));
        // {"a": int32} -> {"a": double}: 8 value bytes where the document has 4 and its terminator
        int at = indexOf(src, new byte[]{0x10, 'a', 0, 1, 0, 0, 0, 0});
        src[at] = 0x01;
        CompiledPolicy compiled = CompiledPolicies.compile(RedactionPolicy.defaults());
        RedactionWalker walker = new RedactionWalker();
        assertThrows(BsonFormatException.class,
                () -> walker.size(src, 0, src.length, compiled.commandRules("insert"), true, compiled));
    }

    /** @return the bytes the fast policy wrote */
    private static byte[] assertSameWalk(final byte[] src, final String name, final RedactionPolicy fast,
                                         final RedactionPolicy general, final String context) {
        byte[] expected = walk(src, name, general, context);
        byte[] actual = walk(src, name, fast, context);
        assertArrayEquals(expected, actual, context);
        return actual;
    }

    /**
     * @return size, fingerprint and values redacted (as 8-byte prefixes), then the output written in one pass: with the
     *         fingerprint (rule-free runs only where it does not look), then without it (rule-free everywhere no rule reaches)
     */
    private static byte[] walk(final byte[] src, final String name, final RedactionPolicy policy, final String context) {
        byte[] withFingerprint = walk(src, name, policy, true, context);
        byte[] without = walk(src, name, policy, false, context + " without fingerprint");
        assertArrayEquals(Arrays.copyOfRange(withFingerprint, 24, withFingerprint.length),
                Arrays.copyOfRange(without, 24, without.length), context + ": the output does not depend on the fingerprint");
        return withFingerprint;
    }

    private static byte[] walk(final byte[] src, final String name, final RedactionPolicy policy, final boolean fingerprint,
                               final String context) {
        CompiledPolicy compiled = CompiledPolicies.compile(policy);
        CompiledPolicy.RuleSet rules = compiled.commandRules(name);
        RedactionWalker walker = new RedactionWalker();
        walker.bind(src, 0, src.length, rules, true, compiled);
        int size = walker.write(new Workspace.Scratch(), new byte[0], fingerprint);
        byte[] scratch = walker.written();
        byte[] result = new byte[24 + size];
        java.nio.ByteBuffer.wrap(result).putLong(size).putLong(walker.fingerprint()).putLong(walker.valuesRedacted());
        System.arraycopy(scratch, 0, result, 24, size);
        walker.clear();
        // the counting pass agrees with the writing one
        walker.bind(src, 0, src.length, rules, true, compiled);
        assertEquals(size, walker.analyse(fingerprint), context);
        walker.clear();
        return result;
    }

    /** @return a document of the given elements */
    private static byte[] document(final byte[]... elements) {
        int length = 5;
        for (byte[] element : elements) {
            length += element.length;
        }
        byte[] document = new byte[length];
        Bytes.writeInt(document, 0, length);
        int at = 4;
        for (byte[] element : elements) {
            System.arraycopy(element, 0, document, at, element.length);
            at += element.length;
        }
        return document;
    }

    private static byte[] element(final byte type, final String key, final byte[] value) {
        byte[] name = key.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] element = new byte[1 + name.length + 1 + value.length];
        element[0] = type;
        System.arraycopy(name, 0, element, 1, name.length);
        System.arraycopy(value, 0, element, name.length + 2, value.length);
        return element;
    }

    private static byte[] string(final String text) {
        byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        int length = bytes.length + 1;
        byte[] value = new byte[4 + length];
        Bytes.writeInt(value, 0, length);
        System.arraycopy(bytes, 0, value, 4, bytes.length);
        return value;
    }

    private static int indexOf(final byte[] src, final byte[] pattern) {
        for (int i = 0; i + pattern.length <= src.length; i++) {
            if (Arrays.equals(Arrays.copyOfRange(src, i, i + pattern.length), pattern)) {
                return i;
            }
        }
        throw new AssertionError("pattern not found");
    }

    /** @return the next {@code {0x03, 'o', 'd', 'd', 0}} from {@code from}, or -1 */
    private static int indexOf(final byte[] src, final int from) {
        byte[] pattern = {0x03, 'o', 'd', 'd', 0};
        for (int i = from; i + pattern.length <= src.length; i++) {
            if (Arrays.equals(Arrays.copyOfRange(src, i, i + pattern.length), pattern)) {
                return i;
            }
        }
        return -1;
    }
}
