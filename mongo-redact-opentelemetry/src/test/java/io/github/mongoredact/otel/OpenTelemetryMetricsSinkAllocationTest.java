package io.github.mongoredact.otel;

import io.github.mongoredact.Allocations;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.Events;
import io.github.mongoredact.PrintedFigures;
import io.github.mongoredact.StartedCommand;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bytes the metrics sink allocates per recorded command once warm, into a real SDK meter provider with a reader, measured with
 * ThreadMXBean (the lowest of three measurements): a success, a write error and a failure each find their attribute set
 * without making one, and the SDK's histogram records them in place.
 */
class OpenTelemetryMetricsSinkAllocationTest {
    private static final int COMMANDS = 100_000;
    private static final int MEASUREMENTS = 3;
    private static final String FIND = "{\"find\": \"users\", \"filter\": {\"email\": \"ann@example.com\"}, \"$db\": \"test\"}";
    private static final String REPLY = "{\"cursor\": {\"firstBatch\": [{\"_id\": 1}], \"id\": 0, \"ns\": \"test.users\"},"
            + " \"ok\": 1.0}";

    @Test
    void recordingACommandAllocatesNothingOnceWarm() {
        try (Metrics metrics = new Metrics()) {
            OpenTelemetryMetricsSink sink = OpenTelemetryMetricsSink.builder(metrics.openTelemetry).build();
            StartedCommand started = Events.started(Events.startedEvent(9, FIND), null, "users", 0);
            CompletedCommand ok = Events.succeeded(started, Events.raw(REPLY), 1_000_000, 0, null);
            CompletedCommand writeError = Events.succeeded(started, Events.raw(REPLY), 1_000_000, 11000, "DuplicateKey");
            CompletedCommand failed = Events.failed(started, Events.commandException(2, "BadValue"), 1_000_000);

            double perCommand = Allocations.lowestPerRun(MEASUREMENTS, COMMANDS, () -> sink.completed(ok));
            double perErrors = Allocations.lowestPerRun(MEASUREMENTS, COMMANDS, () -> {
                sink.completed(writeError);
                sink.completed(failed);
            });
            System.out.printf("OpenTelemetry metrics sink alone: %.2f bytes/command, %.2f bytes per write error +"
                    + " failure%n", perCommand, perErrors);
            PrintedFigures.record(getClass(), "metrics sink alone bytes/command", perCommand);
            assertTrue(perCommand < 16, perCommand + " bytes per command");
            assertTrue(perErrors < 16, perErrors + " bytes per write error and failure");
            assertEquals(0, sink.getFailures());
            metrics.collect();
            assertEquals(3, metrics.points(OpenTelemetryMetricsSink.OPERATION_DURATION).size());
        }
    }
}
