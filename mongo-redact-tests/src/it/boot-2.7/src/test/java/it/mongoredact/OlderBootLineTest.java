package it.mongoredact;

import com.mongodb.client.MongoClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A Spring Boot 2.7 application with the dependency: a clear report at the start, or a plain start with the library off. */
@ExtendWith(OutputCaptureExtension.class)
class OlderBootLineTest {

    /** The application: nothing but auto-configuration. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class UserApplication {
    }

    private static ConfigurableApplicationContext start(final String... properties) {
        return new SpringApplicationBuilder(UserApplication.class).web(WebApplicationType.NONE)
                .properties("spring.data.mongodb.uri=mongodb://127.0.0.1:1/test").properties(properties).run();
    }

    @Test
    void theStartFailsWithAReportThatNamesTheSpringBootLineAndWhatToChange(final CapturedOutput output) {
        assertEquals("2.7.18", SpringBootVersion.getVersion());
        assertThrows(RuntimeException.class, () -> start().close());
        String report = output.getAll();
        assertTrue(report.contains("APPLICATION FAILED TO START"), report);
        assertTrue(report.contains("mongo-redact's Spring Boot auto-configuration supports Spring Boot 3.2 or later (3.x and"
                + " 4.x); this application runs Spring Boot 2.7.18."), report);
        assertTrue(report.contains("Upgrade to Spring Boot 3.2 or later. To start without mongo-redact's auto-configuration,"
                + " set mongo-redact.enabled=false"), report);
        assertFalse(report.contains("NoClassDefFoundError"), report);
    }

    @Test
    void withTheAutoConfigurationTurnedOffTheApplicationStarts() {
        try (ConfigurableApplicationContext context = start("mongo-redact.enabled=false")) {
            assertNotNull(context.getBean(MongoClient.class));
            assertTrue(context.getBeansOfType(com.mongodb.event.CommandListener.class).isEmpty());
            assertFalse(context.containsBean("mongoRedactCommandListener"));
        }
    }
}
