package io.github.mongoredact.log;

import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.Events;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The log's {@code fingerprint} and the meters' {@code command.fingerprint} come from one formatter, so users can join them.
 */
class FingerprintJoinTest {

    @Test
    void logsTheSameFingerprintAsTheMetersTag() {
        RecordingLog log = new RecordingLog();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .addSink(CommandLogSink.builder().log(log).build())
                .addSink(MicrometerCommandSink.builder(registry).fingerprintTag(true).build())
                .build();
        CommandStartedEvent started = Events.startedEvent(7,
                "{\"find\": \"users\", \"filter\": {\"email\": \"a@example.com\"}, \"$db\": \"test\"}");
        listener.commandStarted(started);
        listener.commandSucceeded(Events.succeededEvent(started, "{\"ok\": 1.0}", 1000));

        List<RecordingLog.Line> lines = log.startingWith("Command \"find\" started");
        assertEquals(1, lines.size(), log.lines.toString());
        String logged = lines.get(0).field("fingerprint");
        assertTrue(logged.matches("[0-9a-f]{16}"), logged);
        assertNotEquals("0000000000000000", logged);
        Timer timer = registry.find(MicrometerCommandSink.COMMANDS).tags("command", "find").timer();
        assertEquals(logged, timer.getId().getTag(MicrometerCommandSink.FINGERPRINT_TAG));
        assertEquals(logged, log.startingWith("Command \"find\" succeeded").get(0).field("fingerprint"));
    }
}
