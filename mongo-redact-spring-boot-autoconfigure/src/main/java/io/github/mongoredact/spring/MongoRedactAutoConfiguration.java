package io.github.mongoredact.spring;

import com.mongodb.MongoClientSettings;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.FieldAction;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.RedactionPolicyBuilder;
import io.github.mongoredact.log.CommandLogSink;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The Spring Boot auto-configuration of mongo-redact, common to Spring Boot 3 and 4: the policy, the log sink, the Micrometer
 * sink (when a {@code MeterRegistry} bean exists), the redacting listener, and the {@link ListenerArrangement} that the
 * line-specific settings customizers ({@code boot3}, {@code boot4}) apply to the auto-configured client.
 *
 * <p>Each bean backs off when the application defines its own of the same type. Every {@link CommandSink} bean in the
 * context is added to the listener, then the place for the listeners moved off the client
 * ({@code mongo-redact.wrap-other-listeners}).</p>
 *
 * <p>{@link MongoRedactStartupCondition} decides whether it applies ({@code mongo-redact.enabled}) and, before anything is
 * bound, stops the start with a report where it can not work (Java, Spring Boot or driver line) or where a
 * {@code mongo-redact.*} property holds a value its type does not take. That check covers the properties of every part of the
 * library, those added later included, with nothing more than their place in a {@code @ConfigurationProperties} class under
 * {@code src/main/spring} (see {@code MongoRedactPropertyValidator}); and it stops the start whatever the order in which the
 * auto-configurations are evaluated, even where another one's {@code @ConditionalOnProperty} has read the bad value first.</p>
 *
 * @since 0.1
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass(MongoClientSettings.class)
@Conditional(MongoRedactStartupCondition.class)
@EnableConfigurationProperties(MongoRedactProperties.class)
@Import(MongoRedactMetricsConfiguration.class)
public class MongoRedactAutoConfiguration {

    /**
     * The policy from the properties; an application's own {@link RedactionPolicy} bean wins.
     *
     * @param properties the properties
     * @return the policy
     */
    @Bean
    @ConditionalOnMissingBean
    public RedactionPolicy mongoRedactPolicy(final MongoRedactProperties properties) {
        RedactionPolicyBuilder builder = RedactionPolicy.builder(properties.getPolicy() == MongoRedactProperties.Policy.SPEC
                ? RedactionPolicy.specOnly() : RedactionPolicy.defaults());
        properties.getKeep().forEach(builder::keep);
        properties.getRedact().forEach(builder::redact);
        properties.getDrop().forEach(builder::drop);
        properties.getReplyKeep().forEach(path -> builder.replyField(path, FieldAction.KEEP));
        properties.getReplyRedact().forEach(path -> builder.replyField(path, FieldAction.REDACT));
        properties.getReplyDrop().forEach(path -> builder.replyField(path, FieldAction.DROP));
        builder.placeholderStyle(properties.getPlaceholderStyle());
        Integer maxSequenceDocuments = properties.getMaxSequenceDocuments();
        if (maxSequenceDocuments != null) {
            builder.maxSequenceDocuments(maxSequenceDocuments);
        }
        builder.maxDocumentBytes(properties.getMaxDocumentBytes());
        return builder.build();
    }

    /**
     * The SLF4J command log.
     *
     * @param properties the properties
     * @return the sink
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnClass(name = "org.slf4j.Logger")
    @ConditionalOnProperty(prefix = "mongo-redact.log", name = "enabled", havingValue = "true", matchIfMissing = true)
    public CommandLogSink mongoRedactCommandLogSink(final MongoRedactProperties properties) {
        MongoRedactProperties.Log log = properties.getLog();
        CommandLogSink.Builder builder = CommandLogSink.builder().loggerName(log.getLoggerName()).level(log.getLevel());
        CommandLogSink.Level errorLevel = log.getErrorLevel();
        if (errorLevel != null) {
            builder.errorLevel(errorLevel);
        }
        Duration onlySlowOrFailed = log.getOnlySlowOrFailed();
        if (onlySlowOrFailed != null) {
            builder.onlySlowOrFailed(onlySlowOrFailed.toNanos(), TimeUnit.NANOSECONDS);
        }
        Boolean keyValuePairs = log.getKeyValuePairs();
        if (keyValuePairs != null) {
            builder.keyValuePairs(keyValuePairs);
        }
        return builder.build();
    }

    /**
     * The redacting listener: the policy, then every {@link CommandSink} bean (in bean order), then the place for the
     * listeners moved off the client. An application's own {@link RedactingCommandListener} bean wins.
     *
     * @param policy the policy
     * @param properties the properties
     * @param sinks the sink beans; created before the listener, which the client needs, so destroyed after the client (a
     *              {@code HandOffSink} bean is closed once the client is)
     * @return the listener
     */
    @Bean
    @ConditionalOnMissingBean
    public RedactingCommandListener mongoRedactCommandListener(final RedactionPolicy policy, final MongoRedactProperties properties,
                                                               final ObjectProvider<CommandSink> sinks) {
        List<CommandSink> downstream = sinks.orderedStream().collect(Collectors.toList());
        return build(policy, properties.getMaxInFlight(), downstream,
                properties.isWrapOtherListeners() ? new MovedListeners() : null);
    }

    /**
     * Where the auto-configured client's listeners are arranged, for the Boot-line customizers.
     *
     * @param listener the listener (ours or the application's)
     * @param properties the properties
     * @return the arrangement
     */
    @Bean
    @ConditionalOnMissingBean
    public ListenerArrangement mongoRedactListenerArrangement(final RedactingCommandListener listener,
                                                              final MongoRedactProperties properties) {
        return new ListenerArrangement(listener, properties.getMetrics().isReplaceMicrometerListener(),
                properties.isWrapOtherListeners());
    }

    /** The one place that adds the sinks and the place for the moved listeners. */
    static RedactingCommandListener build(final RedactionPolicy policy, final int maxInFlight, final List<CommandSink> sinks,
                                          @Nullable final MovedListeners moved) {
        RedactingCommandListener.Builder builder = RedactingCommandListener.builder().policy(policy).maxInFlight(maxInFlight);
        for (CommandSink sink : sinks) {
            builder.addSink(sink);
        }
        if (moved != null) {
            builder.addSink(moved);
        }
        return builder.build();
    }
}
