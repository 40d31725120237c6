package io.github.mongoredact.spring;

import com.mongodb.client.MongoClient;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.log.CommandLogSink;
import io.github.mongoredact.spring.boot3.MongoRedactBoot3AutoConfiguration;
import io.github.mongoredact.spring.tracing.MongoRedactTracingAutoConfiguration;
import io.github.mongoredact.spring.tracing.TracingSwitch;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.mongo.MongoAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The auto-configuration's optional dependencies are optional: with a {@code MeterRegistry} bean, an {@code OpenTelemetry} bean
 * and (on driver 5.7+) the driver's own tracing API, each integration's beans are there where its artifact is on the class
 * path, and the application starts and logs without them where it is not. The default executions have both artifacts; the
 * module's execution {@code without-optional-integrations} leaves mongo-redact-micrometer and mongo-redact-opentelemetry off
 * the class path (their libraries stay, as in an application that has Micrometer and OpenTelemetry of its own) and runs on
 * driver 5.14, where the driver's tracing API is there.
 */
class OptionalIntegrationsTest {
    private static final String METRICS_SINK = "io.github.mongoredact.micrometer.MicrometerCommandSink";
    private static final String TRACING_SINK = "io.github.mongoredact.otel.OpenTelemetryCommandSink";
    private static final String OTEL_METRICS_SINK = "io.github.mongoredact.otel.OpenTelemetryMetricsSink";
    private static final String DRIVER_TRACING = "io.github.mongoredact.observation.DriverTracing";
    private static final String DRIVERS_OWN_TRACING = "com.mongodb.observability.micrometer.MicrometerObservabilitySettings";

    /** An application with Micrometer and OpenTelemetry of its own, and Boot's Mongo auto-configuration and ours. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({MongoAutoConfiguration.class, MongoRedactTracingAutoConfiguration.class,
        MongoRedactAutoConfiguration.class, MongoRedactBoot3AutoConfiguration.class})
    static class Application {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        OpenTelemetry openTelemetry() {
            return OpenTelemetry.noop();
        }
    }

    @Test
    void eachIntegrationIsConfiguredWhereItsArtifactIsAndTheStartNeedsNone() {
        boolean metrics = present(METRICS_SINK);
        boolean tracing = present(TRACING_SINK);
        boolean driversOwnTracing = tracing && present(DRIVERS_OWN_TRACING);
        MongoServer server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        try (ConfigurableApplicationContext context = start(server)) {
            Set<String> types = new TreeSet<>();
            for (String name : context.getBeanDefinitionNames()) {
                Class<?> type = context.getType(name);
                if (type != null) {
                    types.add(type.getName());
                }
            }
            assertEquals(metrics, types.contains(METRICS_SINK), "the metrics sink: " + types);
            assertEquals(tracing, types.contains(MongoRedactTracingAutoConfiguration.SinkHolder.class.getName()),
                    "the tracing sink: " + types);
            assertEquals(tracing, types.contains(OTEL_METRICS_SINK), "the OpenTelemetry metrics sink: " + types);
            assertEquals(driversOwnTracing, types.contains(DRIVER_TRACING), "the driver's own tracing made safe: " + types);
            assertNotNull(context.getBean(TracingSwitch.class));
            assertNotNull(context.getBean(CommandLogSink.class));
            RedactingCommandListener listener = context.getBean(RedactingCommandListener.class);
            context.getBean(MongoClient.class).getDatabase("test").getCollection("users").insertOne(new Document("n", 1));
            assertTrue(listener.getCounters().getEventsForwarded() > 0, "the listener is on the client");
        } finally {
            server.shutdownNow();
        }
    }

    private static ConfigurableApplicationContext start(final MongoServer server) {
        StandardEnvironment environment = MongoRedactStartupConditionTest.environment();
        // the test class path has Boot 4's customizer interface beside Boot 3 (spring-boot-mongodb, compiled against), which no
        // application has: the tracing customizers of both lines are defined, under one name
        environment.getPropertySources().addFirst(new MapPropertySource("test", Map.of("spring.main.banner-mode", "off",
                "spring.main.allow-bean-definition-overriding", "true",
                "spring.data.mongodb.uri", "mongodb://127.0.0.1:" + server.getLocalAddress().getPort() + "/test")));
        SpringApplication application = new SpringApplication(Application.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setEnvironment(environment);
        return application.run();
    }

    private static boolean present(final String className) {
        try {
            Class.forName(className, false, OptionalIntegrationsTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
