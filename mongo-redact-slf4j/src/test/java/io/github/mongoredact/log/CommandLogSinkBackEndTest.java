package io.github.mongoredact.log;

import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.Events;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.StartedCommand;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command is written once per line on every SLF4J back end: key-value pairs only where the back end keeps them apart from
 * the message, found once when the sink is built; {@code keyValuePairs(boolean)} overrides that. Run by the build once per
 * back end, each with its own class path (the surefire executions {@code log-backend-*}); the default execution runs it on
 * slf4j-simple, the test class path's binding.
 *
 * <p>The back ends other than slf4j-simple write to the file named by {@code mongo-redact.test.backend-log}, with the layouts
 * under {@code src/test/resources/backends/}: the message, then " | ", then the key-value pairs as that back end's pattern
 * shows them apart (Logback's {@code %kvp}, Log4j 2's {@code %X}; JBoss LogManager has none).</p>
 */
class CommandLogSinkBackEndTest {
    private static final String FIND = "{\"find\": \"users\", \"filter\": {\"email\": \"?string\"}}";
    private static final String SHAPED_FIND = "{\"find\": \"users\", \"filter\": {\"email\": \"a@example.com\"},"
            + " \"$db\": \"test\"}";
    private static final String REPLY = "{\"cursor\": {\"firstBatch\": [{\"email\": \"?string\"}], \"id\": 0}, \"ok\": 1.0}";

    /** The back end of this run: the execution's {@code mongo-redact.test.log-backend}, slf4j-simple when not set. */
    private static final String BACK_END = System.getProperty("mongo-redact.test.log-backend", "slf4j-simple");

    @Test
    void theBackEndIsTheOneThisRunIsFor() {
        String factory = org.slf4j.LoggerFactory.getILoggerFactory().getClass().getName();
        String expected;
        switch (BACK_END) {
            case "logback":
                expected = "ch.qos.logback.classic.LoggerContext";
                break;
            case "log4j2":
                expected = "org.apache.logging.slf4j.Log4jLoggerFactory";
                break;
            case "jboss-logmanager":
                expected = "org.slf4j.impl.Slf4jLoggerFactory";
                break;
            default:
                expected = "org.slf4j.simple.SimpleLoggerFactory";
        }
        assertEquals(expected, factory, "SLF4J back end of the " + BACK_END + " run");
    }

    @Test
    void writesTheCommandAndTheReplyOnceWithTheDetectedSetting() {
        boolean apart = BACK_END.equals("logback") || BACK_END.equals("log4j2");
        Lines lines = logFindAndReply(null);
        assertEquals(apart, lines.keyValuePairs, "detected");
        assertEquals(1, count(message(lines.started), "{\"find\": \"users\""), lines.started);
        assertEquals(1, count(message(lines.succeeded), "\"firstBatch\""), lines.succeeded);
        assertTrue(lines.started.contains("Command \"find\" started on database \"test\" using a connection with"
                + " driver-generated ID 3 and server-generated ID 12 to 127.0.0.1:27017. The request ID is 9 and the operation ID"
                + " is 7. Command: " + FIND), lines.started);
        if (apart) {
            assertApart(lines);
        } else {
            assertFalse(lines.started.contains("commandName="), lines.started);
            assertFalse(lines.started.contains("00abcdef01234567"), "no fingerprint: " + lines.started);
        }
    }

    @Test
    void theBuilderSettingOverridesTheDetection() {
        Lines with = logFindAndReply(true);
        assertTrue(with.keyValuePairs);
        if (BACK_END.equals("logback") || BACK_END.equals("log4j2")) {
            assertApart(with);
        } else {
            // what the setting asks for on these back ends: the pairs written into the line, the command a second time
            assertTrue(with.started.contains("commandName=find"), with.started);
            assertEquals(2, count(with.started, "{\"find\": \"users\""), with.started);
        }
        Lines without = logFindAndReply(false);
        assertFalse(without.keyValuePairs);
        assertEquals(1, count(message(without.started), "{\"find\": \"users\""), without.started);
        assertFalse(without.started.contains("00abcdef01234567"), "no fingerprint: " + without.started);
        assertFalse(without.started.contains("commandName=f") || without.started.contains("commandName=\"f"), without.started);
    }

    @Test
    void theServersQueryShapeHashIsAPairOfItsOwnBesideOurFingerprint() {
        String[] hash = new String[1];
        Lines lines = logLines(loggerName -> logThroughListener(loggerName, hash));
        assertTrue(hash[0] != null && hash[0].matches("[0-9A-F]{64}"), "the copy shows the find's shape: " + hash[0]);
        assertTrue(message(lines.started).endsWith(" Command: {\"find\": \"users\", \"filter\": {\"email\": \"?string\"},"
                + " \"$db\": \"test\"}"), "the driver's message, unchanged: " + lines.started);
        assertFalse(message(lines.started).contains(hash[0]), "never in the message: " + lines.started);
        assertFalse(lines.succeeded.contains(hash[0]), "a started line's pair: " + lines.succeeded);
        if (!lines.keyValuePairs) {
            assertFalse(lines.started.contains(hash[0]), lines.started);
            return;
        }
        String pairs = lines.started.substring(lines.started.indexOf(" | ") + 3);
        assertTrue(pairs.matches(".*\\bfingerprint=\"?[0-9a-f]{16}\\b.*"), "our fingerprint, under its own key: " + pairs);
        assertTrue(pairs.matches(".*\\bqueryShapeHash=\"?" + hash[0] + "\\b.*"), "the server's hash, under its key: " + pairs);
        if (BACK_END.equals("logback")) {
            // %kvp writes every pair: the debug shape too, types in place of the values
            assertTrue(pairs.contains("queryShape=\"{\"cmdNs\": {\"db\": \"test\", \"coll\": \"users\"}"), pairs);
            assertTrue(pairs.contains("\"?string\"") && !pairs.contains("a@example.com"), pairs);
        }
    }

    /** @return the line up to the key-value pairs of the back ends whose layout shows them apart, after " | " */
    private static String message(final String line) {
        int pairs = line.indexOf(" | ");
        return pairs < 0 ? line : line.substring(0, pairs);
    }

    /** The message holds the command once; the pairs come after " | ", where the back end's layout puts them. */
    private static void assertApart(final Lines lines) {
        String message = message(lines.started);
        String pairs = lines.started.substring(lines.started.indexOf(" | ") + 3);
        assertEquals(1, count(message, "{\"find\": \"users\""), lines.started);
        assertFalse(message.contains("commandName"), lines.started);
        assertTrue(pairs.contains("commandName") && pairs.contains("find"), lines.started);
        assertTrue(pairs.contains("00abcdef01234567"), "fingerprint apart: " + lines.started);
    }

    private static final class Lines {
        final boolean keyValuePairs;
        final String started;
        final String succeeded;

        Lines(final boolean keyValuePairs, final List<String> lines) {
            assertEquals(2, lines.size(), String.join("\n", lines));
            this.keyValuePairs = keyValuePairs;
            this.started = lines.get(0);
            this.succeeded = lines.get(1);
        }
    }

    /** Logs a find and its reply through a sink of its own logger name; returns that logger's two lines. */
    private static Lines logFindAndReply(final Boolean keyValuePairs) {
        return logLines(loggerName -> logTo(loggerName, keyValuePairs));
    }

    /** Runs {@code logging} (which returns whether the sink found key-value pairs apart) and returns its logger's lines. */
    private static Lines logLines(final Predicate<String> logging) {
        if (BACK_END.equals("slf4j-simple")) {
            try (CapturedLog log = new CapturedLog("debug")) {
                boolean detected = logging.test(log.loggerName);
                return new Lines(detected, log.lines());
            }
        }
        String loggerName = "test.mongoredact.backend." + UUID.randomUUID().toString().replace("-", "");
        boolean detected = logging.test(loggerName);
        List<String> lines = new ArrayList<>();
        for (String line : readBackEndLog()) {
            if (line.contains(" " + loggerName + " - ")) {
                lines.add(line);
            }
        }
        return new Lines(detected, lines);
    }

    private static boolean logTo(final String loggerName, final Boolean keyValuePairs) {
        CommandLogSink.Builder builder = CommandLogSink.builder().loggerName(loggerName);
        if (keyValuePairs != null) {
            builder.keyValuePairs(keyValuePairs);
        }
        CommandLogSink sink = builder.build();
        StartedCommand started = Events.started(Events.startedEvent(9, FIND), Events.raw(FIND), "users", 0x00ab_cdef_0123_4567L);
        sink.started(started);
        sink.completed(Events.succeeded(started, Events.raw(REPLY), 1_500_000, 0, null));
        assertEquals(0, sink.getFailures());
        return sink.isKeyValuePairs();
    }

    /**
     * Logs a find and its reply as the listener hands them over, with the server's query shape where the policy's copy shows
     * it; {@code hash} receives the hash the listener gave.
     */
    private static boolean logThroughListener(final String loggerName, final String[] hash) {
        CommandLogSink sink = CommandLogSink.builder().loggerName(loggerName).build();
        CommandSink shapes = new CommandSink() {
            @Override
            public boolean needsQueryShape() {
                return true;
            }

            @Override
            public void started(final StartedCommand command) {
                hash[0] = command.getQueryShapeHash();
            }
        };
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addSink(sink).addSink(shapes).build();
        CommandStartedEvent event = Events.startedEvent(9, SHAPED_FIND);
        listener.commandStarted(event);
        listener.commandSucceeded(Events.succeededEvent(event, REPLY, 1_500_000));
        assertEquals(0, sink.getFailures());
        return sink.isKeyValuePairs();
    }

    private static List<String> readBackEndLog() {
        Path file = Paths.get(System.getProperty("mongo-redact.test.backend-log"));
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError("the " + BACK_END + " log " + file + " could not be read", e);
        }
    }

    private static int count(final String text, final String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }
}
