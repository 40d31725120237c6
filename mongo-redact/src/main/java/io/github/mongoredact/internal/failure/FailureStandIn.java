package io.github.mongoredact.internal.failure;

import com.mongodb.MongoException;
import com.mongodb.lang.Nullable;

/**
 * Stands for a failure whose type cannot be rebuilt without its values: a type that is not public, has no constructor that
 * takes only texts we can scrub (a user's exception, {@code MongoConnectionPoolClearedException}, 5.x's
 * {@code ClientBulkWriteException}), or lives outside the packages whose constructors we trust ({@code java.}, {@code javax.},
 * {@code org.bson.}, {@code com.mongodb.} but not {@code com.mongodb.internal.}).
 *
 * <p>The rule: the message is the original class name, then {@code ": "} and the original message scrubbed; the code and
 * the error labels of a {@link MongoException} are kept; the stack trace is the original's; the cause is the original cause,
 * itself redacted. A server failure is stood for by {@link FailureServerStandIn} instead, which keeps code name and server
 * address too. Immutable apart from what {@link Throwable} allows; safe to share between threads once built.
 */
final class FailureStandIn extends MongoException {
    private static final long serialVersionUID = 1L;

    FailureStandIn(final int code, final String originalClassName, @Nullable final String text) {
        super(code, message(originalClassName, text));
    }

    /** @return the stand-in's message: the original class name, then the kept text */
    static String message(final String originalClassName, @Nullable final String text) {
        return text == null || text.isEmpty() ? originalClassName : originalClassName + ": " + text;
    }
}
