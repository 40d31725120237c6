package io.github.mongoredact.spring;

import io.github.mongoredact.RedactingCommandListener;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The condition of mongo-redact's Spring Boot auto-configuration, evaluated before anything of it is loaded or bound: it
 * matches when {@code mongo-redact.enabled} is true (the default), does not match when it is false, and otherwise stops the
 * start with a {@link MongoRedactStartupException}, which {@link MongoRedactFailureAnalyzer} reports with what to change:
 *
 * <ol>
 *   <li>{@code mongo-redact.enabled} holds a word other than true or false;</li>
 *   <li>enabled, on a class path where the auto-configuration can not work: Java older than 17, Spring Boot older than 3.2
 *   (whose own {@code .imports} file 2.7 reads too), or a MongoDB Java driver that the listener refuses (checked here, before
 *   the log sink's use of the driver's {@code LoggerSettings} would fail on a driver older than 4.9 with a bare
 *   {@code NoClassDefFoundError});</li>
 *   <li>any {@code mongo-redact.*} property holds a value that its type does not take ({@link MongoRedactPropertyValidator}:
 *   every property of this library's configuration metadata, those added later included);</li>
 *   <li>a {@code mongo-redact.*} property binds to nothing, such as a mistyped {@code mongo-redact.polcy}
 *   ({@link UnknownPropertyCheck}: the report names the nearest known property).</li>
 * </ol>
 *
 * <p>Compiled for Java 11 against the API that Spring Boot 2 to 4 share, and it names no class compiled for Java 17, so that it
 * loads and reports on every line the jar may meet. Ordered after {@code @ConditionalOnClass} (no driver, nothing to check)
 * and before {@code @ConditionalOnProperty}, so that the {@code enabled} flags of the beans are checked before any of them is
 * read. Stateless and thread-safe.</p>
 *
 * @since 0.2
 */
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
public final class MongoRedactStartupCondition extends SpringBootCondition {
    static final String ENABLED = "mongo-redact.enabled";
    /** The oldest Spring Boot line the auto-configuration supports, the first that manages driver 4.11. */
    static final int[] OLDEST_BOOT = {3, 2};
    static final int OLDEST_JAVA = 17;

    private static final String WITHOUT = " To start without mongo-redact's auto-configuration, set mongo-redact.enabled=false;"
            + " the listener can still be registered on MongoClientSettings by hand (Java 11 and MongoDB Java driver 4.11.0 or"
            + " later: see the README's \"Registering on MongoClientSettings\").";

    @Override
    public ConditionOutcome getMatchOutcome(final ConditionContext context, final AnnotatedTypeMetadata metadata) {
        Environment environment = context.getEnvironment();
        ClassLoader classLoader = context.getClassLoader() == null ? getClass().getClassLoader() : context.getClassLoader();
        MongoRedactPropertyValidator.check(environment, ENABLED, classLoader);
        boolean enabled = Boolean.parseBoolean(environment.getProperty(ENABLED, "true").trim());
        if (enabled) {
            MongoRedactStartupException refusal = refusal(Runtime.version().feature(), SpringBootVersion.getVersion(),
                    RedactingCommandListener.driverRefusal());
            if (refusal != null) {
                throw refusal;
            }
        }
        MongoRedactPropertyValidator.checkAll(environment, classLoader);
        UnknownPropertyCheck.check(environment);
        return enabled ? ConditionOutcome.match(ENABLED + " is true") : ConditionOutcome.noMatch(ENABLED + " is false");
    }

    /**
     * @param javaFeature the Java runtime's feature version
     * @param bootVersion Spring Boot's version, or null when its jar does not say (repackaged): not checked then
     * @param driverRefusal the driver's refusal ({@link RedactingCommandListener#driverRefusal()}), or null when the driver is supported
     * @return why the auto-configuration can not work here, the most basic reason first, with what to change; or null
     */
    static MongoRedactStartupException refusal(final int javaFeature, final String bootVersion, final String driverRefusal) {
        String oldestBoot = OLDEST_BOOT[0] + "." + OLDEST_BOOT[1];
        if (javaFeature < OLDEST_JAVA) {
            return new MongoRedactStartupException("mongo-redact's Spring Boot auto-configuration needs Java " + OLDEST_JAVA
                    + " or later, as Spring Boot 3 and 4 do; this application runs on Java " + javaFeature + ".",
                    "Run the application on Java " + OLDEST_JAVA + " or later with Spring Boot " + oldestBoot + " or later."
                            + WITHOUT);
        }
        if (bootVersion != null && olderThan(bootVersion, OLDEST_BOOT)) {
            return new MongoRedactStartupException("mongo-redact's Spring Boot auto-configuration supports Spring Boot "
                    + oldestBoot + " or later (3.x and 4.x); this application runs Spring Boot " + bootVersion + ".",
                    "Upgrade to Spring Boot " + oldestBoot + " or later." + WITHOUT);
        }
        return driverRefusal == null ? null : new MongoRedactStartupException(driverRefusal, MongoRedactFailureAnalyzer.ACTION);
    }

    /** @return whether a version such as {@code 2.7.18} or {@code 3.1.0-SNAPSHOT} is older than major.minor */
    static boolean olderThan(final String version, final int[] oldest) {
        String[] parts = version.split("[.-]");
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return major < oldest[0] || (major == oldest[0] && minor < oldest[1]);
        } catch (NumberFormatException e) {
            return false; // not a version this can read: the other checks still hold
        }
    }
}
