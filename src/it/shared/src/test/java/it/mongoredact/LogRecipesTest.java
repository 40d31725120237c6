package it.mongoredact;

import com.mongodb.client.MongoClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.util.List;
import java.util.stream.Collectors;

import static it.mongoredact.Workloads.PLANTED_EMAIL;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's logging recipes, run: logback's {@code %kvp} in a pattern, and Spring Boot's structured logging (ECS and
 * Logstash). Their output is kept under target/recipes for the documentation.
 */
@ExtendWith(OutputCaptureExtension.class)
class LogRecipesTest {
    private static final String DEBUG_LOG = "logging.level.io.github.mongoredact.command=debug";

    /** Spring Boot hands logging settings to logback through system properties, which outlive an application: clear them. */
    @BeforeEach
    @AfterEach
    void clearLoggingSystemProperties() {
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("CONSOLE_LOG_") || name.startsWith("FILE_LOG_") || name.startsWith("LOG_")) {
                System.clearProperty(name);
            }
        }
    }

    @Test
    void kvpPatternShowsTheStructuredFields(final CapturedOutput output) {
        String lines = run(output, "kvp", "logging.pattern.console=%-5level %logger - %msg %kvp%n");
        assertTrue(lines.contains("commandName=\"insert\""), lines);
        assertTrue(lines.contains("command=\""), lines);
    }

    @Test
    void ecsStructuredLoggingTurnsTheFieldsIntoJson(final CapturedOutput output) {
        String lines = run(output, "ecs", "logging.structured.format.console=ecs");
        assertTrue(lines.contains("\"commandName\":\"insert\""), lines);
        assertTrue(lines.contains("\"ecs\":{\"version\""), lines);
        // the nested form the README shows (Boot 3.5 and 4.0; Boot 3.4 wrote flat keys, "log.level")
        assertTrue(lines.contains("\"log\":{\"level\":\"DEBUG\",\"logger\":\"io.github.mongoredact.command\"}"), lines);
    }

    @Test
    void logstashStructuredLoggingTurnsTheFieldsIntoJson(final CapturedOutput output) {
        String lines = run(output, "logstash", "logging.structured.format.console=logstash");
        assertTrue(lines.contains("\"commandName\":\"insert\""), lines);
        assertTrue(lines.contains("\"@version\":\"1\""), lines);
    }

    private static String run(final CapturedOutput output, final String name, final String setting) {
        try (RunningApp app = RunningApp.sync(List.of(), DEBUG_LOG, setting)) {
            Workloads.sync(app.bean(MongoClient.class));
        }
        String lines = output.getAll().lines().filter(line -> line.contains("io.github.mongoredact.command"))
                .collect(Collectors.joining("\n"));
        Recipes.write(name, lines);
        assertFalse(output.getAll().contains(PLANTED_EMAIL), "planted value in the " + name + " output");
        return lines;
    }
}
