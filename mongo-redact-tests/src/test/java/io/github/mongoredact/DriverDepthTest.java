package io.github.mongoredact;

import com.mongodb.LoggerSettings;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.DriverShapes.Backing;
import io.github.mongoredact.handoff.HandOffSink;
import io.github.mongoredact.log.CapturedLog;
import io.github.mongoredact.log.CommandLogSink;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.github.mongoredact.otel.OpenTelemetryCommandSink;
import io.github.mongoredact.otel.Spans;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every document the driver writes is redacted, however deep: its binary writer accepts 1024 levels (the top level counted as
 * one), so a command of 1024 levels, a reply of 1024 levels and an insert whose sequence document has 1024 levels (1026 once
 * merged as an array under the top level) go through the listener on a thread with a 256 KiB stack, under every policy and
 * into every sink, and come out redacted (a copy under the policies that keep values), never as the marker.
 */
class DriverDepthTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();

    /** The driver's limit: {@code BsonBinaryWriterSettings}' default maximum serialization depth. */
    static final int DRIVER_LEVELS = 1024;
    private static final long STACK = 256 * 1024;
    static final String SECRET = "alice@example.com";
    private static final byte[] SECRET_BYTES = SECRET.getBytes(StandardCharsets.UTF_8);

    static Stream<Arguments> policies() {
        RedactionPolicy keepAll = RedactionPolicy.builder().clearRules().unmatchedCommandAction(FieldAction.KEEP)
                .unmatchedReplyAction(FieldAction.KEEP).build();
        return Stream.of(Arguments.of("defaults", RedactionPolicy.defaults()),
                Arguments.of("specOnly", RedactionPolicy.specOnly()), Arguments.of("keepAll", keepAll));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void driverDepthIsRedactedOnA256KiBStackUnderEverySink(final String name, final RedactionPolicy policy)
            throws Exception {
        boolean redacts = policy == RedactionPolicy.defaults();
        try (CapturedLog log = new CapturedLog("debug"); Spans spans = new Spans()) {
            KeepingListener kept = new KeepingListener();
            KeepingListener handedOff = new KeepingListener();
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            HandOffSink handOff = HandOffSink.builder(handedOff).build();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy)
                    .addListener(kept)
                    .addSink(CommandLogSink.builder().loggerName(log.loggerName)
                            .loggerSettings(LoggerSettings.builder().maxDocumentLength(0).build()).build())
                    .addSink(MicrometerCommandSink.builder(registry).fingerprintTag(true).build())
                    .addSink(handOff)
                    .addSink(OpenTelemetryCommandSink.builder(spans.openTelemetry).queryTextMaxLength(Integer.MAX_VALUE)
                            .build())
                    .build();
            List<byte[]> sent = new ArrayList<>();
            List<CommandStartedEvent> started = new ArrayList<>();
            List<CommandSucceededEvent> replies = new ArrayList<>();
            int requestId = 0;
            for (Backing backing : new Backing[]{Backing.RAW, Backing.BYTE_BUF_HEAP, Backing.BYTE_BUF_DIRECT}) {
                byte[] find = findWithFilter(DRIVER_LEVELS);
                sent.add(find);
                started.add(DriverShapes.started(++requestId, "find", backing.apply(find)));
                replies.add(DriverShapes.succeeded(requestId, "find", backing.apply(find)));
            }
            started.add(DriverShapes.started(++requestId, "insert", plainInsert(DRIVER_LEVELS)));
            replies.add(DriverShapes.succeeded(requestId, "insert", new BsonDocument("n", new org.bson.BsonInt32(1))
                    .append("note", new BsonString(SECRET))));
            try (LoggedThrowables thrown = new LoggedThrowables()) {
                onSmallStack(() -> {
                    for (int i = 0; i < started.size(); i++) {
                        listener.commandStarted(started.get(i));
                        listener.commandSucceeded(replies.get(i));
                    }
                });
                handOff.close();
                thrown.assertNone();
            }
            assertEquals(0, listener.getCounters().getSinkFailures(), "no sink threw");
            assertTrue(warnings.texts().isEmpty(), () -> warnings.texts().toString());
            List<BsonDocument> forwarded = new ArrayList<>();
            kept.started.forEach(event -> forwarded.add(event.getCommand()));
            kept.succeeded.forEach(event -> forwarded.add(event.getResponse()));
            handedOff.started.forEach(event -> forwarded.add(event.getCommand()));
            assertEquals(2 * started.size() + started.size(), forwarded.size());
            for (int i = 0; i < forwarded.size(); i++) {
                byte[] bytes = DriverShapes.ownedBytes(forwarded.get(i));
                assertFalse(contains(bytes, "$redactionError".getBytes(StandardCharsets.UTF_8)), "not the marker: " + i);
                assertEquals(redacts, !contains(bytes, SECRET_BYTES), "the planted value under " + name + ": " + i);
            }
            for (int i = 0; i < sent.size(); i++) {
                byte[] command = DriverShapes.ownedBytes(kept.started.get(i).getCommand());
                assertEquals(DRIVER_LEVELS, levels(command), "walked to the bottom, not cut");
                if (!redacts) {
                    assertArrayEquals(sent.get(i), command, "a copy");
                }
            }
            assertEquals(DRIVER_LEVELS + 2, levels(DriverShapes.ownedBytes(kept.started.get(sent.size()).getCommand())));
            assertEquals(2 * started.size(), log.lines().size(), log.text());
            assertSinkText(log.text(), redacts);
            assertEquals(started.size(), registry.get("mongodb.driver.commands").timers().stream()
                    .mapToLong(io.micrometer.core.instrument.Timer::count).sum());
            assertEquals(started.size(), spans.commands().size(), () -> spans.finished().toString().substring(0, 3000));
            for (var span : spans.commands()) {
                assertSinkText(Spans.text(span), redacts);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void realDriverCommandsOfTheDriversDepthAreRedactedOnA256KiBStack(final String name, final RedactionPolicy policy)
            throws Exception {
        boolean redacts = policy == RedactionPolicy.defaults();
        KeepingListener kept = new KeepingListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(kept).build();
        BsonDocument inserted = new BsonDocument("doc", DriverShapes.decode(chain(DRIVER_LEVELS - 1)));
        BsonDocument filter = new BsonDocument("doc", DriverShapes.decode(chain(DRIVER_LEVELS - 2)));
        try (LoggedThrowables thrown = new LoggedThrowables(); EmbeddedServer server = new EmbeddedServer()) {
            com.mongodb.client.MongoCollection<BsonDocument> users = server.client(new SmallStackListener(listener))
                    .getDatabase("shop").getCollection("users", BsonDocument.class);
            // a sequence document of 1024 levels (1026 once merged), a filter making a command of 1024 levels
            EmbeddedServer.tolerate(() -> users.insertOne(inserted));
            EmbeddedServer.tolerate(() -> users.find(filter).first());
            thrown.assertNone();
        }
        assertTrue(warnings.texts().isEmpty(), () -> warnings.texts().toString());
        List<String> names = new ArrayList<>();
        for (CommandStartedEvent event : kept.started) {
            names.add(event.getCommandName());
            byte[] bytes = DriverShapes.ownedBytes(event.getCommand());
            assertFalse(contains(bytes, "$redactionError".getBytes(StandardCharsets.UTF_8)), event.getCommandName());
            if (event.getCommandName().equals("insert") || event.getCommandName().equals("find")) {
                assertEquals(redacts, !contains(bytes, SECRET_BYTES), event.getCommandName());
                assertEquals(event.getCommandName().equals("insert") ? DRIVER_LEVELS + 2 : DRIVER_LEVELS, levels(bytes),
                        event.getCommandName());
            }
        }
        assertTrue(names.contains("insert") && names.contains("find"), names.toString());
    }

    /** Every throwable the library logs while open, debug level included: none is expected, a stack overflow least of all. */
    private static final class LoggedThrowables extends java.util.logging.Handler implements AutoCloseable {
        private static final java.util.logging.Logger LIBRARY = java.util.logging.Logger.getLogger("io.github.mongoredact");
        private final List<Throwable> thrown = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final java.util.logging.Level level = LIBRARY.getLevel();

        LoggedThrowables() {
            setLevel(java.util.logging.Level.ALL);
            LIBRARY.setLevel(java.util.logging.Level.ALL);
            LIBRARY.addHandler(this);
        }

        /** Fails with every throwable the library logged (a stack overflow anywhere included), if there was one. */
        void assertNone() {
            assertTrue(thrown.isEmpty(), () -> thrown.size() + " throwable(s) logged, the first: " + thrown.get(0));
        }

        @Override
        public void publish(final java.util.logging.LogRecord record) {
            if (record.getThrown() != null) {
                thrown.add(record.getThrown());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            LIBRARY.removeHandler(this);
            LIBRARY.setLevel(level);
        }
    }

    /** Hands each event to the listener on a thread with a 256 KiB stack, inside the driver's callback. */
    private static final class SmallStackListener implements com.mongodb.event.CommandListener {
        private final com.mongodb.event.CommandListener listener;

        SmallStackListener(final com.mongodb.event.CommandListener listener) {
            this.listener = listener;
        }

        @Override
        public void commandStarted(final CommandStartedEvent event) {
            run(() -> listener.commandStarted(event));
        }

        @Override
        public void commandSucceeded(final CommandSucceededEvent event) {
            run(() -> listener.commandSucceeded(event));
        }

        @Override
        public void commandFailed(final com.mongodb.event.CommandFailedEvent event) {
            run(() -> listener.commandFailed(event));
        }

        private static void run(final Runnable body) {
            try {
                onSmallStack(body);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static void assertSinkText(final String text, final boolean redacts) {
        assertFalse(text.contains("$redactionError"), () -> text.substring(0, Math.min(300, text.length())));
        assertEquals(redacts, !text.contains(SECRET));
    }

    /** Runs {@code body} on a thread with a 256 KiB stack and rethrows what it threw. */
    static void onSmallStack(final Runnable body) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread small = new Thread(null, () -> {
            try {
                body.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, "stack-256k", STACK);
        small.start();
        small.join();
        assertNull(thrown.get(), () -> "thrown: " + thrown.get());
    }

    /** {@code {"d": {"d": ... {"email": SECRET}}}}, {@code levels} documents in all, built without recursion. */
    static byte[] chain(final int levels) {
        byte[] inner = DriverShapes.encode(new BsonDocument("email", new BsonString(SECRET)));
        byte[] head = {0x03, 'd', 0};
        int around = levels - 1;
        int size = inner.length + around * (4 + head.length + 1);
        byte[] out = new byte[size];
        int length = size;
        for (int level = 0; level < around; level++) {
            int at = level * (4 + head.length);
            DeepNestingTest.writeInt(out, at, length);
            System.arraycopy(head, 0, out, at + 4, head.length);
            out[at + length - 1] = 0;
            length -= 4 + head.length + 1;
        }
        System.arraycopy(inner, 0, out, around * (4 + head.length), inner.length);
        return out;
    }

    /** {@code {"find": "c", "filter": chain, "$db": "shop"}} of {@code levels} levels in all. */
    static byte[] findWithFilter(final int levels) {
        byte[] filter = chain(levels - 1);
        byte[] find = {0x02, 'f', 'i', 'n', 'd', 0, 2, 0, 0, 0, 'c', 0};
        byte[] filterKey = {0x03, 'f', 'i', 'l', 't', 'e', 'r', 0};
        byte[] db = {0x02, '$', 'd', 'b', 0, 5, 0, 0, 0, 's', 'h', 'o', 'p', 0};
        int total = 4 + find.length + filterKey.length + filter.length + db.length + 1;
        byte[] top = new byte[total];
        DeepNestingTest.writeInt(top, 0, total);
        int at = 4;
        for (byte[] part : new byte[][]{find, filterKey, filter, db}) {
            System.arraycopy(part, 0, top, at, part.length);
            at += part.length;
        }
        return top;
    }

    /**
     * The plain top level the driver builds for an insert: {@code let} nesting plain documents to {@code levels} levels with
     * the top, and one byte-backed sequence document of {@code levels} levels of its own.
     */
    static BsonDocument plainInsert(final int levels) {
        BsonDocument let = new BsonDocument("email", new BsonString(SECRET));
        for (int i = 2; i < levels; i++) {
            let = new BsonDocument("d", let);
        }
        return new BsonDocument("insert", new BsonString("c")).append("let", let).append("$db", new BsonString("shop"))
                .append("documents", new BsonArray(List.of(Backing.BYTE_BUF_HEAP.apply(chain(levels)))));
    }

    /** @return how many levels the document at {@code bytes[0]} nests, its top level counted as one, read without recursion */
    static int levels(final byte[] bytes) {
        int[] ends = new int[16];
        int depth = 0;
        int deepest = 1;
        ends[0] = readInt(bytes, 0) - 1;
        int p = 4;
        while (true) {
            if (p >= ends[depth]) {
                if (depth == 0) {
                    return deepest;
                }
                p = ends[depth--] + 1;
                continue;
            }
            byte type = bytes[p];
            int v = p + 1;
            while (bytes[v] != 0) {
                v++;
            }
            v++;
            if (type == 0x03 || type == 0x04) {
                if (++depth == ends.length) {
                    ends = Arrays.copyOf(ends, depth * 2);
                }
                ends[depth] = v + readInt(bytes, v) - 1;
                deepest = Math.max(deepest, depth + 1);
                p = v + 4;
            } else {
                p = v + valueLength(bytes, type, v);
            }
        }
    }

    private static int valueLength(final byte[] bytes, final byte type, final int v) {
        switch (type) {
            case 0x02:
                return 4 + readInt(bytes, v);
            case 0x10:
                return 4;
            case 0x01:
            case 0x12:
            case 0x09:
                return 8;
            case 0x08:
                return 1;
            case 0x07:
                return 12;
            case 0x05:
                return 5 + readInt(bytes, v);
            case 0x0A:
                return 0;
            default:
                throw new AssertionError("type " + type + " at " + v);
        }
    }

    private static int readInt(final byte[] b, final int index) {
        return b[index] & 0xff | (b[index + 1] & 0xff) << 8 | (b[index + 2] & 0xff) << 16 | (b[index + 3] & 0xff) << 24;
    }

    static boolean contains(final byte[] haystack, final byte[] needle) {
        return CorruptInputTest.indexOf(haystack, new String(needle, StandardCharsets.UTF_8)) >= 0;
    }
}
