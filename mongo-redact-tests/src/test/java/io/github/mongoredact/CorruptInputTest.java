package io.github.mongoredact;

import io.github.mongoredact.DriverShapes.Backing;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.log.CapturedLog;
import io.github.mongoredact.log.CommandLogSink;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.github.mongoredact.otel.OpenTelemetryCommandSink;
import io.github.mongoredact.otel.Spans;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.bson.BsonBinary;
import org.bson.BsonBinaryReader;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bytes that are not valid BSON never reach downstream: the event is forwarded with a marker document
 * {@code {"$redactionError": "..."}} that says what failed, counted, and nothing is thrown into the driver.
 */
class CorruptInputTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();

    private static final String SECRET = "alice@example.com";

    /** A valid find whose filter holds the secret. */
    static byte[] valid() {
        return DriverShapes.encode(new BsonDocument("find", new BsonString("customers"))
                .append("filter", new BsonDocument("email", new BsonString(SECRET)))
                .append("$db", new BsonString("shop")));
    }

    static int indexOf(final byte[] bytes, final String text) {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = 0; i + needle.length <= bytes.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (bytes[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    static Stream<Arguments> corruptionsUnderEveryPolicy() {
        List<Arguments> cases = new ArrayList<>();
        corruptions().forEach(arguments -> {
            for (String policy : new String[]{"specOnly", "defaults"}) {
                Object[] a = arguments.get();
                cases.add(Arguments.of(a[0], a[1], policy));
            }
        });
        return cases.stream();
    }

    /** The driver's document can only be made over a length that fits its buffer. */
    static Stream<Arguments> driverDocumentCorruptionsUnderEveryPolicy() {
        return corruptionsUnderEveryPolicy().filter(arguments -> {
            byte[] corrupt = ((Supplier<?>) arguments.get()[1]).get() instanceof byte[]
                    ? (byte[]) ((Supplier<?>) arguments.get()[1]).get() : new byte[0];
            return readInt(corrupt) >= 5 && readInt(corrupt) <= corrupt.length;
        });
    }

    static RedactionPolicy policy(final String name) {
        return name.equals("specOnly") ? RedactionPolicy.specOnly() : RedactionPolicy.defaults();
    }

    static Stream<Arguments> corruptions() {
        List<Arguments> cases = new ArrayList<>();
        cases.add(Arguments.of("document length larger than the bytes", (Supplier<byte[]>) () -> {
            byte[] b = valid();
            writeInt(b, 0, b.length + 40);
            return b;
        }));
        cases.add(Arguments.of("document length smaller than its elements", (Supplier<byte[]>) () -> {
            byte[] b = valid();
            writeInt(b, 0, 20);
            return b;
        }));
        cases.add(Arguments.of("truncated string", (Supplier<byte[]>) () -> {
            byte[] b = valid();
            int at = indexOf(b, SECRET);
            // the string's own length now runs past the end of the document
            writeInt(b, at - 4, 500);
            return b;
        }));
        cases.add(Arguments.of("bytes cut off in the middle", (Supplier<byte[]>) () -> {
            byte[] b = valid();
            int at = indexOf(b, SECRET) + 5;
            byte[] cut = Arrays.copyOf(b, at);
            writeInt(cut, 0, cut.length);
            return cut;
        }));
        cases.add(Arguments.of("unknown type", (Supplier<byte[]>) () -> {
            byte[] b = valid();
            int at = indexOf(b, "email") - 1;
            b[at] = 0x20;
            return b;
        }));
        cases.add(Arguments.of("missing terminating NUL", (Supplier<byte[]>) () -> {
            byte[] b = valid();
            b[b.length - 1] = 1;
            return b;
        }));
        cases.add(Arguments.of("nested deeper than the driver writes", (Supplier<byte[]>) () -> deep(BsonBounds.MAX_DEPTH)));
        return cases.stream();
    }

    /**
     * A find with the secret at the bottom of {@code depth} nested documents, {@code depth + 2} levels with the top, built
     * without the driver's writer (which refuses more than 1024).
     */
    static byte[] deep(final int depth) {
        return DeepNestingTest.deepFind(depth);
    }

    /** A find whose filter (and {@code $db}) are given, encoded. */
    static byte[] find(final BsonDocument filter) {
        return DriverShapes.encode(new BsonDocument("find", new BsonString("customers")).append("filter", filter)
                .append("$db", new BsonString("shop")));
    }

    /**
     * Bytes the driver's decoder refuses, or that would turn a value into a kept key or a kept string into something that is
     * not text: framed well enough for a verbatim copy, refused by a redacting policy.
     */
    static Stream<Arguments> refusedUnderRedactingPolicies() {
        long eight = ByteBuffer.wrap("QZXSECRT".getBytes(StandardCharsets.US_ASCII)).order(ByteOrder.LITTLE_ENDIAN).getLong();
        List<Arguments> cases = new ArrayList<>();
        cases.add(Arguments.of("the NUL of a key becomes a type byte: the value runs into the key", (Supplier<byte[]>) () -> {
            byte[] b = find(new BsonDocument("date", new BsonDateTime(eight)).append("timestamp", new BsonTimestamp(eight)));
            b[indexOf(b, "date") + 4] = 0x05;
            return b;
        }));
        cases.add(Arguments.of("boolean 5", (Supplier<byte[]>) () -> {
            byte[] b = find(new BsonDocument("flag", BsonBoolean.TRUE));
            b[indexOf(b, "flag") + 5] = 5;
            return b;
        }));
        cases.add(Arguments.of("old binary with an inconsistent inner length", (Supplier<byte[]>) () -> {
            byte[] b = find(new BsonDocument("bin", new BsonBinary((byte) 2, SECRET.getBytes(StandardCharsets.UTF_8))));
            int inner = indexOf(b, "bin") + 4 + 4 + 1;
            writeInt(b, inner, readIntAt(b, inner) - 1);
            return b;
        }));
        cases.add(Arguments.of("a key that is not UTF-8", (Supplier<byte[]>) () -> {
            byte[] b = valid();
            b[indexOf(b, "email") + 1] = (byte) 0xFF;
            return b;
        }));
        cases.add(Arguments.of("a kept string that is not UTF-8", (Supplier<byte[]>) () -> {
            byte[] b = valid();
            b[indexOf(b, "shop") + 1] = (byte) 0xC3;
            return b;
        }));
        cases.add(Arguments.of("a kept string with a NUL inside", (Supplier<byte[]>) () -> {
            byte[] b = valid();
            b[indexOf(b, "shop") + 2] = 0;
            return b;
        }));
        return cases.stream();
    }

    static int readIntAt(final byte[] b, final int index) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(index);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedUnderRedactingPolicies")
    void refusedBytesAreForwardedAsMarkerUnderDefaults(final String what, final Supplier<byte[]> bytes) {
        for (Backing backing : Backing.values()) {
            LastEventListener last = new LastEventListener();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                    .addListener(last).build();
            listener.commandStarted(DriverShapes.started(1, "find", backing.apply(bytes.get())));
            assertMarker(what + " " + backing, last.started.getCommand());
            assertEquals(1, listener.getCounters().getRedactionFailures(), what + " " + backing);
        }
    }

    static void writeInt(final byte[] b, final int index, final int value) {
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(index, value);
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("corruptionsUnderEveryPolicy")
    void corruptCommandIsForwardedAsMarkerUnderEveryPolicy(final String what, final Supplier<byte[]> bytes, final String policyName) {
        RedactionPolicy policy = policy(policyName);
        {
            LastEventListener last = new LastEventListener();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
            assertDoesNotThrow(() -> listener.commandStarted(DriverShapes.started(1, "find", new RawBsonDocument(bytes.get()))));
            assertMarker(what + " " + policyName, last.started.getCommand());
            assertEquals(1, listener.getCounters().getRedactionFailures(), what + " " + policyName);
            assertEquals(1, listener.getCounters().getEventsForwarded());
            assertEquals("find", last.started.getCommandName());
        }
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("corruptionsUnderEveryPolicy")
    void corruptReplyIsForwardedAsMarkerUnderEveryPolicy(final String what, final Supplier<byte[]> bytes, final String policyName) {
        RedactionPolicy policy = policy(policyName);
        {
            LastEventListener last = new LastEventListener();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
            assertDoesNotThrow(() -> listener.commandSucceeded(DriverShapes.succeeded(1, "find",
                    new RawBsonDocument(bytes.get()))));
            assertMarker(what + " " + policyName, last.succeeded.getResponse());
            assertEquals(1, listener.getCounters().getRedactionFailures(), what + " " + policyName);
        }
    }

    /**
     * The corruptions that lie inside a document whose own framing (length prefix, terminating NUL) is intact: a verbatim
     * copy of a sequence document checks its framing only, and copies them as the driver sent them.
     */
    static final Set<String> INSIDE_A_WELL_FRAMED_DOCUMENT = Set.of("truncated string", "unknown type",
            "nested deeper than the driver writes");

    /** Every corruption under defaults; under specOnly, those that break the sequence document's own framing. */
    static Stream<Arguments> sequenceDocumentCorruptionsRefused() {
        return corruptionsUnderEveryPolicy().filter(arguments -> !(arguments.get()[2].equals("specOnly")
                && INSIDE_A_WELL_FRAMED_DOCUMENT.contains((String) arguments.get()[0])));
    }

    static Stream<Arguments> insideAWellFramedDocument() {
        List<Arguments> cases = new ArrayList<>();
        corruptions().filter(arguments -> INSIDE_A_WELL_FRAMED_DOCUMENT.contains((String) arguments.get()[0]))
                .forEach(arguments -> {
                    for (Backing backing : Backing.values()) {
                        cases.add(Arguments.of(arguments.get()[0], arguments.get()[1], backing));
                    }
                });
        return cases.stream();
    }

    static BsonDocument insertTop() {
        return new BsonDocument("insert", new BsonString("customers")).append("$db", new BsonString("shop"));
    }

    /**
     * Under defaults every corruption of a sequence document is refused (the walk validates what it keeps); under specOnly
     * those that break the document's framing (a length prefix that does not say its bytes, a missing terminating NUL),
     * without which no reader could find where the next document starts.
     */
    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("sequenceDocumentCorruptionsRefused")
    void corruptSequenceDocumentIsForwardedAsMarker(final String what, final Supplier<byte[]> bytes, final String policyName) {
        RedactionPolicy policy = policy(policyName);
        {
            LastEventListener last = new LastEventListener();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
            BsonDocument insert = insertTop();
            insert.append("documents", new org.bson.BsonArray(List.of(new RawBsonDocument(valid()),
                    new RawBsonDocument(bytes.get()))));
            assertDoesNotThrow(() -> listener.commandStarted(DriverShapes.started(1, "insert", insert)));
            assertMarker(what + " " + policyName, last.started.getCommand());
            assertEquals(1, listener.getCounters().getRedactionFailures());
        }
    }

    /**
     * specOnly copies each sequence document whole with its framing checked, and does not read inside it: a corruption inside
     * a well-framed document is forwarded as exactly the bytes the driver sent, in every backing, and nothing is counted as
     * failed. (A command the driver holds as bytes as a whole, and a reply, are still checked element by element: see
     * {@link #corruptCommandIsForwardedAsMarkerUnderEveryPolicy}.)
     */
    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("insideAWellFramedDocument")
    void specOnlyForwardsACorruptionInsideAWellFramedSequenceDocumentVerbatim(final String what,
            final Supplier<byte[]> bytes, final Backing backing) {
        byte[] corrupt = bytes.get();
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                .addListener(last).build();
        BsonDocument insert = insertTop().append("documents", new org.bson.BsonArray(List.of(backing.apply(valid()),
                backing.apply(corrupt))));
        assertDoesNotThrow(() -> listener.commandStarted(DriverShapes.started(1, "insert", insert)));
        assertArrayEquals(SequenceBytes.merged(insertTop(), "documents", List.of(valid(), corrupt)),
                DriverShapes.ownedBytes(last.started.getCommand()), what + " " + backing);
        assertEquals(0, listener.getCounters().getRedactionFailures(), what + " " + backing);
    }

    /**
     * With sinks attached, specOnly's analysis (collection, fingerprint) walks a sample (the top level and the first document
     * of the sequence), so the copy forwarded is the same exact copy as without sinks, and the sinks take it without throwing
     * into the driver: the log sink renders it, or shows its render error, and counts that.
     */
    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("insideAWellFramedDocument")
    void sinksTakeAVerbatimCopyWithACorruptionInsideWithoutThrowing(final String what, final Supplier<byte[]> bytes,
                                                                    final Backing backing) {
        byte[] corrupt = bytes.get();
        try (CapturedLog log = new CapturedLog("debug")) {
            LastEventListener last = new LastEventListener();
            CommandLogSink logSink = CommandLogSink.builder().loggerName(log.loggerName).build();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                    .addListener(last).addSink(logSink)
                    .addSink(MicrometerCommandSink.builder(new SimpleMeterRegistry()).fingerprintTag(true).build())
                    .build();
            BsonDocument insert = insertTop().append("documents", new org.bson.BsonArray(List.of(backing.apply(valid()),
                    backing.apply(corrupt))));
            assertDoesNotThrow(() -> listener.commandStarted(DriverShapes.started(1, "insert", insert)));
            assertDoesNotThrow(() -> listener.commandSucceeded(DriverShapes.succeeded(1, "insert",
                    new RawBsonDocument(DriverShapes.encode(new BsonDocument("ok", new BsonInt32(1)))))));
            assertArrayEquals(SequenceBytes.merged(insertTop(), "documents", List.of(valid(), corrupt)),
                    DriverShapes.ownedBytes(last.started.getCommand()), what + " " + backing);
            assertEquals(0, listener.getCounters().getRedactionFailures(), what + " " + backing);
            assertEquals(0, listener.getCounters().getSinkFailures(), what + " " + backing);
            List<String> started = log.lines().stream().filter(line -> line.contains("Command \"insert\" started"))
                    .collect(Collectors.toList());
            assertEquals(1, started.size(), log.text());
            boolean renderError = started.get(0).contains("$renderError");
            assertEquals(renderError ? 1 : 0, logSink.getFailures(), started.get(0));
            assertTrue(renderError || started.get(0).contains("customers"), started.get(0));
        }
    }

    /**
     * The OpenTelemetry sink handed specOnly's verbatim copy with a corruption inside a sequence document keeps the command's
     * span: its {@code db.query.text} is the copy's text, or {@code {"$renderError": "<exception class>"}} where the copy
     * cannot be read, which the sink counts and reports by the exception's class alone, as the log sink does.
     */
    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("insideAWellFramedDocument")
    void openTelemetrySinkKeepsTheSpanOfAVerbatimCopyWithACorruptionInside(final String what, final Supplier<byte[]> bytes,
                                                                          final Backing backing) {
        try (Spans spans = new Spans()) {
            OpenTelemetryCommandSink sink = OpenTelemetryCommandSink.builder(spans.openTelemetry).queryTextMaxLength(10_000)
                    .build();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                    .addSink(sink).build();
            BsonDocument insert = insertTop().append("documents", new org.bson.BsonArray(List.of(backing.apply(valid()),
                    backing.apply(bytes.get()))));
            assertDoesNotThrow(() -> listener.commandStarted(DriverShapes.started(1, "insert", insert)));
            assertDoesNotThrow(() -> listener.commandSucceeded(DriverShapes.succeeded(1, "insert",
                    new RawBsonDocument(DriverShapes.encode(new BsonDocument("ok", new BsonInt32(1)))))));
            assertEquals(0, listener.getCounters().getSinkFailures(), what + " " + backing);
            List<io.opentelemetry.sdk.trace.data.SpanData> inserts = spans.named("insert");
            assertEquals(1, inserts.size(), what + " " + backing + ": the span is kept");
            String text = Spans.text(inserts.get(0));
            boolean renderError = text.startsWith("{\"$renderError\": ");
            assertEquals(renderError ? 1 : 0, sink.getFailures(), text);
            assertTrue(renderError ? text.matches("\\{\"\\$renderError\": \"[a-zA-Z.]+\"}") : text.contains("customers"),
                    text);
            List<String> said = warnings.texts();
            assertEquals(renderError ? 1 : 0, said.size(), said::toString);
            said.forEach(warning -> assertFalse(warning.contains("alice") || warning.contains("custom"), warning));
        }
    }

    /**
     * The log sink handed specOnly's verbatim copy with a corruption inside a sequence document (what it receives when no
     * analysis walks the copy) returns normally: the line is written, its command rendered or shown as a render error, which
     * the sink counts.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("corruptions")
    void logSinkRendersAVerbatimCopyWithACorruptionInsideOrCountsItsRenderError(final String what,
                                                                               final Supplier<byte[]> bytes) {
        byte[] copy = SequenceBytes.merged(insertTop(), "documents", List.of(valid(), bytes.get()));
        try (CapturedLog log = new CapturedLog("debug")) {
            CommandLogSink sink = CommandLogSink.builder().loggerName(log.loggerName).build();
            StartedCommand started = Events.started(DriverShapes.started(1, "insert", insertTop()),
                    new RawBsonDocument(copy), "customers", 0);
            assertDoesNotThrow(() -> sink.started(started));
            List<String> lines = log.lines();
            assertEquals(1, lines.size(), log.text());
            boolean renderError = lines.get(0).contains("$renderError");
            assertEquals(renderError ? 1 : 0, sink.getFailures(), lines.get(0));
            assertTrue(lines.get(0).contains("Command \"insert\" started"), lines.get(0));
        }
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("driverDocumentCorruptionsUnderEveryPolicy")
    void corruptDriverDocumentIsForwardedAsMarker(final String what, final Supplier<byte[]> bytes, final String policyName) {
        byte[] corrupt = bytes.get();
        // the driver's document needs a length that fits its buffer to be made at all
        for (Backing backing : new Backing[]{Backing.BYTE_BUF_HEAP, Backing.BYTE_BUF_DIRECT}) {
            RedactionPolicy policy = policy(policyName);
        {
                LastEventListener last = new LastEventListener();
                RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last)
                        .build();
                BsonDocument document = backing.apply(corrupt);
                assertDoesNotThrow(() -> listener.commandStarted(DriverShapes.started(1, "find", document)));
                assertMarker(what + " " + backing + " " + policyName, last.started.getCommand());
            }
        }
    }

    static int readInt(final byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
    }

    @AfterEach
    void warningsQuoteNoDocument() {
        warnings.assertNoneQuotes(SECRET);
    }

    static void assertMarker(final String what, final BsonDocument forwarded) {
        // the forwarded document must be valid BSON that decodes fully, and be exactly the marker
        byte[] bytes = DriverShapes.encode(forwarded);
        BsonDocument decoded = new BsonDocumentCodec().decode(new BsonBinaryReader(ByteBuffer.wrap(bytes)),
                DecoderContext.builder().build());
        assertEquals(1, decoded.size(), () -> what + ": " + decoded.toJson());
        assertTrue(decoded.isString("$redactionError"), () -> what + ": " + decoded.toJson());
        String message = decoded.getString("$redactionError").getValue();
        assertFalse(message.isEmpty(), what);
        assertFalse(message.contains(SECRET), what + ": " + message);
        assertEquals(-1, indexOf(bytes, SECRET), what);
        assertEquals(-1, indexOf(bytes, "alice"), what);
    }
}
