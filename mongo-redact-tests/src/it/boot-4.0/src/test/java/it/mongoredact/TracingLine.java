package it.mongoredact;

import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.mongodb.autoconfigure.MongoClientSettingsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.mongodb.observability.MongoObservationCommandListener;

/** The settings customizers of the tracing tests, in this Spring Boot line's customizer type. */
final class TracingLine {
    private TracingLine() {
    }

    /** Spring Data's observation listener on the client, as applications add it. */
    @Configuration(proxyBeanMethods = false)
    static class SpringDataObservationConfiguration {
        @Bean
        MongoClientSettingsBuilderCustomizer springDataObservation(final ObservationRegistry registry) {
            return settings -> settings.addCommandListener(new MongoObservationCommandListener(registry));
        }
    }

    /** The driver's own tracing (5.7+) turned on with the application's registry, command payload on, by reflection. */
    @Configuration(proxyBeanMethods = false)
    static class DriversOwnTracingConfiguration {
        @Bean
        MongoClientSettingsBuilderCustomizer driversOwnTracing(final ObservationRegistry registry) {
            return settings -> DriversOwnTracing.turnOn(settings, registry);
        }
    }
}
