package io.github.mongoredact.spring;

import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.handoff.HandOffSink;
import io.github.mongoredact.micrometer.HandOffSinkMetrics;
import io.github.mongoredact.micrometer.ListenerCountersMetrics;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.Map;

/**
 * The Micrometer part of {@link MongoRedactAutoConfiguration}: the {@link MicrometerCommandSink}, which records
 * {@code mongodb.driver.commands} with Micrometer's own names and tags, and the listener's and hand-offs' counters as meters.
 * Only where Micrometer is on the class path and the application has a {@code MeterRegistry} bean.
 *
 * @since 0.1
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnProperty(prefix = "mongo-redact.metrics", name = "enabled", havingValue = "true", matchIfMissing = true)
public class MongoRedactMetricsConfiguration {

    /**
     * The metrics sink; an application's own {@link MicrometerCommandSink} bean wins.
     *
     * @param registry the registry
     * @param properties the properties
     * @return the sink
     */
    @Bean
    @ConditionalOnMissingBean
    public MicrometerCommandSink mongoRedactMicrometerCommandSink(final MeterRegistry registry,
                                                                  final MongoRedactProperties properties) {
        return MicrometerCommandSink.builder(registry)
                .fingerprintTag(properties.getMetrics().isFingerprintTag())
                .writeErrorsAsFailures(properties.getMetrics().isWriteErrorsAsFailures())
                .build();
    }

    /**
     * Binds the listener's counters ({@code mongoredact.listener.*}) and each {@link HandOffSink} bean's
     * ({@code mongoredact.handoff.*}, tagged with the bean name) once every singleton exists: the listener needs the sink, so
     * the sink can not take the listener when it is made.
     *
     * @param sink the metrics sink
     * @param listener the listener
     * @param beanFactory the bean factory, for the hand-off beans and their names
     * @return the binder
     */
    @Bean
    public static SmartInitializingSingleton mongoRedactCounterMeters(final ObjectProvider<MicrometerCommandSink> sink,
                                                                      final ObjectProvider<RedactingCommandListener> listener,
                                                                      final ConfigurableListableBeanFactory beanFactory) {
        return () -> {
            MicrometerCommandSink metrics = sink.getIfUnique();
            RedactingCommandListener redacting = listener.getIfUnique();
            if (metrics == null || redacting == null) {
                return;
            }
            new ListenerCountersMetrics(redacting.getCounters()).bindTo(metrics.getRegistry());
            for (Map.Entry<String, HandOffSink> handOff : beanFactory.getBeansOfType(HandOffSink.class, false, false).entrySet()) {
                new HandOffSinkMetrics(handOff.getValue(), handOff.getKey()).bindTo(metrics.getRegistry());
            }
        };
    }
}
