package it.mongoredact;

import com.mongodb.client.MongoClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static it.mongoredact.Workloads.PLANTED_EMAIL;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The logging recipes of docs/spring-boot.md, run: logback's {@code %kvp} in a pattern, and Spring Boot's structured
 * logging (ECS and Logstash). Their output is kept under target/recipes for the documentation.
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
        // the nested form docs/spring-boot.md shows (Boot 3.5 and 4.0; Boot 3.4 wrote flat keys, "log.level")
        assertTrue(lines.contains("\"log\":{\"level\":\"DEBUG\",\"logger\":\"io.github.mongoredact.command\"}"), lines);
    }

    @Test
    void logstashStructuredLoggingTurnsTheFieldsIntoJson(final CapturedOutput output) {
        String lines = run(output, "logstash", "logging.structured.format.console=logstash");
        assertTrue(lines.contains("\"commandName\":\"insert\""), lines);
        assertTrue(lines.contains("\"@version\":\"1\""), lines);
    }

    /**
     * The samples of docs/spring-boot.md (the Spring Boot guide's structured logging) quote query fingerprints of this
     * workload; a change to the fingerprint makes them stale. Their new values are in the recipes this class writes
     * (target/recipes of each Boot project, under target/it after mvn -B verify). Since 0.6 the log writes the fingerprint
     * under {@code fingerprint}; a sample that still quotes a 16-digit value under {@code queryShapeHash}, the key MongoDB's
     * own hash now has (64 upper-case hex digits), is stale too.
     */
    @Test
    void theDocumentsSampleFingerprintsAreThoseOfThisWorkload(final CapturedOutput output) throws IOException {
        String lines = run(output, "fingerprints", "logging.pattern.console=%-5level %logger - %msg %kvp%n");
        Set<String> run = new TreeSet<>();
        Matcher hash = Pattern.compile("\\bfingerprint=\"([0-9a-f]{16})\"").matcher(lines);
        while (hash.find()) {
            run.add(hash.group(1));
        }
        assertFalse(run.isEmpty(), lines);
        assertFalse(Pattern.compile("queryShapeHash=\"[0-9a-f]{16}\"").matcher(lines).find(),
                "the fingerprint under the server's key: " + lines);
        Pattern quoted = Pattern.compile("\\b(?:fingerprint|queryShapeHash)(?:\":\"|=\")([0-9a-f]{16})\"");
        int samples = 0;
        for (String document : List.of("docs/spring-boot.md")) {
            Matcher sample = quoted.matcher(Files.readString(Path.of(System.getProperty("it.mongoredact.project"), document),
                    StandardCharsets.UTF_8));
            while (sample.find()) {
                samples++;
                assertFalse(sample.group().startsWith("queryShapeHash"), document + " quotes the fingerprint "
                        + sample.group(1) + " under queryShapeHash, MongoDB's key since 0.6");
                assertTrue(run.contains(sample.group(1)), document + " quotes the fingerprint " + sample.group(1) + ", which"
                        + " is not a fingerprint of this workload any more (" + run + "): take its sample anew from the"
                        + " recipes under target/it/boot-*/target/recipes/ that mvn -B verify writes");
            }
        }
        assertTrue(samples >= 3, "the ECS, Logstash and %kvp samples with a fingerprint: " + samples);
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
