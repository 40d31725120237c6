package io.github.mongoredact.spring;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.mongodb.DefaultMongoCommandTagsProvider;
import io.micrometer.core.instrument.binder.mongodb.MongoCommandTagsProvider;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.mongo.MongoAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spring Boot's own contracts for the command timer, in real application contexts (the test class path's Spring Boot 3.5:
 * Boot's Mongo auto-configuration and ours, a registry bean, the real driver against the embedded server): an application's
 * {@code MongoCommandTagsProvider} bean tags every timer, Spring Boot's switch turns the timer off, a mistyped
 * {@code mongo-redact.*} property stops the start. The same against Micrometer's own listener, as Actuator registers it (the
 * control): {@code src/it}, Boot 3.5 and 4.0.
 */
class BootMetricsContractsTest {
    /** createIndexes is not run here: insert, find, update, delete. */
    private static final int COMMANDS = 4;

    /** The application: Boot's Mongo auto-configuration and ours, and a registry, as Actuator would define it. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({MongoAutoConfiguration.class, MongoRedactAutoConfiguration.class,
        io.github.mongoredact.spring.boot3.MongoRedactBoot3AutoConfiguration.class})
    static class Application {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    /** The provider, as Spring Boot documents customising the command timer. */
    @Configuration(proxyBeanMethods = false)
    static class TenantTags {
        @Bean
        MongoCommandTagsProvider tenantTags() {
            return event -> Tags.of("command", event.getCommandName(), "tenant", "acme");
        }
    }

    /** Micrometer's default provider as a bean, as Spring Boot defines it when the application has none. */
    @Configuration(proxyBeanMethods = false)
    static class BootsDefaultTags {
        @Bean
        MongoCommandTagsProvider mongoCommandTagsProvider() {
            return new DefaultMongoCommandTagsProvider();
        }
    }

    @Test
    void anApplicationsTagsProviderTagsEveryTimer() {
        List<Timer> timers = new ArrayList<>();
        try (Running app = Running.start(List.of(TenantTags.class))) {
            app.workload();
            assertSame(app.context.getBean(MongoCommandTagsProvider.class),
                    app.context.getBean(MicrometerCommandSink.class).getCommandTagsProvider());
            timers.addAll(app.timers());
        }
        assertEquals(COMMANDS, timers.stream().mapToLong(Timer::count).sum(), timers.toString());
        for (Timer timer : timers) {
            assertEquals("acme", timer.getId().getTag("tenant"), timer.getId().toString());
            assertEquals(2, timer.getId().getTags().size(), "the provider's tags only: " + timer.getId());
        }
    }

    @Test
    void springBootsOwnDefaultProviderLeavesTheSinksOwnAllocationFreeTags() {
        try (Running app = Running.start(List.of(BootsDefaultTags.class))) {
            app.workload();
            MicrometerCommandSink sink = app.context.getBean(MicrometerCommandSink.class);
            assertNull(sink.getCommandTagsProvider());
            assertEquals(false, sink.needsDocuments());
            assertEquals(0, app.context.getBean(RedactingCommandListener.class).getCounters().getValuesRedacted());
            assertEquals(COMMANDS, app.timers().stream().mapToLong(Timer::count).sum());
            assertNotNull(app.registry().find(MicrometerCommandSink.COMMANDS).tags("command", "find", "collection", "users",
                    "status", "SUCCESS").timer());
        }
    }

    @Test
    void springBootsSwitchOfCommandMetricsTurnsTheTimerOffAndLeavesTheListenersCounters() {
        try (Running app = Running.start(List.of(TenantTags.class), OnBootCommandMetricsCondition.BOOT_3, "false",
                "mongo-redact.metrics.size-summaries", "true")) {
            app.workload();
            assertTrue(app.context.getBeansOfType(MicrometerCommandSink.class).isEmpty());
            assertEquals(List.of(), app.timers());
            assertTrue(app.registry().find(MicrometerCommandSink.COMMAND_SIZE).meters().isEmpty());
            assertTrue(app.registry().get("mongoredact.listener.events.forwarded").functionCounter().count() > 0,
                    "the listener's counters stay");
        }
        for (String value : List.of("true", "TRUE")) {
            try (Running app = Running.start(List.of(), OnBootCommandMetricsCondition.BOOT_3, value)) {
                app.workload();
                assertEquals(COMMANDS, app.timers().stream().mapToLong(Timer::count).sum(), value);
            }
        }
        // Spring Boot 3 does not read Spring Boot 4's name, so neither does this library on Boot 3
        try (Running app = Running.start(List.of(), OnBootCommandMetricsCondition.BOOT_4, "false")) {
            app.workload();
            assertEquals(COMMANDS, app.timers().stream().mapToLong(Timer::count).sum());
        }
    }

    @Test
    void theSizeSummariesAreOffUnlessTheirPropertyTurnsThemOn() {
        try (Running app = Running.start(List.of(BootsDefaultTags.class))) {
            app.workload();
            assertFalse(app.context.getBean(MicrometerCommandSink.class).needsCommandSize());
            assertTrue(app.registry().find(MicrometerCommandSink.COMMAND_SIZE).meters().isEmpty());
            assertTrue(app.registry().find(MicrometerCommandSink.REPLY_SIZE).meters().isEmpty());
        }
        try (Running app = Running.start(List.of(BootsDefaultTags.class), "mongo-redact.metrics.size-summaries", "true")) {
            app.workload();
            assertTrue(app.context.getBean(MicrometerCommandSink.class).needsCommandSize());
            assertNotNull(app.registry().find(MicrometerCommandSink.COMMAND_SIZE).tags("command", "insert").summary(),
                    app.timers().toString());
            assertTrue(app.registry().find(MicrometerCommandSink.REPLY_SIZE).tags("command", "find").summary().count() > 0);
        }
    }

    @Test
    void theQueryShapeHashTagPropertyTagsTheMetersWithTheServersHash() {
        try (Running app = Running.start(List.of(BootsDefaultTags.class), "mongo-redact.metrics.query-shape-hash-tag", "true")) {
            app.workload();
            MicrometerCommandSink sink = app.context.getBean(MicrometerCommandSink.class);
            assertTrue(sink.needsQueryShape());
            assertEquals(false, sink.needsFingerprint(), "fingerprint-tag stays off");
            Timer find = app.registry().find(MicrometerCommandSink.COMMANDS).tags("command", "find").timer();
            assertNotNull(find, app.timers().toString());
            assertTrue(find.getId().getTag(MicrometerCommandSink.QUERY_SHAPE_HASH_TAG).matches("[0-9A-F]{64}"),
                    find.getId().toString());
            assertEquals(MicrometerCommandSink.NO_QUERY_SHAPE, app.registry().find(MicrometerCommandSink.COMMANDS)
                    .tags("command", "insert").timer().getId().getTag(MicrometerCommandSink.QUERY_SHAPE_HASH_TAG));
        }
        try (Running app = Running.start(List.of(BootsDefaultTags.class))) {
            assertEquals(false, app.context.getBean(MicrometerCommandSink.class).needsQueryShape(), "off by default");
        }
    }

    @Test
    void theSwitchIsTheOneOfTheRunningSpringBootLine() {
        assertEquals(OnBootCommandMetricsCondition.BOOT_3, OnBootCommandMetricsCondition.switchName("3.5.7", true));
        assertEquals(OnBootCommandMetricsCondition.BOOT_3, OnBootCommandMetricsCondition.switchName("3.2.0", false));
        assertEquals(OnBootCommandMetricsCondition.BOOT_4, OnBootCommandMetricsCondition.switchName("4.0.7", false));
        assertEquals(OnBootCommandMetricsCondition.BOOT_4, OnBootCommandMetricsCondition.switchName("10.1.0-SNAPSHOT", false));
        assertEquals(OnBootCommandMetricsCondition.BOOT_4, OnBootCommandMetricsCondition.switchName(null, true));
        assertEquals(OnBootCommandMetricsCondition.BOOT_3, OnBootCommandMetricsCondition.switchName(null, false));
        assertEquals(OnBootCommandMetricsCondition.BOOT_3, OnBootCommandMetricsCondition.switchName("custom", false));
    }

    @Test
    void aMistypedPropertyStopsTheStartWithSpringBootsReportNamingTheNearestOne() {
        RuntimeException failure = assertThrows(RuntimeException.class,
                () -> Running.start(List.of(), "mongo-redact.polcy", "spec").close());
        assertTrue(SpringFactoriesLoader.loadFactoryNames(FailureAnalyzer.class, getClass().getClassLoader())
                .contains(MongoRedactFailureAnalyzer.class.getName()), "the analyzer is registered");
        FailureAnalysis analysis = new MongoRedactFailureAnalyzer().analyze(failure);
        assertNotNull(analysis, "the refusal found in " + failure);
        assertTrue(analysis.getDescription().endsWith("Reason: mongo-redact.polcy is not a mongo-redact property; did you mean"
                + " mongo-redact.policy?"), analysis.getDescription());
        assertTrue(analysis.getAction().startsWith("Write mongo-redact.policy instead of mongo-redact.polcy"),
                analysis.getAction());
        try (Running app = Running.start(List.of(), "mongo-redact.maxInFlight", "50", "MONGO-REDACT.LOG.LEVEL", "info")) {
            assertEquals(50, app.context.getBean(RedactingCommandListener.class).getMaxInFlight(), "relaxed forms bind");
        }
    }

    /** A started application on a fresh embedded server; closing closes the context (the client), then the server. */
    private static final class Running implements AutoCloseable {
        final MongoServer server;
        final ConfigurableApplicationContext context;

        private Running(final MongoServer server, final ConfigurableApplicationContext context) {
            this.server = server;
            this.context = context;
        }

        static Running start(final List<Class<?>> configuration, final String... properties) {
            MongoServer server = new MongoServer(new MemoryBackend());
            server.bind("127.0.0.1", 0);
            try {
                Map<String, Object> values = new HashMap<>();
                values.put("spring.main.banner-mode", "off");
                values.put("spring.data.mongodb.uri", "mongodb://127.0.0.1:" + server.getLocalAddress().getPort() + "/test");
                for (int i = 0; i < properties.length; i += 2) {
                    values.put(properties[i], properties[i + 1]);
                }
                StandardEnvironment environment = MongoRedactStartupConditionTest.environment();
                environment.getPropertySources().addFirst(new MapPropertySource("test", values));
                List<Class<?>> sources = new ArrayList<>(configuration);
                sources.add(0, Application.class);
                SpringApplication application = new SpringApplication(sources.toArray(new Class<?>[0]));
                application.setWebApplicationType(WebApplicationType.NONE);
                application.setEnvironment(environment);
                return new Running(server, application.run());
            } catch (RuntimeException | Error e) {
                server.shutdownNow();
                throw e;
            }
        }

        MeterRegistry registry() {
            return context.getBean(MeterRegistry.class);
        }

        List<Timer> timers() {
            return new ArrayList<>(registry().find(MicrometerCommandSink.COMMANDS).timers());
        }

        void workload() {
            MongoCollection<Document> users = context.getBean(MongoClient.class).getDatabase("test").getCollection("users");
            users.insertOne(new Document("email", "planted@example.invalid"));
            assertNotNull(users.find(Filters.eq("email", "planted@example.invalid")).first());
            users.updateOne(Filters.eq("email", "planted@example.invalid"), Updates.set("name", "n"));
            users.deleteOne(Filters.eq("email", "planted@example.invalid"));
        }

        @Override
        public void close() {
            try {
                context.close();
            } finally {
                server.shutdownNow();
            }
        }
    }
}
