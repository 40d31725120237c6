package io.github.mongoredact.spring;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.github.mongoredact.otel.OpenTelemetryCommandSink;
import io.github.mongoredact.otel.OpenTelemetryMetricsSink;
import io.github.mongoredact.otel.SpanNaming;
import io.github.mongoredact.spring.boot3.MongoRedactBoot3AutoConfiguration;
import io.github.mongoredact.spring.tracing.MongoRedactTracingAutoConfiguration;
import io.github.mongoredact.spring.tracing.TracingSwitch;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The OpenTelemetry part of the auto-configuration in an application with an OpenTelemetry SDK of its own, against the
 * embedded server: the span sink with its {@code mongo-redact.tracing.*} options (span naming, query shape, which the
 * tracing switch asks for on its behalf), and the metrics sink ({@code mongo-redact.opentelemetry-metrics.*}) on the same
 * listener.
 */
class OpenTelemetryWiringTest {
    private static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();

    /** An application with an OpenTelemetry SDK whose spans and metrics are read in memory. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({MongoAutoConfiguration.class, MongoRedactTracingAutoConfiguration.class,
        MongoRedactAutoConfiguration.class, MongoRedactBoot3AutoConfiguration.class})
    static class Application {
        @Bean
        InMemoryMetricReader metricReader() {
            return InMemoryMetricReader.create();
        }

        @Bean
        OpenTelemetry openTelemetry(final InMemoryMetricReader reader) {
            return OpenTelemetrySdk.builder()
                    .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(SPANS)).build())
                    .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(reader).build()).build();
        }
    }

    @Test
    void theSpanOptionsAndTheMetricsSinkAreWiredFromTheProperties() {
        Map<String, Object> properties = new HashMap<>();
        properties.put("mongo-redact.tracing.span-naming", "semantic-conventions");
        properties.put("mongo-redact.tracing.query-shape", "true");
        properties.put("mongo-redact.opentelemetry-metrics.returned-rows", "true");
        MongoServer server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        SPANS.reset();
        try (ConfigurableApplicationContext context = start(server, properties)) {
            OpenTelemetryMetricsSink metrics = context.getBean(OpenTelemetryMetricsSink.class);
            assertTrue(metrics.isReturnedRows());
            assertTrue(context.getBean(TracingSwitch.class).needsQueryShape(), "the switch asks for the sink's shape");
            MongoCollection<Document> users = context.getBean(MongoClient.class).getDatabase("test").getCollection("users");
            users.insertOne(new Document("name", "ada"));
            users.find(Filters.eq("name", "ada")).into(new ArrayList<>());

            List<String> names = SPANS.getFinishedSpanItems().stream().map(SpanData::getName).collect(Collectors.toList());
            assertTrue(names.contains("insert users") && names.contains("find users"), "the conventions' names: " + names);
            SpanData find = SPANS.getFinishedSpanItems().stream().filter(s -> s.getName().equals("find users")).findFirst()
                    .orElseThrow(AssertionError::new);
            assertNotNull(find.getAttributes().get(AttributeKey.stringKey("db.mongodb.query_shape_hash")), find.toString());
            List<String> metricNames = context.getBean(InMemoryMetricReader.class).collectAllMetrics().stream()
                    .map(MetricData::getName).sorted().collect(Collectors.toList());
            assertEquals(List.of(OpenTelemetryMetricsSink.OPERATION_DURATION, OpenTelemetryMetricsSink.RETURNED_ROWS),
                    metricNames);
        } finally {
            server.shutdownNow();
        }
    }

    @Test
    void theMetricsSinkIsOffWithItsSwitchAndTheQueryShapeByDefault() {
        Map<String, Object> properties = new HashMap<>();
        properties.put("mongo-redact.opentelemetry-metrics.enabled", "false");
        MongoServer server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        try (ConfigurableApplicationContext context = start(server, properties)) {
            assertTrue(context.getBeanNamesForType(OpenTelemetryMetricsSink.class).length == 0);
            assertFalse(context.getBean(TracingSwitch.class).needsQueryShape());
            assertEquals(SpanNaming.DRIVER_SPECIFICATION, OpenTelemetryCommandSink.builder(OpenTelemetry.noop()).build()
                    .getSpanNaming(), "the default the properties keep");
        } finally {
            server.shutdownNow();
        }
    }

    private static ConfigurableApplicationContext start(final MongoServer server, final Map<String, Object> properties) {
        StandardEnvironment environment = MongoRedactStartupConditionTest.environment();
        Map<String, Object> all = new HashMap<>(properties);
        all.put("spring.main.banner-mode", "off");
        all.put("spring.main.allow-bean-definition-overriding", "true");
        all.put("spring.data.mongodb.uri", "mongodb://127.0.0.1:" + server.getLocalAddress().getPort() + "/test");
        environment.getPropertySources().addFirst(new MapPropertySource("test", all));
        SpringApplication application = new SpringApplication(Application.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setEnvironment(environment);
        return application.run();
    }
}
