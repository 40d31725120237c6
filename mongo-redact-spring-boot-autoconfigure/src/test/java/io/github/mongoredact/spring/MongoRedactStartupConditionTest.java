package io.github.mongoredact.spring;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanDefinitionStoreException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ResourceLoader;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The start-up condition of the Spring Boot auto-configuration, on Spring Boot's own environment and property sources (the
 * test class path's Spring Boot 3.5): every {@code mongo-redact.*} value is checked against its property's type in the jar's
 * configuration metadata, and the Java, Spring Boot and driver lines the auto-configuration can not work on are refused with
 * what to change. The same condition in running applications: {@code src/it} (Boot 2.7, 3.5, 4.0).
 */
class MongoRedactStartupConditionTest {

    @Test
    void anEnabledFlagThatIsNeitherTrueNorFalseStopsTheStartInsteadOfTurningTheLibraryOff() {
        MongoRedactStartupException refused = refused("mongo-redact.enabled", "maybe");
        assertEquals("A mongo-redact property has a value it does not take:\n\n"
                + "    Property: mongo-redact.enabled\n"
                + "    Value: \"maybe\"\n"
                + "    Origin: \"mongo-redact.enabled\" from property source \"test\"\n"
                + "    Reason: mongo-redact.enabled takes true or false", refused.getDescription());
        assertEquals("Set mongo-redact.enabled to true or false, or leave it out for its default, true.", refused.getAction());
    }

    @Test
    void everyBooleanPropertyTakesOnlyTrueOrFalse() {
        int booleans = 0;
        for (MongoRedactPropertyValidator.Property property : MongoRedactPropertyValidator.properties()) {
            if (property.type.equals("java.lang.Boolean")) {
                booleans++;
                for (String lenient : List.of("yes", "on", "1", "no", "")) {
                    MongoRedactStartupException refused = refused(property.name, lenient);
                    assertTrue(refused.getDescription().contains("Property: " + property.name + "\n"), refused.getMessage());
                    assertTrue(refused.getDescription().endsWith("takes true or false"), refused.getMessage());
                }
                assertTrue(outcome(Map.of(property.name, "TRUE")).isMatch(), property.name);
                assertEquals(!property.name.equals("mongo-redact.enabled"), outcome(Map.of(property.name, "false")).isMatch());
            }
        }
        assertTrue(booleans >= 8, "booleans in the metadata: " + booleans);
    }

    @Test
    void messagesNameTheAcceptedValuesInPlainWords() {
        MongoRedactStartupException duration = refused("mongo-redact.log.only-slow-or-failed", "soon");
        assertTrue(duration.getDescription().contains("Value: \"soon\""), duration.getMessage());
        assertTrue(duration.getDescription().contains("takes a duration: a number with a unit (ns, us, ms, s, m, h or d;"
                + " milliseconds when none) such as 250ms, 10s or 5m, or ISO-8601 such as PT0.25S"), duration.getMessage());
        assertFalse(duration.getMessage().contains("@") || duration.getMessage().contains("java."), duration.getMessage());

        MongoRedactStartupException level = refused("mongo-redact.log.level", "loud");
        assertTrue(level.getDescription().endsWith("takes one of trace, debug, info, warn or error"), level.getMessage());
        assertEquals("Set mongo-redact.log.level to one of trace, debug, info, warn or error, or leave it out for its default,"
                + " debug.", level.getAction());

        MongoRedactStartupException number = refused("mongo-redact.max-in-flight", "ten");
        assertTrue(number.getDescription().endsWith("takes a whole number (at most 2147483647)"), number.getMessage());
        assertTrue(refused("mongo-redact.max-in-flight", "99999999999").getMessage().contains("at most 2147483647"));

        MongoRedactStartupException policy = refused("mongo-redact.policy", "none-such");
        assertTrue(policy.getDescription().endsWith("takes one of defaults or spec"), policy.getMessage());
    }

    @Test
    void valuesAsSpringBootWritesThemPass() {
        Map<String, Object> values = new HashMap<>();
        values.put("mongo-redact.enabled", " TRUE ");
        values.put("mongo-redact.policy", "SPEC");
        values.put("mongo-redact.placeholder-style", "fixed");
        values.put("mongo-redact.log.level", "Info");
        values.put("mongo-redact.log.error-level", "warn");
        values.put("mongo-redact.log.only-slow-or-failed", "250ms");
        values.put("mongo-redact.max-in-flight", "50");
        values.put("mongo-redact.max-document-bytes", 4096);
        values.put("mongo-redact.wrap-other-listeners", Boolean.FALSE);
        values.put("mongo-redact.keep", "filter.email,comment");
        values.put("mongo-redact.log.key-value-pairs", "${some.flag:false}");
        assertTrue(outcome(values).isMatch());
        assertFalse(outcome(Map.of("mongo-redact.enabled", "false")).isMatch());
        assertTrue(outcome(Map.of()).isMatch(), "enabled by default");
    }

    @Test
    void placeholdersAreResolvedAndEnvironmentVariablesRead() {
        Map<String, Object> values = new HashMap<>();
        values.put("mongo-redact.metrics.enabled", "${flag}");
        values.put("flag", "sometimes");
        MongoRedactStartupException refused = assertThrows(MongoRedactStartupException.class, () -> outcome(values));
        assertTrue(refused.getDescription().contains("Value: \"sometimes\""), refused.getMessage());

        StandardEnvironment environment = environment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        Map.of("MONGOREDACT_WRAPOTHERLISTENERS", "yes")));
        MongoRedactStartupException fromVariable = assertThrows(MongoRedactStartupException.class,
                () -> new MongoRedactStartupCondition().getMatchOutcome(context(environment), null));
        assertTrue(fromVariable.getDescription().contains("Property: mongo-redact.wrap-other-listeners"),
                fromVariable.getMessage());
    }

    @Test
    void theJavaTheSpringBootAndTheDriverLinesOutsideTheRangeAreRefusedWithWhatToChange() {
        MongoRedactStartupException java = MongoRedactStartupCondition.refusal(11, "2.7.18", null);
        assertNotNull(java);
        assertEquals("mongo-redact's Spring Boot auto-configuration needs Java 17 or later, as Spring Boot 3 and 4 do; this"
                + " application runs on Java 11.", java.getDescription());
        assertTrue(java.getAction().startsWith("Run the application on Java 17 or later with Spring Boot 3.2 or later."));

        MongoRedactStartupException boot = MongoRedactStartupCondition.refusal(17, "2.7.18", null);
        assertNotNull(boot);
        assertEquals("mongo-redact's Spring Boot auto-configuration supports Spring Boot 3.2 or later (3.x and 4.x); this"
                + " application runs Spring Boot 2.7.18.", boot.getDescription());
        assertTrue(boot.getAction().startsWith("Upgrade to Spring Boot 3.2 or later. To start without mongo-redact's"
                + " auto-configuration, set mongo-redact.enabled=false;"), boot.getAction());
        assertNotNull(MongoRedactStartupCondition.refusal(17, "3.1.12", null));
        assertNull(MongoRedactStartupCondition.refusal(17, "3.2.0", null));
        assertNull(MongoRedactStartupCondition.refusal(25, "4.0.7", null));
        assertNull(MongoRedactStartupCondition.refusal(17, null, null), "a repackaged Boot that does not say its version");

        String driver = "mongo-redact supports the MongoDB Java driver 4.11.0 to 5.x; the driver on the class path, version"
                + " 4.8.2, lacks: a driver of 4.11.0 or later";
        MongoRedactStartupException old = MongoRedactStartupCondition.refusal(17, "3.5.7", driver);
        assertNotNull(old);
        assertEquals(driver, old.getDescription());
        assertEquals(MongoRedactFailureAnalyzer.ACTION, old.getAction());
    }

    @Test
    void theFailureAnalyzerReportsTheRefusalFoundAnywhereInTheCauses() {
        MongoRedactStartupException refused = refused("mongo-redact.enabled", "maybe");
        FailureAnalysis analysis = new MongoRedactFailureAnalyzer().analyze(new BeanDefinitionStoreException(
                "Failed to process import candidates", new IllegalStateException("wrapped", refused)));
        assertNotNull(analysis);
        assertEquals(refused.getDescription(), analysis.getDescription());
        assertEquals(refused.getAction(), analysis.getAction());
        assertNull(new MongoRedactFailureAnalyzer().analyze(new IllegalStateException("something else")));
    }

    @Test
    void theMetadataReadIsThisJarsOwn() {
        String url = MongoRedactPropertyValidator.metadataBeside(MongoRedactPropertyValidator.class).toString();
        assertTrue(url.endsWith("/META-INF/spring-configuration-metadata.json"), url);
        assertTrue(MongoRedactPropertyValidator.properties().size() >= 20, "properties: "
                + MongoRedactPropertyValidator.properties().size());
    }

    private static MongoRedactStartupException refused(final String name, final Object value) {
        return assertThrows(MongoRedactStartupException.class, () -> outcome(Map.of(name, value)), name + "=" + value);
    }

    private static ConditionOutcome outcome(final Map<String, Object> values) {
        StandardEnvironment environment = environment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", values));
        return new MongoRedactStartupCondition().getMatchOutcome(context(environment), null);
    }

    /**
     * The JVM's environment without its system properties: the build passes this test JVM system properties under the
     * library's prefix ({@code mongo-redact.test.execution}), which the check of unknown properties rightly refuses.
     */
    static StandardEnvironment environment() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        return environment;
    }

    static ConditionContext context(final StandardEnvironment environment) {
        return new ConditionContext() {
            @Override
            public BeanDefinitionRegistry getRegistry() {
                throw new UnsupportedOperationException();
            }

            @Override
            public ConfigurableListableBeanFactory getBeanFactory() {
                return null;
            }

            @Override
            public StandardEnvironment getEnvironment() {
                return environment;
            }

            @Override
            public ResourceLoader getResourceLoader() {
                throw new UnsupportedOperationException();
            }

            @Override
            public ClassLoader getClassLoader() {
                return MongoRedactStartupConditionTest.class.getClassLoader();
            }
        };
    }
}
