package io.github.mongoredact.spring;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Turns the start-up failures that mongo-redact refuses to run with into Spring Boot's "APPLICATION FAILED TO START" report
 * with what to change. Today: a MongoDB Java driver outside the supported range, refused when the listener is built.
 *
 * <p>Registered in {@code META-INF/spring.factories}; stateless and thread-safe.</p>
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

    @Override
    public FailureAnalysis analyze(final Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
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
