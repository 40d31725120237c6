package it.mongoredact;

import org.springframework.boot.autoconfigure.mongo.MongoClientSettingsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** What differs between the Spring Boot lines, for the shared tests: here Spring Boot 3.5. */
final class BootLine {
    static final String NAME = "3.5";
    /** Where Boot 3 reads the connection string. */
    static final String URI_PROPERTY = "spring.data.mongodb.uri";
    /** The property that turns Spring Boot's command timer off (Micrometer's listener, and mongo-redact's sink), Boot 3's name. */
    static final String MICROMETER_COMMAND_PROPERTY = "management.metrics.mongo.command.enabled";
    static final String SYNC_AUTO_CONFIGURATIONS = "org.springframework.boot.autoconfigure.mongo.MongoAutoConfiguration";
    static final String REACTIVE_AUTO_CONFIGURATIONS =
            "org.springframework.boot.autoconfigure.mongo.MongoReactiveAutoConfiguration";

    private BootLine() {
    }

    /** An application's own customizer adding its own command listener, as users (and Spring Data's observation) do. */
    @Configuration(proxyBeanMethods = false)
    static class UserListenerConfiguration {
        @Bean
        RecordingListener recordingListener() {
            return new RecordingListener();
        }

        @Bean
        MongoClientSettingsBuilderCustomizer userListenerCustomizer(final RecordingListener listener) {
            return settings -> settings.addCommandListener(listener);
        }
    }
}
