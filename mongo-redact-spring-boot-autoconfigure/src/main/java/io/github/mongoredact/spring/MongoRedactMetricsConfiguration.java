package io.github.mongoredact.spring;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.handoff.HandOffSink;
import io.github.mongoredact.micrometer.HandOffSinkMetrics;
import io.github.mongoredact.micrometer.ListenerCountersMetrics;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.mongodb.DefaultMongoCommandTagsProvider;
import io.micrometer.core.instrument.binder.mongodb.MongoCommandTagsProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

import java.util.Map;

/**
 * The Micrometer part of {@link MongoRedactAutoConfiguration}: the {@link MicrometerCommandSink}, which records
 * {@code mongodb.driver.commands} with Micrometer's own names and tags, and the listener's and hand-offs' counters as meters.
 * Only where Micrometer and mongo-redact-micrometer are on the class path and the application has a {@code MeterRegistry}
 * bean.
 *
 * <p>Spring Boot's own contracts for its command timer hold for this one, which replaces Micrometer's
 * {@code MongoMetricsCommandListener} on the client: an application's {@link MongoCommandTagsProvider} bean tags it (Spring
 * Boot's default provider is left out, as the sink's own tags are the same and cost nothing), and Spring Boot's switch
 * ({@code management.metrics.mongo.command.enabled} on Boot 3, {@code management.metrics.mongodb.command.enabled} on Boot 4)
 * turns the sink off, the listener's and hand-offs' counters staying.</p>
 *
 * @since 0.1
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(value = MeterRegistry.class, name = "io.github.mongoredact.micrometer.MicrometerCommandSink")
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnProperty(prefix = "mongo-redact.metrics", name = "enabled", havingValue = "true", matchIfMissing = true)
public class MongoRedactMetricsConfiguration {

    /**
     * The metrics sink, while Spring Boot's switch of command metrics is on; an application's own
     * {@link MicrometerCommandSink} bean wins.
     *
     * @param registry the registry
     * @param properties the properties
     * @param tagsProvider the application's {@link MongoCommandTagsProvider} bean, or Spring Boot's default one, if any
     * @return the sink
     */
    @Bean
    @ConditionalOnMissingBean
    @Conditional(OnBootCommandMetricsCondition.class)
    public MicrometerCommandSink mongoRedactMicrometerCommandSink(final MeterRegistry registry,
                                                                  final MongoRedactProperties properties,
                                                                  final ObjectProvider<MongoCommandTagsProvider> tagsProvider) {
        return MicrometerCommandSink.builder(registry)
                .fingerprintTag(properties.getMetrics().isFingerprintTag())
                .queryShapeHashTag(properties.getMetrics().isQueryShapeHashTag())
                .writeErrorsAsFailures(properties.getMetrics().isWriteErrorsAsFailures())
                .sizeSummaries(properties.getMetrics().isSizeSummaries())
                .commandTagsProvider(applicationsOwn(tagsProvider.getIfAvailable()))
                .build();
    }

    /**
     * @return the provider, or null for none or for Micrometer's default provider itself (as Spring Boot defines it when the
     *         application has none), whose tags are the sink's own: so that only an application's provider costs anything
     */
    @Nullable
    static MongoCommandTagsProvider applicationsOwn(@Nullable final MongoCommandTagsProvider provider) {
        return provider == null || provider.getClass() == DefaultMongoCommandTagsProvider.class ? null : provider;
    }

    /**
     * Binds the listener's counters ({@code mongoredact.listener.*}) and each {@link HandOffSink} bean's
     * ({@code mongoredact.handoff.*}, tagged with the bean name) once every singleton exists: the listener needs the sink, so
     * the sink can not take the listener when it is made. Into the metrics sink's registry, or without a sink (Spring Boot's
     * switch of command metrics off) the application's.
     *
     * @param sink the metrics sink
     * @param registry the application's registry
     * @param listener the listener
     * @param beanFactory the bean factory, for the hand-off beans and their names
     * @return the binder
     */
    @Bean
    public static SmartInitializingSingleton mongoRedactCounterMeters(final ObjectProvider<MicrometerCommandSink> sink,
                                                                      final ObjectProvider<MeterRegistry> registry,
                                                                      final ObjectProvider<RedactingCommandListener> listener,
                                                                      final ConfigurableListableBeanFactory beanFactory) {
        return () -> {
            MicrometerCommandSink metrics = sink.getIfUnique();
            MeterRegistry meters = metrics != null ? metrics.getRegistry() : registry.getIfUnique();
            RedactingCommandListener redacting = listener.getIfUnique();
            if (meters == null || redacting == null) {
                return;
            }
            new ListenerCountersMetrics(redacting.getCounters()).bindTo(meters);
            for (Map.Entry<String, HandOffSink> handOff : beanFactory.getBeansOfType(HandOffSink.class, false, false).entrySet()) {
                new HandOffSinkMetrics(handOff.getValue(), handOff.getKey()).bindTo(meters);
            }
        };
    }
}
