package io.github.mongoredact.spring;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertiesPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The start-up condition refuses every {@code mongo-redact.*} property that binds to nothing, naming the nearest known one, on
 * Spring Boot's own environment and property sources (the test class path's Spring Boot 3.5), while every form in which
 * Spring Boot binds a known property passes. Real application starts: {@code MetricsContractsTest} here and the projects under
 * {@code src/it} (Boot 3.5 and 4.0, each with the same application without mongo-redact as the control).
 */
class UnknownPropertyCheckTest {

    @Test
    void theIssuesTypoStopsTheStartNamingTheNearestPropertyAndWhatToDo() {
        MongoRedactStartupException refused = refused(Map.of("mongo-redact.polcy", "spec"));
        assertEquals("A mongo-redact property binds to nothing:\n\n"
                + "    Property: mongo-redact.polcy\n"
                + "    Value: \"spec\"\n"
                + "    Origin: \"mongo-redact.polcy\" from property source \"test\"\n"
                + "    Reason: mongo-redact.polcy is not a mongo-redact property; did you mean mongo-redact.policy?",
                refused.getDescription());
        assertEquals("Write mongo-redact.policy instead of mongo-redact.polcy, or remove it. The properties mongo-redact takes"
                + " are listed in its jar's META-INF/spring-configuration-metadata.json, which IDEs complete.", refused.getAction());
        FailureAnalysis analysis = new MongoRedactFailureAnalyzer().analyze(new IllegalStateException("wrapped", refused));
        assertNotNull(analysis);
        assertEquals(refused.getDescription(), analysis.getDescription());
        assertEquals(refused.getAction(), analysis.getAction());
    }

    @Test
    void typosInEveryFormNameTheNearestProperty() {
        Map<String, String> nearest = new LinkedHashMap<>();
        nearest.put("mongo-redact.maxInFlihgt", "mongo-redact.max-in-flight");
        nearest.put("mongo-redact.log.levle", "mongo-redact.log.level");
        nearest.put("mongo-redact.metric.enabled", "mongo-redact.metrics.enabled");
        nearest.put("mongo-redact.tracing.query-text-max-lenght", "mongo-redact.tracing.query-text-max-length");
        nearest.put("mongo-redact.wrap_other_listener", "mongo-redact.wrap-other-listeners");
        nearest.put("mongo-redact.enabeld", "mongo-redact.enabled");
        nearest.put("mongo-redact.poilcy", "mongo-redact.policy");
        nearest.put("mongo-redact.kep[0]", "mongo-redact.keep");
        nearest.put("mongo-redact.policy[0]", "mongo-redact.policy");
        nearest.put("mongo-redact.reply-keeps", "mongo-redact.reply-keep");
        nearest.put("mongo-redact.log.level.extra", "mongo-redact.log.level");
        nearest.put("mongo-redact.log", "mongo-redact.log.level");
        for (Map.Entry<String, String> typo : nearest.entrySet()) {
            MongoRedactStartupException refused = refused(Map.of(typo.getKey(), "x"));
            assertTrue(refused.getDescription().contains("    Property: " + typo.getKey() + "\n"), refused.getMessage());
            assertTrue(refused.getDescription().endsWith("Reason: " + typo.getKey() + " is not a mongo-redact property; did you"
                    + " mean " + typo.getValue() + "?"), refused.getMessage());
        }
    }

    @Test
    void environmentVariablesAreLookedAtAndNamedWithTheirOrigin() {
        MongoRedactStartupException polcy = refusedFromVariables(Map.of("MONGOREDACT_POLCY", "spec"));
        assertTrue(polcy.getDescription().contains("Property: mongo-redact.polcy\n"), polcy.getMessage());
        assertTrue(polcy.getDescription().contains("Origin: \"MONGOREDACT_POLCY\" from property source \"systemEnvironment\""),
                polcy.getMessage());
        assertTrue(polcy.getDescription().endsWith("did you mean mongo-redact.policy?"), polcy.getMessage());
        // not a form Spring Boot binds to max-in-flight (that is MONGOREDACT_MAXINFLIGHT)
        MongoRedactStartupException split = refusedFromVariables(Map.of("MONGOREDACT_MAX_IN_FLIGHT", "5"));
        assertTrue(split.getDescription().endsWith("mongo-redact.max.in.flight is not a mongo-redact property; did you mean"
                + " mongo-redact.max-in-flight?"), split.getMessage());
    }

    @Test
    void everyPropertyOfTheMetadataPassesInEveryFormSpringBootBinds() throws Exception {
        int forms = 0;
        for (MongoRedactPropertyValidator.Property property : MongoRedactPropertyValidator.properties()) {
            String value = validValue(property.type);
            String[] path = property.name.substring("mongo-redact.".length()).split("\\.");
            List<String> names = new ArrayList<>(List.of(property.name, property.name.replace('-', '_'),
                    property.name.toUpperCase(Locale.ROOT), "mongoRedact." + camel(path)));
            if (property.type.startsWith("java.util.List<")) {
                names.add(property.name + "[0]");
                names.add(property.name + "[1]");
            }
            for (String name : names) {
                Map<String, Object> values = new LinkedHashMap<>();
                values.put(name, value);
                if (name.endsWith("[1]")) {
                    values.put(name.replace("[1]", "[0]"), value);
                }
                assertTrue(outcome(values).isMatch(), name);
                forms++;
            }
            String variable = "MONGOREDACT_" + String.join("_", path).replace("-", "").toUpperCase(Locale.ROOT);
            assertTrue(outcomeOfVariables(Map.of(variable, value)).isMatch(), variable);
            forms++;
            if (property.type.startsWith("java.util.List<")) {
                assertTrue(outcomeOfVariables(Map.of(variable + "_0_", value)).isMatch(), variable + "_0_");
                forms++;
            }
        }
        System.out.println("relaxed forms of the metadata's properties checked: " + forms);
        assertTrue(forms >= 140, "forms checked: " + forms);
    }

    @Test
    void theQueryShapeHashTagIsKnownAndItsTyposNameIt() {
        assertTrue(MongoRedactPropertyValidator.properties().stream()
                .anyMatch(p -> p.name.equals("mongo-redact.metrics.query-shape-hash-tag") && p.type.equals("java.lang.Boolean")),
                "in the metadata the check reads");
        assertTrue(outcome(Map.of("mongo-redact.metrics.query-shape-hash-tag", "true")).isMatch());
        assertTrue(outcome(Map.of("mongoRedact.metrics.queryShapeHashTag", "true")).isMatch());
        for (String typo : List.of("mongo-redact.metrics.query-shape-tag", "mongo-redact.metrics.queryshape-hash-tags")) {
            assertTrue(refused(Map.of(typo, "true")).getDescription().endsWith("did you mean"
                    + " mongo-redact.metrics.query-shape-hash-tag?"), typo);
        }
    }

    @Test
    void anEmptySectionPassesAndASectionWithAValueDoesNot() {
        assertTrue(outcome(Map.of("mongo-redact.log", "", "mongo-redact.metrics", "")).isMatch());
        assertTrue(refused(Map.of("mongo-redact.metrics", "off")).getDescription().contains("Property: mongo-redact.metrics\n"));
    }

    @Test
    void everyUnknownPropertyIsReportedAtOnceAndEachOnce() {
        StandardEnvironment environment = MongoRedactStartupConditionTest.environment();
        Map<String, Object> first = new LinkedHashMap<>();
        first.put("mongo-redact.polcy", "spec");
        first.put("mongo-redact.log.levle", "info");
        environment.getPropertySources().addFirst(new MapPropertySource("first", first));
        environment.getPropertySources().addLast(new MapPropertySource("second", Map.of("mongo-redact.polcy", "defaults")));
        MongoRedactStartupException refused = assertThrows(MongoRedactStartupException.class,
                () -> new MongoRedactStartupCondition().getMatchOutcome(MongoRedactStartupConditionTest.context(environment), null));
        String description = refused.getDescription();
        assertTrue(description.startsWith("2 mongo-redact properties bind to nothing:\n\n"), description);
        assertTrue(description.contains("did you mean mongo-redact.policy?"), description);
        assertTrue(description.contains("did you mean mongo-redact.log.level?"), description);
        assertEquals(description.indexOf("Property: mongo-redact.polcy"), description.lastIndexOf("Property: mongo-redact.polcy"));
        assertTrue(description.contains("Value: \"spec\""), "the value that Spring Boot would have read: " + description);
        assertTrue(refused.getAction().startsWith("Write mongo-redact.policy instead of mongo-redact.polcy, or remove it. Write"
                + " mongo-redact.log.level instead of mongo-redact.log.levle, or remove it."), refused.getAction());
    }

    @Test
    void namesOutsideThePrefixAreNotLookedAt() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("mongo-redacted.policy", "x");
        values.put("mongo.redact.polcy", "x");
        values.put("spring.data.mongodb.uri", "mongodb://localhost/test");
        values.put("mongo-redact", "x");
        assertTrue(outcome(values).isMatch());
        // Spring Boot's legacy form of environment variables (dashes as underscores) is outside the prefix's names
        assertTrue(outcomeOfVariables(Map.of("MONGO_REDACT_MAX_IN_FLIGHT", "5", "MONGO_REDACT_POLCY", "x")).isMatch());
    }

    @Test
    void systemPropertiesAreLookedAtAndTheLibraryTurnedOffStillChecksItsNames() {
        Properties system = new Properties();
        system.setProperty("mongo-redact.test.execution", "default-test");
        StandardEnvironment environment = MongoRedactStartupConditionTest.environment();
        environment.getPropertySources().addLast(new PropertiesPropertySource("systemProperties", system));
        MongoRedactStartupException refused = assertThrows(MongoRedactStartupException.class,
                () -> new MongoRedactStartupCondition().getMatchOutcome(MongoRedactStartupConditionTest.context(environment), null));
        assertTrue(refused.getDescription().contains("Property: mongo-redact.test.execution\n"), refused.getMessage());
        // a typo of the switch itself must not turn the library off in silence, nor on
        assertTrue(refused(Map.of("mongo-redact.enabeld", "false")).getDescription().endsWith("did you mean"
                + " mongo-redact.enabled?"));
        assertTrue(refused(Map.of("mongo-redact.enabled", "false", "mongo-redact.polcy", "spec")).getDescription()
                .contains("Property: mongo-redact.polcy"));
        assertFalse(outcome(Map.of("mongo-redact.enabled", "false", "mongo-redact.policy", "spec")).isMatch());
    }

    @Test
    void theEditDistanceCountsASwapOfNeighboursAsOneEdit() {
        assertEquals(0, EditDistance.between("policy", "policy"));
        assertEquals(1, EditDistance.between("polcy", "policy"));
        assertEquals(1, EditDistance.between("poilcy", "policy"));
        assertEquals(1, EditDistance.between("policyx", "policy"));
        assertEquals(2, EditDistance.between("plociy", "policy"));
        assertEquals(6, EditDistance.between("", "policy"));
        assertEquals(3, EditDistance.between("kitten", "sitting"));
    }

    private static String camel(final String[] path) {
        List<String> elements = new ArrayList<>();
        for (String element : path) {
            StringBuilder camel = new StringBuilder();
            boolean upper = false;
            for (char c : element.toCharArray()) {
                if (c == '-') {
                    upper = true;
                } else {
                    camel.append(upper ? Character.toUpperCase(c) : c);
                    upper = false;
                }
            }
            elements.add(camel.toString());
        }
        return String.join(".", elements);
    }

    /** @return a value the property's type takes */
    private static String validValue(final String type) throws ClassNotFoundException {
        switch (type) {
            case "java.lang.Boolean":
                return "true";
            case "java.lang.Integer":
                return "100";
            case "java.time.Duration":
                return "1s";
            case "java.lang.String":
            case "java.util.List<java.lang.String>":
                return "filter.email";
            default:
                Object[] constants = Class.forName(type, false, UnknownPropertyCheckTest.class.getClassLoader()).getEnumConstants();
                assertNotNull(constants, type);
                return ((Enum<?>) constants[0]).name().toLowerCase(Locale.ROOT);
        }
    }

    private static MongoRedactStartupException refused(final Map<String, Object> values) {
        return assertThrows(MongoRedactStartupException.class, () -> outcome(values), values.toString());
    }

    private static MongoRedactStartupException refusedFromVariables(final Map<String, Object> variables) {
        return assertThrows(MongoRedactStartupException.class, () -> outcomeOfVariables(variables), variables.toString());
    }

    private static ConditionOutcome outcome(final Map<String, Object> values) {
        StandardEnvironment environment = MongoRedactStartupConditionTest.environment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", values));
        return new MongoRedactStartupCondition().getMatchOutcome(MongoRedactStartupConditionTest.context(environment), null);
    }

    private static ConditionOutcome outcomeOfVariables(final Map<String, Object> variables) {
        StandardEnvironment environment = MongoRedactStartupConditionTest.environment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
        return new MongoRedactStartupCondition().getMatchOutcome(MongoRedactStartupConditionTest.context(environment), null);
    }
}
