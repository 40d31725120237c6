package it.mongoredact;

import com.mongodb.reactivestreams.client.MongoClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.util.List;

import static it.mongoredact.Workloads.COMMANDS;
import static it.mongoredact.Workloads.PLANTED_EMAIL;
import static it.mongoredact.Workloads.PLANTED_NAME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dependency alone on a reactive application (no sync client in the context). */
@ExtendWith(OutputCaptureExtension.class)
class ReactiveAutoConfigurationTest {

    @Test
    void logsRedactedCommandsAndCountsEachCommandOnceWithOnlyTheDependency(final CapturedOutput output) {
        try (RunningApp app = RunningApp.reactive(List.of(), "logging.level.io.github.mongoredact.command=debug")) {
            assertTrue(app.context.getBeansOfType(com.mongodb.client.MongoClient.class).isEmpty(), "a reactive-only context");
            Workloads.reactive(app.bean(MongoClient.class));
            assertEquals(COMMANDS, app.timerCount(), "mongodb.driver.commands counts each command once");
        }
        String log = output.getAll();
        assertTrue(log.contains("Command \"insert\" started on database \"test\""), log);
        assertFalse(log.contains(PLANTED_EMAIL), "planted email in the output");
        assertFalse(log.contains(PLANTED_NAME), "planted name in the output");
    }

    @Test
    void theApplicationsOwnListenerSeesOnlyRedactedEvents() {
        try (RunningApp app = RunningApp.reactive(List.of(BootLine.UserListenerConfiguration.class))) {
            Workloads.reactive(app.bean(MongoClient.class));
            RecordingListener user = app.bean(RecordingListener.class);
            assertEquals(COMMANDS, user.started.size());
            assertFalse(user.everything().contains(PLANTED_EMAIL), user.everything());
            assertEquals(COMMANDS, app.timerCount());
        }
    }

    @Test
    void micrometersOwnListenerCountsAgainWhenTheReplacementIsTurnedOff() {
        try (RunningApp app = RunningApp.reactive(List.of(), "mongo-redact.metrics.replace-micrometer-listener=false")) {
            Workloads.reactive(app.bean(MongoClient.class));
            assertEquals(2 * COMMANDS, app.timerCount());
        }
    }
}
