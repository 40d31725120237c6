package io.github.mongoredact.spring;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Turns the start-up failures that mongo-redact refuses to run with into Spring Boot's "APPLICATION FAILED TO START" report
 * with what to change: a {@link MongoRedactStartupException} (a bad {@code mongo-redact.*} value; a Java, Spring Boot or
 * MongoDB Java driver line the auto-configuration cannot work with), and a driver outside the supported range refused when
 * an application's own listener is built.
 *
 * <p>Compiled for Java 11 against the API that every Spring Boot line shares, as {@link MongoRedactStartupCondition} is, so
 * that it loads where the rest of the auto-configuration cannot (Spring Boot 2 on Java 11). Registered in
 * {@code META-INF/spring.factories}; stateless and thread-safe.</p>
 *
 * @since 0.1
 */
public class MongoRedactFailureAnalyzer implements FailureAnalyzer {
    /** How {@code RedactingCommandListener.Builder.build()} starts the message of an unsupported driver. */
    static final String UNSUPPORTED_DRIVER = "mongo-redact supports the MongoDB Java driver";

    static final String ACTION = "Use a MongoDB Java driver that mongo-redact supports (4.11.0 to the newest 5.x): let Spring"
            + " Boot manage the driver's version (remove an override of the 'mongodb.version' property or of the org.mongodb"
            + " dependencies' versions), or pin one inside that range. To start without mongo-redact, set"
            + " mongo-redact.enabled=false.";

    /** Causes followed at most: enough for any real chain; a cycle ends earlier. */
    private static final int MAX_CHAIN = 64;

    @Override
    public FailureAnalysis analyze(final Throwable failure) {
        int depth = 0;
        for (Throwable cause = failure; cause != null && depth < MAX_CHAIN; cause = cause.getCause(), depth++) {
            if (cause instanceof MongoRedactStartupException) {
                MongoRedactStartupException startup = (MongoRedactStartupException) cause;
                return new FailureAnalysis(startup.getDescription(), startup.getAction(), startup);
            }
            if (cause instanceof IllegalStateException && cause.getMessage() != null
                    && cause.getMessage().startsWith(UNSUPPORTED_DRIVER)) {
                return new FailureAnalysis(cause.getMessage(), ACTION, cause);
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }
}
