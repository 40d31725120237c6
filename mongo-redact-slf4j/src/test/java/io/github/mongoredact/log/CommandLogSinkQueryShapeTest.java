package io.github.mongoredact.log;

import com.mongodb.LoggerSettings;
import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.Events;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.StartedCommand;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MongoDB's own query shape on the started line ({@code queryShapeHash}, {@code queryShape}) where the listener gives it, our
 * fingerprint under a key of its own ({@code fingerprint}), and the sink asking for the shape exactly when it writes a line
 * with key-value pairs.
 */
class CommandLogSinkQueryShapeTest {
    private static final String FIND = "{\"find\": \"users\", \"filter\": {\"email\": \"a@example.com\"}, \"$db\": \"test\"}";
    /** The e-mail address is a key here: data the copy masks, so the shape, which would show it, is not given. */
    private static final String MASKED = "{\"find\": \"users\", \"filter\": {\"prefs.alice@example.com\": {\"$exists\": true}},"
            + " \"$db\": \"test\"}";
    private static final String REPLY = "{\"cursor\": {\"firstBatch\": [], \"id\": 0, \"ns\": \"test.users\"}, \"ok\": 1.0}";

    /** Keeps the facts the listener hands to its sinks, asking for the query shape or not. */
    private static final class Facts implements CommandSink {
        private final boolean asks;
        StartedCommand last;

        Facts(final boolean asks) {
            this.asks = asks;
        }

        @Override
        public boolean needsQueryShape() {
            return asks;
        }

        @Override
        public void started(final StartedCommand command) {
            last = command;
        }
    }

    private static void send(final CommandLogSink sink, final Facts facts, final String command) {
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults()).addSink(sink)
                .addSink(facts).build();
        CommandStartedEvent event = Events.startedEvent(9, command);
        listener.commandStarted(event);
        listener.commandSucceeded(Events.succeededEvent(event, REPLY, 1_500_000));
        assertEquals(0, sink.getFailures());
        assertEquals(0, listener.getCounters().getSinkFailures());
    }

    @Test
    void theStartedLineCarriesTheServersShapeAndHashBesideOurFingerprint() {
        RecordingLog log = new RecordingLog();
        Facts facts = new Facts(true);
        send(CommandLogSink.builder().log(log).build(), facts, FIND);
        String hash = facts.last.getQueryShapeHash();
        assertTrue(hash != null && hash.matches("[0-9A-F]{64}"), String.valueOf(hash));
        RecordingLog.Line started = log.startingWith("Command \"find\" started").get(0);
        assertEquals(hash, started.field("queryShapeHash"));
        assertEquals(facts.last.getQueryShape(), started.field("queryShape"));
        assertTrue(started.field("queryShape").contains("\"email\": {\"$eq\": \"?string\"}"), started.field("queryShape"));
        assertFalse(started.field("queryShape").contains("a@example.com"), started.field("queryShape"));
        assertEquals(facts.last.getFingerprintHex(), started.field("fingerprint"));
        assertTrue(started.field("fingerprint").matches("[0-9a-f]{16}"), started.field("fingerprint"));
        assertFalse(started.message.contains(hash) || started.message.contains("queryShape"), "the driver's text: " + started);
        RecordingLog.Line succeeded = log.startingWith("Command \"find\" succeeded").get(0);
        assertEquals(facts.last.getFingerprintHex(), succeeded.field("fingerprint"), "every line of the command has ours");
        assertFalse(succeeded.fields.containsKey("queryShapeHash") || succeeded.fields.containsKey("queryShape"),
                succeeded.toString());
    }

    @Test
    void noShapeWhereTheCopyHidesWhatItWouldShow() {
        RecordingLog log = new RecordingLog();
        Facts facts = new Facts(true);
        send(CommandLogSink.builder().log(log).build(), facts, MASKED);
        assertNull(facts.last.getQueryShapeHash());
        RecordingLog.Line started = log.startingWith("Command \"find\" started").get(0);
        assertFalse(started.fields.containsKey("queryShapeHash") || started.fields.containsKey("queryShape"),
                started.toString());
        assertTrue(started.fields.containsKey("fingerprint"), started.toString());
        assertFalse(started.toString().contains("alice"), started.toString());
    }

    @Test
    void asksForTheShapeExactlyWhenItWritesALineWithPairs() {
        RecordingLog on = new RecordingLog();
        CommandLogSink sink = CommandLogSink.builder().log(on).build();
        assertTrue(sink.needsQueryShape());
        assertEquals(sink.needsDocuments(), sink.needsQueryShape());
        assertFalse(CommandLogSink.builder().log(on).keyValuePairs(false).build().needsQueryShape(),
                "a line without pairs shows no shape");
        assertFalse(CommandLogSink.builder().log(CommandLog.OFF).build().needsQueryShape(), "no line, no shape");
        // with only this sink on the listener, one that writes no pairs gets no shape computed
        RecordingLog plain = new RecordingLog();
        CommandLogSink withoutPairs = CommandLogSink.builder().log(plain).keyValuePairs(false).build();
        Facts notAsking = new Facts(false);
        RedactingCommandListener listener = RedactingCommandListener.builder().addSink(withoutPairs).addSink(notAsking).build();
        listener.commandStarted(Events.startedEvent(9, FIND));
        assertTrue(plain.lines.get(0).fields.isEmpty(), plain.lines.toString());
        assertNull(notAsking.last.getQueryShapeHash(), "no sink asked: none computed");
        // the same with pairs: the log sink asks, and the listener computes it for every sink
        RedactingCommandListener asking = RedactingCommandListener.builder().addSink(CommandLogSink.builder().log(on).build())
                .addSink(notAsking).build();
        asking.commandStarted(Events.startedEvent(10, FIND));
        assertTrue(notAsking.last.getQueryShapeHash().matches("[0-9A-F]{64}"), notAsking.last.toString());
    }

    @Test
    void theDebugShapeIsCutAsADocumentIsAndTheHashNever() {
        RecordingLog log = new RecordingLog();
        Facts facts = new Facts(true);
        send(CommandLogSink.builder().log(log).loggerSettings(LoggerSettings.builder().maxDocumentLength(20).build()).build(),
                facts, FIND);
        RecordingLog.Line started = log.startingWith("Command \"find\" started").get(0);
        assertEquals(facts.last.getQueryShape().substring(0, 20) + " ...", started.field("queryShape"));
        assertEquals(facts.last.getQueryShapeHash(), started.field("queryShapeHash"));
    }

    @Test
    void slowOrFailedModeWritesTheShapeWithTheStartedLineAtTheCompletion() {
        RecordingLog log = new RecordingLog();
        Facts facts = new Facts(true);
        send(CommandLogSink.builder().log(log).onlySlowOrFailed(0, TimeUnit.MILLISECONDS).build(), facts, FIND);
        List<RecordingLog.Line> started = log.startingWith("Command \"find\" started");
        assertEquals(1, started.size(), log.lines.toString());
        assertEquals(facts.last.getQueryShapeHash(), started.get(0).field("queryShapeHash"));
    }
}
