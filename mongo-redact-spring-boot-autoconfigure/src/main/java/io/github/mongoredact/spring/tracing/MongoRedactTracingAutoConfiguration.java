package io.github.mongoredact.spring.tracing;

import com.mongodb.MongoClientSettings;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.observation.DriverTracing;
import io.github.mongoredact.otel.OpenTelemetryCommandSink;
import io.github.mongoredact.otel.OpenTelemetryMetricsSink;
import io.github.mongoredact.otel.SpanNaming;
import io.github.mongoredact.spring.MongoRedactAutoConfiguration;
import io.micrometer.observation.ObservationFilter;
import io.micrometer.observation.ObservationHandler;
import io.opentelemetry.api.OpenTelemetry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * The tracing part of the Spring Boot auto-configuration ({@code mongo-redact.tracing.*}), for Spring Boot 3 and 4: one
 * {@link TracingSwitch} sink on the redacting listener, which traces with the {@link OpenTelemetryCommandSink} where the
 * application has an {@code OpenTelemetry} bean, or, where the client's settings turn the driver's own tracing on (driver
 * 5.7+), makes that tracing safe with the {@link DriverTracing} bean (its error handler registered first, ahead of the
 * tracing handler, and its query-text filter); never both, and nothing beside another instrumentation that already traces the
 * client's commands. With an {@code OpenTelemetry} bean, also the {@link OpenTelemetryMetricsSink}
 * ({@code mongo-redact.opentelemetry-metrics.*}), which the listener takes as it takes every sink bean.
 *
 * @since 0.3
 */
@AutoConfiguration(before = MongoRedactAutoConfiguration.class, afterName = {
        "org.springframework.boot.actuate.autoconfigure.opentelemetry.OpenTelemetryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.tracing.OpenTelemetryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration",
        "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration",
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"})
@ConditionalOnClass(MongoClientSettings.class)
@ConditionalOnProperty(prefix = "mongo-redact", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties({MongoRedactTracingProperties.class, MongoRedactOpenTelemetryMetricsProperties.class})
public class MongoRedactTracingAutoConfiguration {

    /**
     * The tracing sink the redacting listener takes (it takes every {@code CommandSink} bean).
     *
     * @param sink the OpenTelemetry sink, where there is an OpenTelemetry bean
     * @param bridge the driver's own tracing made safe, where the driver has it
     * @return the switch
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "mongo-redact.tracing", name = "enabled", havingValue = "true", matchIfMissing = true)
    public TracingSwitch mongoRedactTracing(final ObjectProvider<SinkHolder> sink, final ObjectProvider<BridgeHolder> bridge) {
        SinkHolder otel = sink.getIfAvailable();
        BridgeHolder driver = bridge.getIfAvailable();
        return new TracingSwitch(otel == null ? null : otel.sink, driver == null ? null : driver.bridge);
    }

    /** The OpenTelemetry sink, held so that the listener does not take it as a sink of its own. */
    public static final class SinkHolder {
        final OpenTelemetryCommandSink sink;

        SinkHolder(final OpenTelemetryCommandSink sink) {
            this.sink = sink;
        }
    }

    /** The driver's own tracing, as the switch needs it. */
    public static final class BridgeHolder {
        final TracingSwitch.Bridge bridge;

        BridgeHolder(final TracingSwitch.Bridge bridge) {
            this.bridge = bridge;
        }
    }

    /** With an OpenTelemetry bean and mongo-redact-opentelemetry: the sink. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"io.opentelemetry.api.OpenTelemetry", "io.github.mongoredact.otel.OpenTelemetryCommandSink"})
    @ConditionalOnBean(type = "io.opentelemetry.api.OpenTelemetry")
    @ConditionalOnProperty(prefix = "mongo-redact.tracing", name = "enabled", havingValue = "true", matchIfMissing = true)
    static class OpenTelemetrySinkConfiguration {
        @Bean
        SinkHolder mongoRedactOpenTelemetrySink(final OpenTelemetry openTelemetry,
                                                final MongoRedactTracingProperties properties) {
            OpenTelemetryCommandSink.Builder builder = OpenTelemetryCommandSink.builder(openTelemetry).enabled(true)
                    .spanNaming(SpanNaming.valueOf(properties.getSpanNaming().name())).queryShape(properties.isQueryShape());
            if (properties.getQueryTextMaxLength() != null) {
                builder.queryTextMaxLength(properties.getQueryTextMaxLength());
            }
            return new SinkHolder(builder.build());
        }
    }

    /**
     * With an OpenTelemetry bean and mongo-redact-opentelemetry: the metrics sink ({@code db.client.operation.duration}),
     * unless the application has its own; {@code mongo-redact.opentelemetry-metrics.enabled=false} turns it off. It does not
     * follow the tracing switch: the metrics are recorded beside whatever traces the commands.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"io.opentelemetry.api.OpenTelemetry", "io.github.mongoredact.otel.OpenTelemetryMetricsSink"})
    @ConditionalOnBean(type = "io.opentelemetry.api.OpenTelemetry")
    @ConditionalOnProperty(prefix = "mongo-redact.opentelemetry-metrics", name = "enabled", havingValue = "true",
            matchIfMissing = true)
    static class OpenTelemetryMetricsConfiguration {
        @Bean
        @ConditionalOnMissingBean
        OpenTelemetryMetricsSink mongoRedactOpenTelemetryMetricsSink(final OpenTelemetry openTelemetry,
                                                                     final MongoRedactOpenTelemetryMetricsProperties properties) {
            return OpenTelemetryMetricsSink.builder(openTelemetry).returnedRows(properties.isReturnedRows()).build();
        }
    }

    /**
     * Where the driver has its own tracing (5.7+) and Micrometer Observation and mongo-redact-opentelemetry are present: the
     * {@link DriverTracing} bean, its error handler ordered first (Spring Boot registers observation handlers in bean order,
     * the tracing handlers after it) and its query-text filter. They act only on the driver's own observations.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"com.mongodb.observability.micrometer.MicrometerObservabilitySettings",
            "io.micrometer.observation.ObservationRegistry", "io.github.mongoredact.observation.DriverTracing"})
    @ConditionalOnProperty(prefix = "mongo-redact.tracing", name = "enabled", havingValue = "true", matchIfMissing = true)
    static class DriverTracingConfiguration {
        @Bean
        @ConditionalOnMissingBean
        DriverTracing mongoRedactDriverTracing(final ObjectProvider<RedactionPolicy> policy,
                                               final MongoRedactTracingProperties properties) {
            DriverTracing.Builder builder = DriverTracing.builder().policy(policy.getIfAvailable(RedactionPolicy::defaults));
            if (properties.getQueryTextMaxLength() != null) {
                builder.queryTextMaxLength(properties.getQueryTextMaxLength());
            }
            return builder.build();
        }

        @Bean
        @Order(Ordered.HIGHEST_PRECEDENCE)
        ObservationHandler<?> mongoRedactErrorScrubbingHandler(final DriverTracing tracing) {
            return tracing.errorHandler();
        }

        @Bean
        ObservationFilter mongoRedactQueryTextFilter(final DriverTracing tracing) {
            return tracing.queryTextFilter();
        }

        @Bean
        BridgeHolder mongoRedactDriverTracingBridge(final DriverTracing tracing) {
            return new BridgeHolder(new TracingSwitch.Bridge(tracing.sink(), DriverTracing::tracesItself,
                    tracing::turnPayloadOff));
        }
    }

    /** Spring Boot 3's settings customizer: the switch chooses when the client is made. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.autoconfigure.mongo.MongoClientSettingsBuilderCustomizer")
    static class Boot3Customizer {
        @Bean
        org.springframework.boot.autoconfigure.mongo.MongoClientSettingsBuilderCustomizer mongoRedactTracingCustomizer(
                final ObjectProvider<TracingSwitch> tracing) {
            return new Boot3(tracing);
        }
    }

    /** Spring Boot 4's settings customizer. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.mongodb.autoconfigure.MongoClientSettingsBuilderCustomizer")
    static class Boot4Customizer {
        @Bean
        org.springframework.boot.mongodb.autoconfigure.MongoClientSettingsBuilderCustomizer mongoRedactTracingCustomizer(
                final ObjectProvider<TracingSwitch> tracing) {
            return new Boot4(tracing);
        }
    }

    /** Applied last among the customizers (after the application's own, which may turn the driver's tracing on). */
    private abstract static class Choosing implements Ordered {
        private final ObjectProvider<TracingSwitch> tracing;

        Choosing(final ObjectProvider<TracingSwitch> tracing) {
            this.tracing = tracing;
        }

        public void customize(final MongoClientSettings.Builder builder) {
            tracing.ifAvailable(choice -> choice.choose(builder));
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }

    /** Spring Boot 3's customizer type. */
    private static final class Boot3 extends Choosing
            implements org.springframework.boot.autoconfigure.mongo.MongoClientSettingsBuilderCustomizer {
        Boot3(final ObjectProvider<TracingSwitch> tracing) {
            super(tracing);
        }
    }

    /** Spring Boot 4's customizer type. */
    private static final class Boot4 extends Choosing
            implements org.springframework.boot.mongodb.autoconfigure.MongoClientSettingsBuilderCustomizer {
        Boot4(final ObjectProvider<TracingSwitch> tracing) {
            super(tracing);
        }
    }
}
