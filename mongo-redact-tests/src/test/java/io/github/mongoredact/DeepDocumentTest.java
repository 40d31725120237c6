package io.github.mongoredact;

import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.handoff.HandOffSink;
import io.github.mongoredact.log.CapturedLog;
import io.github.mongoredact.log.CommandLogSink;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A document 1000 levels deep (the driver accepts 1024), handed to the listener on a thread with a 256 KB stack, under every
 * sink and both built-in policies: each sink gets a marker or a rendering, and nothing throws.
 */
class DeepDocumentTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();

    private static final int LEVELS = 1000;
    private static final int STACK = 256 * 1024;

    static Stream<Arguments> sinksAndPolicies() {
        Stream.Builder<Arguments> cases = Stream.builder();
        for (RedactionPolicy policy : new RedactionPolicy[]{RedactionPolicy.defaults(), RedactionPolicy.specOnly()}) {
            String name = policy == RedactionPolicy.defaults() ? "defaults" : "specOnly";
            for (DriverShapes.Backing backing : new DriverShapes.Backing[]{DriverShapes.Backing.RAW,
                    DriverShapes.Backing.BYTE_BUF_HEAP, DriverShapes.Backing.BYTE_BUF_DIRECT}) {
                cases.add(Arguments.of(name, policy, backing));
            }
        }
        return cases.build();
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("sinksAndPolicies")
    void thousandLevelDocumentOnASmallStackGivesAMarkerOrARenderingUnderEverySink(final String name,
            final RedactionPolicy policy, final DriverShapes.Backing backing) throws Exception {
        try (CapturedLog log = new CapturedLog("debug")) {
            KeepingListener kept = new KeepingListener();
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            HandOffSink handOff = HandOffSink.builder(new KeepingListener()).build();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy)
                    .addListener(kept)
                    .addSink(CommandLogSink.builder().loggerName(log.loggerName).build())
                    .addSink(MicrometerCommandSink.builder(registry).fingerprintTag(true).build())
                    .addSink(handOff)
                    .build();
            byte[] deep = nested(LEVELS);
            CommandStartedEvent started = DriverShapes.started(7, "find", DriverShapes.byteBacked(
                    new RawBsonDocument(findWithFilter(deep)), backing));
            CommandSucceededEvent succeeded = DriverShapes.succeeded(7, "find", new RawBsonDocument(cursorReply(deep)));
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread small = new Thread(null, () -> {
                try {
                    listener.commandStarted(started);
                    listener.commandSucceeded(succeeded);
                } catch (Throwable e) {
                    thrown.set(e);
                }
            }, "small-stack", STACK);
            small.start();
            small.join(TimeUnit.SECONDS.toMillis(30));
            handOff.close();
            assertNull(thrown.get(), () -> String.valueOf(thrown.get()));
            assertEquals(0, listener.getCounters().getSinkFailures(), "no sink threw");
            assertMarkerOrCopy(kept.started.get(0).getCommand());
            assertMarkerOrCopy(kept.succeeded.get(0).getResponse());
            if (kept.started.get(0).getCommand().containsKey("$redactionError")) {
                warnings.assertSaid("a marker document was forwarded in its place");
            }
            assertEquals(2, log.lines().size(), log.text());
            assertEquals(1, registry.get("mongodb.driver.commands").timer().count());
        }
    }

    private static void assertMarkerOrCopy(final BsonDocument forwarded) {
        String json = forwarded.toJson();
        assertTrue(forwarded.containsKey("$redactionError") || json.length() > LEVELS, json.substring(0,
                Math.min(200, json.length())));
    }

    /** {"a": {"a": ... {"x": 1} ...}}, {@code levels} documents deep, built without recursion. */
    static byte[] nested(final int levels) {
        byte[] innermost = {12, 0, 0, 0, 0x10, 'x', 0, 1, 0, 0, 0, 0};
        byte[] doc = innermost;
        for (int i = 1; i < levels; i++) {
            ByteBuffer outer = ByteBuffer.allocate(doc.length + 8).order(ByteOrder.LITTLE_ENDIAN);
            outer.putInt(doc.length + 8).put((byte) 0x03).put((byte) 'a').put((byte) 0).put(doc).put((byte) 0);
            doc = outer.array();
        }
        return doc;
    }

    private static byte[] findWithFilter(final byte[] filter) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        element(body, 0x02, "find", string("customers"));
        element(body, 0x03, "filter", filter);
        element(body, 0x02, "$db", string("shop"));
        return document(body.toByteArray());
    }

    private static byte[] cursorReply(final byte[] batchDocument) {
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        element(batch, 0x03, "0", batchDocument);
        ByteArrayOutputStream cursor = new ByteArrayOutputStream();
        element(cursor, 0x12, "id", new byte[8]);
        element(cursor, 0x02, "ns", string("shop.customers"));
        element(cursor, 0x04, "firstBatch", document(batch.toByteArray()));
        ByteArrayOutputStream reply = new ByteArrayOutputStream();
        element(reply, 0x03, "cursor", document(cursor.toByteArray()));
        element(reply, 0x01, "ok", ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(1.0).array());
        return document(reply.toByteArray());
    }

    private static void element(final ByteArrayOutputStream out, final int type, final String key, final byte[] value) {
        out.write(type);
        out.writeBytes(key.getBytes(StandardCharsets.UTF_8));
        out.write(0);
        out.writeBytes(value);
    }

    private static byte[] string(final String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(utf8.length + 5).order(ByteOrder.LITTLE_ENDIAN).putInt(utf8.length + 1).put(utf8)
                .put((byte) 0).array();
    }

    private static byte[] document(final byte[] body) {
        return ByteBuffer.allocate(body.length + 5).order(ByteOrder.LITTLE_ENDIAN).putInt(body.length + 5).put(body)
                .put((byte) 0).array();
    }
}
