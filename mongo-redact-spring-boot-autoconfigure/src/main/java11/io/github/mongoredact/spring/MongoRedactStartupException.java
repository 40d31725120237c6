package io.github.mongoredact.spring;

/**
 * Why mongo-redact's Spring Boot auto-configuration refuses to start, with what to change: a {@code mongo-redact.*} property
 * whose value its type does not accept, or a class path on which the auto-configuration cannot work (a Java, Spring Boot or
 * MongoDB Java driver line outside the supported range). {@link MongoRedactFailureAnalyzer} turns it into Spring Boot's
 * "APPLICATION FAILED TO START" report: the description, then the action.
 *
 * <p>Immutable; thrown while the application context is refreshed, by {@link MongoRedactStartupCondition}.</p>
 *
 * @since 0.2
 */
public final class MongoRedactStartupException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String action;

    /**
     * @param description what is wrong, in plain words
     * @param action what to change
     */
    MongoRedactStartupException(final String description, final String action) {
        super(description);
        this.action = action;
    }

    /**
     * @return what is wrong, the failure report's description
     * @since 0.2
     */
    public String getDescription() {
        return getMessage();
    }

    /**
     * @return what to change, the failure report's action
     * @since 0.2
     */
    public String getAction() {
        return action;
    }
}
