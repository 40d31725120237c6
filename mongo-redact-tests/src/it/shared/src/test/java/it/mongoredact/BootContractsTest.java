package it.mongoredact;

import com.mongodb.client.MongoClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.mongodb.MongoCommandTagsProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

import java.util.ArrayList;
import java.util.List;

import static it.mongoredact.Workloads.COMMANDS;
import static it.mongoredact.Workloads.PLANTED_EMAIL;
import static it.mongoredact.Workloads.PLANTED_NAME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spring Boot's own contracts (issue 32, item 2), asserted on this application with mongo-redact and, in the same invoker run,
 * on the same application without it (the control: the execution {@code without-mongo-redact} of this project's pom runs
 * this class with the mongo-redact jar left off the class path and {@value #CONTROL} set). Each test says what each side
 * shows. The class names nothing of mongo-redact's, so that it loads without the jar.
 */
@ExtendWith(OutputCaptureExtension.class)
class BootContractsTest {
    /** Set by the control's execution. */
    static final String CONTROL = "it.mongoredact.control";
    private static final boolean WITH_MONGO_REDACT = !Boolean.getBoolean(CONTROL);
    private static final String OUR_COMMAND_LOG = "logging.level.io.github.mongoredact.command=debug";
    private static final String DRIVERS_COMMAND_LOG = "logging.level.org.mongodb.driver.protocol.command=debug";

    /** The customisation Spring Boot documents for the command timer: a provider bean, here the issue's. */
    @Configuration(proxyBeanMethods = false)
    static class TenantTagsConfiguration {
        @Bean
        MongoCommandTagsProvider tenantTags() {
            return event -> Tags.of("command", event.getCommandName(), "tenant", "acme");
        }
    }

    /**
     * With: redacted command lines without the values; without: no such lines, and the only command log is the driver's, with
     * the values. Both: each command counted once by the timer (with: ours in place of Micrometer's listener; without:
     * Micrometer's), with known properties written in Spring Boot's relaxed forms (one start for all of these: starts are
     * what this class costs).
     */
    @Test
    void redactedLogLinesAndOneCountPerCommand(final CapturedOutput output) throws ReflectiveOperationException {
        assertEquals(WITH_MONGO_REDACT, ClassUtils.isPresent("io.github.mongoredact.RedactingCommandListener",
                getClass().getClassLoader()), "mongo-redact on the class path of " + (WITH_MONGO_REDACT ? "the application" : "the"
                + " control"));
        try (RunningApp app = RunningApp.sync(List.of(), OUR_COMMAND_LOG, "mongo-redact.maxInFlight=50",
                "mongo-redact.log.LEVEL=debug", "mongo-redact.metrics.fingerprint_tag=false", "mongo-redact.keep[0]=comment")) {
            assertEquals(WITH_MONGO_REDACT, app.context.containsBean("mongoRedactCommandListener"));
            if (WITH_MONGO_REDACT) { // by name: the class is absent from the control's class path
                Object listener = app.context.getBean("mongoRedactCommandListener");
                assertEquals(50, listener.getClass().getMethod("getMaxInFlight").invoke(listener), "mongo-redact.maxInFlight");
            }
            Workloads.sync(app.bean(MongoClient.class));
            assertEquals(COMMANDS, app.timerCount());
        }
        String log = output.getAll();
        assertEquals(WITH_MONGO_REDACT, log.contains("io.github.mongoredact.command"), log);
        assertEquals(WITH_MONGO_REDACT, log.contains("Command \"insert\" started on database \"test\""), log);
        assertFalse(log.contains(PLANTED_EMAIL), "planted email in the output");
        assertFalse(log.contains(PLANTED_NAME), "planted name in the output");
        if (!WITH_MONGO_REDACT) {
            int before = output.getAll().length();
            try (RunningApp app = RunningApp.sync(List.of(), DRIVERS_COMMAND_LOG)) {
                Workloads.sync(app.bean(MongoClient.class));
            }
            assertTrue(output.getAll().substring(before).contains(PLANTED_EMAIL), "the driver's own command log has the values");
        }
    }

    /** Both: the provider's tag on every timer, and only its tags. */
    @Test
    void aTagsProviderBeanTagsEveryTimer() {
        List<Timer> timers = new ArrayList<>();
        try (RunningApp app = RunningApp.sync(List.of(TenantTagsConfiguration.class))) {
            Workloads.sync(app.bean(MongoClient.class));
            timers.addAll(app.bean(MeterRegistry.class).find("mongodb.driver.commands").timers());
        }
        assertEquals(COMMANDS, timers.stream().mapToLong(Timer::count).sum(), timers.toString());
        for (Timer timer : timers) {
            assertEquals("acme", timer.getId().getTag("tenant"), timer.getId().toString());
            assertEquals(2, timer.getId().getTags().size(), timer.getId().toString());
        }
    }

    /** Both: Spring Boot's switch of command metrics leaves no command timer (nor any mongodb.driver.commands meter). */
    @Test
    void springBootsSwitchLeavesNoCommandTimer() {
        try (RunningApp app = RunningApp.sync(List.of(), BootLine.MICROMETER_COMMAND_PROPERTY + "=false")) {
            Workloads.sync(app.bean(MongoClient.class));
            assertEquals(0, app.timerCount(), BootLine.MICROMETER_COMMAND_PROPERTY + "=false");
            assertEquals(List.of(), app.bean(MeterRegistry.class).find("mongodb.driver.commands").meters());
        }
    }

    /** With: the start fails with a report naming the nearest property. Without: the key is ignored in silence. */
    @Test
    void aMistypedPropertyStopsTheStartWithAndIsIgnoredWithout(final CapturedOutput output) {
        if (WITH_MONGO_REDACT) {
            assertThrows(RuntimeException.class, () -> RunningApp.sync(List.of(), "mongo-redact.polcy=spec").close());
            String report = output.getAll();
            assertTrue(report.contains("APPLICATION FAILED TO START"), report);
            assertTrue(report.contains("Property: mongo-redact.polcy\n"), report);
            assertTrue(report.contains("Reason: mongo-redact.polcy is not a mongo-redact property; did you mean"
                    + " mongo-redact.policy?"), report);
            assertTrue(report.contains("Write mongo-redact.policy instead of mongo-redact.polcy, or remove it."), report);
        } else {
            try (RunningApp app = RunningApp.sync(List.of(), "mongo-redact.polcy=spec")) {
                Workloads.sync(app.bean(MongoClient.class));
                assertEquals(COMMANDS, app.timerCount());
            }
            assertFalse(output.getAll().contains("APPLICATION FAILED TO START"), output.getAll());
        }
    }
}
