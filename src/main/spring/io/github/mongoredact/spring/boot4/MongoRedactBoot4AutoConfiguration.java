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
@AutoConfiguration(after = MongoRedactAutoConfiguration.class)
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
