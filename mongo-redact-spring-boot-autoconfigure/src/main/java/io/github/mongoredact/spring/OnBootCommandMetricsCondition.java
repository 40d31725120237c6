package io.github.mongoredact.spring;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * Matches while Spring Boot's own switch for MongoDB command metrics is on: {@value #BOOT_3} on Spring Boot 3,
 * {@value #BOOT_4} on Spring Boot 4 (each line honours only its own name, as Boot does). Read as Boot 3.5 and 4.0 read it
 * ({@code @ConditionalOnBooleanProperty}, missing means on): the switch is off when the property holds anything but
 * {@code true}, in any case. So that turning Boot's command timer off turns off this library's, which replaces it.
 *
 * <p>Stateless and thread-safe.</p>
 */
final class OnBootCommandMetricsCondition extends SpringBootCondition {
    /** Spring Boot 3's switch of Micrometer's Mongo command listener. */
    static final String BOOT_3 = "management.metrics.mongo.command.enabled";
    /** Spring Boot 4's name for it. */
    static final String BOOT_4 = "management.metrics.mongodb.command.enabled";
    /** Spring Boot 4's auto-configuration that reads {@value #BOOT_4}: the line where the version is not known. */
    private static final String BOOT_4_METRICS = "org.springframework.boot.mongodb.autoconfigure.metrics.MongoMetricsAutoConfiguration";

    @Override
    public ConditionOutcome getMatchOutcome(final ConditionContext context, final AnnotatedTypeMetadata metadata) {
        String name = switchName(SpringBootVersion.getVersion(), ClassUtils.isPresent(BOOT_4_METRICS, context.getClassLoader()));
        String value = context.getEnvironment().getProperty(name);
        if (value == null || "true".equalsIgnoreCase(value)) {
            return ConditionOutcome.match("Spring Boot's switch of MongoDB command metrics, " + name + ", is "
                    + (value == null ? "not set" : value));
        }
        return ConditionOutcome.noMatch("Spring Boot's switch of MongoDB command metrics, " + name + ", is " + value);
    }

    /**
     * @param bootVersion Spring Boot's version, or null where its jar does not say (repackaged)
     * @param boot4MetricsPresent whether Spring Boot 4's Mongo metrics auto-configuration is on the class path: the line where
     *                            the version is null or not a version
     * @return the name of the switch on this Spring Boot line
     */
    static String switchName(final String bootVersion, final boolean boot4MetricsPresent) {
        int dot = bootVersion == null ? -1 : bootVersion.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? String.valueOf(bootVersion) : bootVersion.substring(0, dot)) >= 4 ? BOOT_4 : BOOT_3;
        } catch (NumberFormatException e) {
            return boot4MetricsPresent ? BOOT_4 : BOOT_3;
        }
    }
}
