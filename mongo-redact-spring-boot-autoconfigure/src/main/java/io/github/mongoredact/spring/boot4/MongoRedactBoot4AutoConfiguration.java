package io.github.mongoredact.spring.boot4;

import com.mongodb.MongoClientSettings;
import io.github.mongoredact.spring.ListenerArrangement;
import io.github.mongoredact.spring.MongoRedactAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.mongodb.autoconfigure.MongoClientSettingsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * Spring Boot 4: puts the redacting listener on the auto-configured sync and reactive clients through Boot 4's
 * {@code org.springframework.boot.mongodb.autoconfigure.MongoClientSettingsBuilderCustomizer}, applied last.
 *
 * @since 0.1
 */
// After the auto-configurations that define customizers too: with the same (lowest) order, Spring keeps the order of the bean
// definitions, so ours, defined later, is applied after theirs (and after the application's own, defined before any).
@AutoConfiguration(after = MongoRedactAutoConfiguration.class, afterName = {
        "org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration",
        "org.springframework.boot.mongodb.autoconfigure.MongoReactiveAutoConfiguration",
        "org.springframework.boot.mongodb.autoconfigure.metrics.MongoMetricsAutoConfiguration",
        "org.springframework.boot.data.mongodb.autoconfigure.DataMongoAutoConfiguration",
        "org.springframework.boot.data.mongodb.autoconfigure.DataMongoReactiveAutoConfiguration"})
@ConditionalOnClass(name = "org.springframework.boot.mongodb.autoconfigure.MongoClientSettingsBuilderCustomizer")
@ConditionalOnBean(ListenerArrangement.class)
public class MongoRedactBoot4AutoConfiguration {

    /**
     * @param arrangement the arrangement of the client's listeners
     * @return the customizer, ordered last
     */
    @Bean
    public MongoClientSettingsBuilderCustomizer mongoRedactClientSettingsBuilderCustomizer(final ListenerArrangement arrangement) {
        return new LastCustomizer(arrangement);
    }

    /** Ordered last, so that it sees what every other customizer added. */
    static final class LastCustomizer implements MongoClientSettingsBuilderCustomizer, Ordered {
        private final ListenerArrangement arrangement;

        LastCustomizer(final ListenerArrangement arrangement) {
            this.arrangement = arrangement;
        }

        @Override
        public void customize(final MongoClientSettings.Builder builder) {
            arrangement.arrange(builder);
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }
}
