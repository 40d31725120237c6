package io.github.mongoredact.internal.failure;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoCursorNotFoundException;
import com.mongodb.MongoException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoServerException;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.message.ClientMessageScrubber;
import org.bson.BsonDocument;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Rebuilds a failure and its whole cause chain so that nothing of the original's texts and documents survives except what
 * the {@link FailureContent} keeps. Deny by default: every {@link Throwable} is rebuilt, none is passed on.
 *
 * <ul>
 *   <li>{@link MongoCommandException} and its subclasses: the same type from the content's response, through the
 *   {@code (BsonDocument, ServerAddress)} constructor ({@link MongoCursorNotFoundException} with its cursor id); so code, code
 *   name, labels and server address stay.</li>
 *   <li>Write failures: see {@link FailureWrites} (write results keep counts, not ids).</li>
 *   <li>{@link MongoExecutionTimeoutException} (its message is the server's {@code errmsg}), {@link MongoException},
 *   {@link MongoInterruptedException}, {@link MongoSecurityException} (without its credential, which holds the user name
 *   and password): by their constructors, with code and scrubbed message.</li>
 *   <li>Any other public type of the driver, BSON or the JDK (socket failures, {@code MongoTimeoutException},
 *   {@code MongoClientException}, 5.2's {@code MongoOperationTimeoutException}, {@code IllegalStateException}...): by its
 *   public text constructors ({@link FailureReflection}), with the message scrubbed.</li>
 *   <li>Anything else: a stand-in naming the original class ({@link FailureStandIn}, {@link FailureServerStandIn},
 *   {@link FailureCommandStandIn}).</li>
 * </ul>
 * Texts: a server failure's ({@link MongoServerException}) are scrubbed by the server's grammar, those of the driver's own
 * client exceptions ({@code com.mongodb.}, {@code org.bson.}) keep only their templates' words
 * ({@link ClientMessageScrubber}), and the message of any other throwable (the application's, a codec's, the JDK's) is
 * withheld whole ({@link ClientMessageScrubber#WITHHELD}): its wording is not known, so none of it can be told from data.
 * Every rebuilt failure keeps the original's error labels and stack trace; its cause and suppressed failures are the
 * original's, each rebuilt by the same rules (at most {@value #MAX_DEPTH} deep; a cycle is cut). One instance per failure:
 * not thread-safe; failure path only, so it may allocate.
 */
final class FailureRebuilder {
    static final int MAX_DEPTH = 16;
    private static final String WITH_RESPONSE = "com.mongodb.internal.connection.MongoWriteConcernWithResponseException";

    private final FailureContent content;
    /** original to rebuilt; an original mapped to null is being rebuilt (a cycle back to it is cut) */
    private final Map<Throwable, Throwable> rebuilt = new IdentityHashMap<>();
    private int depth;

    private FailureRebuilder(final FailureContent content) {
        this.content = content;
    }

    /** @return the failure rebuilt with only what the content keeps */
    static Throwable rebuild(final Throwable failure, final FailureContent content) {
        Throwable result = new FailureRebuilder(content).redact(failure);
        if (result == null) {
            throw new IllegalStateException("a failure at depth 0 is always rebuilt: " + failure.getClass().getName());
        }
        return result;
    }

    @Nullable
    private Throwable redact(@Nullable final Throwable failure) {
        if (failure == null || depth >= MAX_DEPTH || (rebuilt.containsKey(failure) && rebuilt.get(failure) == null)) {
            return null;
        }
        Throwable known = rebuilt.get(failure);
        if (known != null) {
            return known;
        }
        rebuilt.put(failure, null);
        depth++;
        try {
            Throwable result;
            try {
                result = one(failure);
            } catch (RuntimeException | LinkageError e) {
                // a constructor refused the redacted parts: stand in rather than pass the original on
                result = standIn(failure);
            }
            finish(failure, result);
            rebuilt.put(failure, result);
            return result;
        } finally {
            depth--;
        }
    }

    private Throwable one(final Throwable failure) {
        if (failure instanceof MongoCommandException) {
            return command((MongoCommandException) failure);
        }
        if (failure instanceof MongoException) {
            Throwable result = mongo((MongoException) failure);
            if (result != null) {
                return result;
            }
        }
        Throwable result = FailureReflection.byText(failure, text(failure), redact(failure.getCause()));
        return result == null ? standIn(failure) : result;
    }

    private MongoCommandException command(final MongoCommandException failure) {
        BsonDocument response = content.response(failure.getResponse(), failure.getErrorLabels());
        Class<? extends MongoCommandException> type = failure.getClass();
        MongoCommandException result = null;
        if (type == MongoCursorNotFoundException.class) {
            result = new MongoCursorNotFoundException(((MongoCursorNotFoundException) failure).getCursorId(), response,
                    failure.getServerAddress());
        } else if (type == MongoCommandException.class) {
            result = new MongoCommandException(response, failure.getServerAddress());
        } else if (FailureReflection.isTrusted(type)) {
            // MongoQueryException, MongoNotPrimaryException, MongoNodeIsRecoveringException and newer subclasses
            result = FailureReflection.construct(type, new Class<?>[]{BsonDocument.class,
                    com.mongodb.ServerAddress.class}, response, failure.getServerAddress());
        }
        if (result == null || result.getClass() != type) {
            result = new FailureCommandStandIn(type.getName(), response, failure.getServerAddress());
        }
        return result;
    }

    @Nullable
    private MongoException mongo(final MongoException failure) {
        MongoException result = FailureWrites.rebuild(failure, content);
        if (result != null) {
            return result;
        }
        Class<?> type = failure.getClass();
        if (type == MongoExecutionTimeoutException.class) {
            return new MongoExecutionTimeoutException(failure.getCode(), FailureContent.text(content.serverText(failure.getMessage())));
        }
        if (type == MongoException.class) {
            return new MongoException(failure.getCode(), FailureContent.text(content.clientText(failure.getMessage())),
                    redact(failure.getCause()));
        }
        if (type == MongoInterruptedException.class) {
            Throwable cause = redact(failure.getCause());
            return new MongoInterruptedException(FailureContent.text(content.clientText(failure.getMessage())),
                    cause instanceof Exception ? (Exception) cause : null);
        }
        if (type == MongoSecurityException.class) {
            return new MongoSecurityException(null, FailureContent.text(content.clientText(failure.getMessage())),
                    redact(failure.getCause()));
        }
        if (type.getName().equals(WITH_RESPONSE)) {
            return withResponse(failure);
        }
        return null;
    }

    /** The driver's internal wrapper of a write concern failure and its reply: rebuilt by name, it is not public API. */
    @Nullable
    private MongoException withResponse(final MongoException failure) {
        Throwable cause = redact(failure.getCause());
        if (!(cause instanceof MongoException)) {
            return null;
        }
        Object response = null;
        try {
            Object original = failure.getClass().getMethod("getResponse").invoke(failure);
            response = original instanceof BsonDocument ? content.response((BsonDocument) original,
                    failure.getErrorLabels()) : null;
        } catch (ReflectiveOperationException e) {
            // no reply to keep
        }
        MongoException result = FailureReflection.construct(failure.getClass().asSubclass(MongoException.class),
                new Class<?>[]{MongoException.class, Object.class}, cause, response);
        return FailureReflection.sameKind(failure, result) ? result : null;
    }

    private MongoException standIn(final Throwable failure) {
        String name = failure.getClass().getName();
        if (failure instanceof MongoServerException) {
            MongoServerException e = (MongoServerException) failure;
            return new FailureServerStandIn(e.getCode(), e.getErrorCodeName(), name, content.serverText(e.getMessage()),
                    e.getServerAddress());
        }
        int code = failure instanceof MongoException ? ((MongoException) failure).getCode() : -1;
        return new FailureStandIn(code, name, text(failure));
    }

    /** @return what stays of the failure's message: see the class documentation */
    @Nullable
    private String text(final Throwable failure) {
        String message = failure.getMessage();
        if (failure instanceof MongoServerException) {
            return content.serverText(message);
        }
        if (message == null) {
            return null;
        }
        return ClientMessageScrubber.isDriverType(failure.getClass()) ? content.clientText(message)
                : ClientMessageScrubber.WITHHELD;
    }

    /** Labels, stack trace, cause and suppressed failures of the original, onto the rebuilt one. */
    private void finish(final Throwable original, final Throwable result) {
        if (original instanceof MongoException && result instanceof MongoException) {
            for (String label : ((MongoException) original).getErrorLabels()) {
                ((MongoException) result).addLabel(label);
            }
        }
        result.setStackTrace(original.getStackTrace());
        if (result.getCause() == null && original.getCause() != null) {
            Throwable cause = redact(original.getCause());
            if (cause != null && cause != result) {
                try {
                    result.initCause(cause);
                } catch (IllegalStateException | IllegalArgumentException e) {
                    // its constructor fixed the cause (to null): the cause is dropped
                }
            }
        }
        for (Throwable suppressed : original.getSuppressed()) {
            Throwable redacted = redact(suppressed);
            if (redacted != null && redacted != result) {
                result.addSuppressed(redacted);
            }
        }
    }
}
