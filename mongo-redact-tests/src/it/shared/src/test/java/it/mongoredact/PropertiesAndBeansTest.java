package it.mongoredact;

import com.mongodb.client.MongoClient;
import io.github.mongoredact.PlaceholderStyle;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.handoff.HandOffSink;
import io.github.mongoredact.log.CommandLogSink;
import io.github.mongoredact.spring.MongoRedactFailureAnalyzer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.config.DestructionAwareBeanPostProcessor;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.SpringFactoriesLoader;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static it.mongoredact.Workloads.COMMANDS;
import static it.mongoredact.Workloads.PLANTED_EMAIL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The mongo-redact.* properties bind and validate; the application's own beans replace ours; the failure analyzer. */
@ExtendWith(OutputCaptureExtension.class)
class PropertiesAndBeansTest {

    @Test
    void propertiesBindIntoThePolicyTheListenerAndTheLogSink() {
        try (RunningApp app = RunningApp.sync(List.of(),
                "mongo-redact.policy=spec", "mongo-redact.redact=filter.email", "mongo-redact.drop=comment",
                "mongo-redact.placeholder-style=fixed", "mongo-redact.max-sequence-documents=2",
                "mongo-redact.max-document-bytes=4096", "mongo-redact.max-in-flight=50",
                "mongo-redact.log.level=info", "mongo-redact.log.error-level=warn",
                "mongo-redact.log.only-slow-or-failed=250ms", "mongo-redact.log.logger-name=app.mongo",
                "mongo-redact.metrics.fingerprint-tag=true")) {
            RedactionPolicy policy = app.bean(RedactionPolicy.class);
            assertEquals(PlaceholderStyle.FIXED, policy.getPlaceholderStyle());
            assertEquals(2, policy.getMaxSequenceDocuments());
            assertEquals(4096, policy.getMaxDocumentBytes());
            assertFalse(policy.isRedactFailures(), "spec policy");
            assertEquals(2, policy.getRules().size(), policy.getRules().toString());
            RedactingCommandListener listener = app.bean(RedactingCommandListener.class);
            assertSame(policy, listener.getPolicy());
            assertEquals(50, listener.getMaxInFlight());
            CommandLogSink log = app.bean(CommandLogSink.class);
            assertEquals(CommandLogSink.Level.INFO, log.getLevel());
            assertEquals(CommandLogSink.Level.WARN, log.getErrorLevel());
            assertEquals(250, log.getSlowThreshold(TimeUnit.MILLISECONDS));
            assertEquals("app.mongo", log.getLoggerName());
            Workloads.sync(app.bean(MongoClient.class));
            assertTrue(app.bean(io.micrometer.core.instrument.MeterRegistry.class).find("mongodb.driver.commands")
                    .tagKeys("command.fingerprint").timer() != null, "fingerprint tag");
        }
    }

    @Test
    void defaultsAreTheLibrarysDefaults() {
        try (RunningApp app = RunningApp.sync(List.of())) {
            assertEquals(RedactionPolicy.defaults().getRules().size(), app.bean(RedactionPolicy.class).getRules().size());
            assertEquals(RedactingCommandListener.Builder.DEFAULT_MAX_IN_FLIGHT,
                    app.bean(RedactingCommandListener.class).getMaxInFlight());
            assertEquals(CommandLogSink.DEFAULT_LOGGER_NAME, app.bean(CommandLogSink.class).getLoggerName());
        }
    }

    @Test
    void badValuesFailTheStartWithAReportNamingTheProperty(final CapturedOutput output) {
        assertStartFailsNaming(output, "mongo-redact.max-in-flight", "mongo-redact.max-in-flight=0");
        assertStartFailsNaming(output, "mongo-redact.max-document-bytes", "mongo-redact.max-document-bytes=10");
        assertStartFailsNaming(output, "mongo-redact.max-sequence-documents", "mongo-redact.max-sequence-documents=-1");
        assertStartFailsNaming(output, "mongo-redact.keep", "mongo-redact.keep=filter..email");
        assertStartFailsNaming(output, "mongo-redact.log.level", "mongo-redact.log.level=loud");
        assertStartFailsNaming(output, "mongo-redact.log.only-slow-or-failed", "mongo-redact.log.only-slow-or-failed=-1s");
        assertStartFailsNaming(output, "mongo-redact.log.logger-name", "mongo-redact.log.logger-name= ");
        assertStartFailsNaming(output, "mongo-redact.policy", "mongo-redact.policy=none-such");
    }

    @Test
    void aValueItsPropertyDoesNotTakeStopsTheStartWithThePropertyTheValueAndTheAcceptedValues(final CapturedOutput output) {
        // the flag read by the auto-configuration's condition: "maybe" used to turn the library off without a word
        String report = assertStartFailsNaming(output, "mongo-redact.enabled", "mongo-redact.enabled=maybe");
        assertTrue(report.contains("Value: \"maybe\""), report);
        assertTrue(report.contains("Reason: mongo-redact.enabled takes true or false"), report);
        assertTrue(report.contains("Set mongo-redact.enabled to true or false, or leave it out for its default, true."), report);
        // Spring's lenient words for booleans are refused too, for every boolean property
        assertTrue(assertStartFailsNaming(output, "mongo-redact.wrap-other-listeners", "mongo-redact.wrap-other-listeners=yes")
                .contains("Reason: mongo-redact.wrap-other-listeners takes true or false"));
        assertTrue(assertStartFailsNaming(output, "mongo-redact.log.enabled", "mongo-redact.log.enabled=on")
                .contains("takes true or false"));
        // a duration in plain words, no annotation or class names
        String duration = assertStartFailsNaming(output, "mongo-redact.log.only-slow-or-failed",
                "mongo-redact.log.only-slow-or-failed=soon");
        assertTrue(duration.contains("takes a duration: a number with a unit"), duration);
        int reasonAt = duration.indexOf("Reason:");
        String reason = duration.substring(reasonAt, duration.indexOf('\n', reasonAt));
        assertFalse(reason.contains("@") || reason.contains("java.time") || reason.contains("Nullable"), reason);
        assertTrue(assertStartFailsNaming(output, "mongo-redact.log.level", "mongo-redact.log.level=loud")
                .contains("takes one of trace, debug, info, warn or error"));
    }

    /** The start fails, and Spring Boot's failure report (written to the log) names the property; returns the report. */
    private static String assertStartFailsNaming(final CapturedOutput output, final String property, final String setting) {
        int before = output.getAll().length();
        assertThrows(RuntimeException.class, () -> RunningApp.sync(List.of(), setting).close(), setting);
        String report = output.getAll().substring(before);
        assertTrue(report.contains("APPLICATION FAILED TO START"), report);
        assertTrue(report.contains("Property: " + property), report);
        return report;
    }

    @Configuration(proxyBeanMethods = false)
    static class UserPolicyConfiguration {
        @Bean
        RedactionPolicy userPolicy() {
            return RedactionPolicy.specOnly();
        }
    }

    @Test
    void theApplicationsOwnPolicyBeanWinsOverTheProperties(final CapturedOutput output) {
        try (RunningApp app = RunningApp.sync(List.of(UserPolicyConfiguration.class), "mongo-redact.placeholder-style=fixed",
                "logging.level.io.github.mongoredact.command=debug")) {
            assertSame(RedactionPolicy.specOnly(), app.bean(RedactingCommandListener.class).getPolicy());
            Workloads.sync(app.bean(MongoClient.class));
        }
        assertTrue(output.getAll().contains(PLANTED_EMAIL), "the spec-only policy the application chose keeps values");
    }

    /** Records the order in which the client and the hand-off are destroyed. */
    @Configuration(proxyBeanMethods = false)
    static class HandOffConfiguration {
        static final List<String> DESTROYED = new CopyOnWriteArrayList<>();

        @Bean
        RecordingListener slowTarget() {
            return new RecordingListener();
        }

        @Bean
        HandOffSink handOff(final RecordingListener slowTarget) {
            return HandOffSink.builder(slowTarget).build();
        }

        @Bean
        static DestructionAwareBeanPostProcessor destructionOrder() {
            return new DestructionAwareBeanPostProcessor() {
                @Override
                public void postProcessBeforeDestruction(final Object bean, final String beanName) throws BeansException {
                    if (bean instanceof MongoClient || bean instanceof HandOffSink) {
                        DESTROYED.add(bean instanceof MongoClient ? "client" : "handOff");
                    }
                }
            };
        }
    }

    @Test
    void aHandOffSinkBeanIsAddedAndClosedAfterTheClient() {
        HandOffConfiguration.DESTROYED.clear();
        RecordingListener target;
        HandOffSink handOff;
        try (RunningApp app = RunningApp.sync(List.of(HandOffConfiguration.class))) {
            handOff = app.bean(HandOffSink.class);
            target = app.bean(RecordingListener.class);
            assertTrue(app.bean(RedactingCommandListener.class).getSinks().contains(handOff));
            Workloads.sync(app.bean(MongoClient.class));
            assertNotNull(app.bean(io.micrometer.core.instrument.MeterRegistry.class).find("mongoredact.handoff.delivered")
                    .tag("name", "handOff").functionCounter());
        }
        assertEquals(List.of("client", "handOff"), HandOffConfiguration.DESTROYED);
        assertEquals(COMMANDS, target.started.size(), "every event delivered before the hand-off closed");
        assertEquals(0, handOff.getQueued());
        assertFalse(target.everything().contains(PLANTED_EMAIL));
    }

    @Test
    void theFailureAnalyzerIsRegisteredAndSaysWhatToChange() {
        List<String> analyzers = SpringFactoriesLoader.loadFactoryNames(FailureAnalyzer.class, getClass().getClassLoader());
        assertTrue(analyzers.contains(MongoRedactFailureAnalyzer.class.getName()), analyzers.toString());
        String refusal = "mongo-redact supports the MongoDB Java driver 4.11.0 to 5.x; the driver on the class path, version"
                + " 4.10.2, lacks: ...";
        FailureAnalysis analysis = new MongoRedactFailureAnalyzer().analyze(new BeanCreationException("mongoClient",
                "Error creating bean", new IllegalStateException("Failed to instantiate", new IllegalStateException(refusal))));
        assertNotNull(analysis);
        assertEquals(refusal, analysis.getDescription());
        assertTrue(analysis.getAction().contains("mongo-redact.enabled=false"), analysis.getAction());
        assertTrue(analysis.getAction().contains("mongodb.version"), analysis.getAction());
        assertEquals(null, new MongoRedactFailureAnalyzer().analyze(new IllegalStateException("something else")));
    }

    @Test
    void configurationMetadataDescribesEveryProperty() throws IOException {
        String metadata;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
            assertNotNull(in);
            metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (String name : List.of("enabled", "policy", "keep", "redact", "drop", "placeholder-style",
                "max-sequence-documents", "max-document-bytes", "max-in-flight", "wrap-other-listeners", "log.enabled",
                "log.level", "log.error-level", "log.only-slow-or-failed", "log.logger-name", "log.key-value-pairs",
                "metrics.enabled",
                "metrics.fingerprint-tag", "metrics.query-shape-hash-tag", "metrics.write-errors-as-failures",
                "metrics.size-summaries", "metrics.replace-micrometer-listener")) {
            assertTrue(metadata.contains("\"name\": \"mongo-redact." + name + "\""), name);
        }
    }
}
