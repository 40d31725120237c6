package it.mongoredact;

import com.mongodb.client.MongoClient;
import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.log.CommandLogSink;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.util.ArrayList;
import java.util.List;

import static it.mongoredact.Workloads.COMMANDS;
import static it.mongoredact.Workloads.PLANTED_EMAIL;
import static it.mongoredact.Workloads.PLANTED_NAME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dependency alone on a sync application: redacted log lines, each command counted once, other listeners moved behind. */
@ExtendWith(OutputCaptureExtension.class)
class SyncAutoConfigurationTest {
    private static final String DEBUG_LOG = "logging.level.io.github.mongoredact.command=debug";

    @Test
    void logsRedactedCommandsAndCountsEachCommandOnceWithOnlyTheDependency(final CapturedOutput output) {
        String applicationError;
        try (RunningApp app = RunningApp.sync(List.of(), DEBUG_LOG)) {
            applicationError = Workloads.sync(app.bean(MongoClient.class));
            assertEquals(COMMANDS, app.timerCount(), "mongodb.driver.commands counts each command once");
            assertTrue(app.bean(MeterRegistry.class).get("mongoredact.listener.events.forwarded").functionCounter().count() > 0,
                    "the listener's counters are meters");
        }
        String log = output.getAll();
        Recipes.write("default-pattern", log.lines().filter(line -> line.contains("io.github.mongoredact.command"))
                .collect(java.util.stream.Collectors.joining("\n")));
        Recipes.write("application-exception", applicationError);
        assertTrue(log.contains("Command \"insert\" started on database \"test\""), log);
        assertTrue(log.contains("Command \"update\" succeeded"), log);
        assertFalse(log.contains(PLANTED_EMAIL), "planted email in the output");
        assertFalse(log.contains(PLANTED_NAME), "planted name in the output");
        assertTrue(applicationError.contains(PLANTED_EMAIL),
                "the application's own exception still carries the value: " + applicationError);
    }

    /**
     * An application with only the dependency (command logger at INFO, no listener of its own): the listener copies and
     * redacts nothing, for no downstream reads documents; once the command logger is at DEBUG, the log sink asks for them.
     */
    @Test
    void theDependencyAloneCopiesNothingUntilTheCommandLogIsAtDebug() {
        try (RunningApp app = RunningApp.sync(List.of())) {
            RedactingCommandListener listener = app.bean(RedactingCommandListener.class);
            Workloads.sync(app.bean(MongoClient.class));
            assertEquals(0, listener.getCounters().getValuesRedacted(), "values redacted with nothing that reads documents");
            assertEquals(COMMANDS, app.timerCount());
            LoggingSystem logging = app.bean(LoggingSystem.class);
            logging.setLogLevel(CommandLogSink.DEFAULT_LOGGER_NAME, LogLevel.DEBUG);
            try {
                Workloads.sync(app.bean(MongoClient.class));
            } finally {
                logging.setLogLevel(CommandLogSink.DEFAULT_LOGGER_NAME, null);
            }
            assertTrue(listener.getCounters().getValuesRedacted() > 0, "copied and redacted for the command log at DEBUG");
        }
    }

    @Test
    void micrometersOwnListenerCountsAgainWhenTheReplacementIsTurnedOff() {
        try (RunningApp app = RunningApp.sync(List.of(), "mongo-redact.metrics.replace-micrometer-listener=false")) {
            Workloads.sync(app.bean(MongoClient.class));
            assertEquals(2 * COMMANDS, app.timerCount(), "both listeners record mongodb.driver.commands");
        }
    }

    @Test
    void withMetricsOffMicrometersOwnListenerStaysAndCountsOnce() {
        try (RunningApp app = RunningApp.sync(List.of(), "mongo-redact.metrics.enabled=false")) {
            Workloads.sync(app.bean(MongoClient.class));
            assertTrue(app.context.getBeansOfType(MicrometerCommandSink.class).isEmpty());
            assertEquals(COMMANDS, app.timerCount(), "Micrometer's listener, moved behind ours, counts");
        }
    }

    @Test
    void disabledRegistersNothing(final CapturedOutput output) {
        try (RunningApp app = RunningApp.sync(List.of(), "mongo-redact.enabled=false", DEBUG_LOG)) {
            Workloads.sync(app.bean(MongoClient.class));
            assertTrue(app.context.getBeansOfType(RedactingCommandListener.class).isEmpty());
            assertEquals(COMMANDS, app.timerCount(), "Micrometer's own listener, as without the library");
        }
        assertFalse(output.getAll().contains("Command \"insert\" started"));
    }

    @Test
    void theApplicationsOwnListenerSeesOnlyRedactedOwnedEvents() {
        try (RunningApp app = RunningApp.sync(List.of(BootLine.UserListenerConfiguration.class))) {
            Workloads.sync(app.bean(MongoClient.class));
            RecordingListener user = app.bean(RecordingListener.class);
            assertEquals(COMMANDS, user.started.size());
            assertFalse(user.everything().contains(PLANTED_EMAIL), user.everything());
            assertFalse(user.everything().contains(PLANTED_NAME), user.everything());
            Workloads.sync(app.bean(MongoClient.class));
            List<String> readAgain = new ArrayList<>();
            for (CommandStartedEvent event : user.started.subList(0, COMMANDS)) {
                readAgain.add(event.getCommand().toJson());
            }
            assertEquals(user.startedJson.subList(0, COMMANDS), readAgain, "kept events read back as they were");
        }
    }

    @Test
    void theApplicationsOwnListenerStaysInFrontWhenWrappingIsTurnedOff() {
        try (RunningApp app = RunningApp.sync(List.of(BootLine.UserListenerConfiguration.class),
                "mongo-redact.wrap-other-listeners=false")) {
            Workloads.sync(app.bean(MongoClient.class));
            RecordingListener user = app.bean(RecordingListener.class);
            assertTrue(user.everything().contains(PLANTED_EMAIL), "the driver's own events carry the values");
            assertEquals(COMMANDS, app.timerCount());
        }
    }

    @Test
    void sinksAndListenerAreBeans() {
        try (RunningApp app = RunningApp.sync(List.of())) {
            RedactingCommandListener listener = app.bean(RedactingCommandListener.class);
            assertTrue(listener.getSinks().contains(app.bean(CommandLogSink.class)));
            assertTrue(listener.getSinks().contains(app.bean(MicrometerCommandSink.class)));
            Workloads.sync(app.bean(MongoClient.class));
            assertTrue(listener.getCounters().getEventsForwarded() >= 2L * COMMANDS);
        }
    }
}
