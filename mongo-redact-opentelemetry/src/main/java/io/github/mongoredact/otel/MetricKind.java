package io.github.mongoredact.otel;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.CompletedCommand;
import io.opentelemetry.api.common.Attributes;

/**
 * The metric attributes of one kind of command (server, database, collection, command name): the set of a command that
 * succeeded, made once, and the sets of its errors, made once each for the first {@value #MAX_ERRORS} errors of the kind
 * (by the server's code, else by the failure's class), then made for each command (counted by the caller). Finding a set is a
 * scan of at most {@value #MAX_ERRORS} slots, without allocation. Thread-safe: the slots are filled under this object's lock
 * and published through a volatile count; a reader sees a slot only once it is filled.
 */
final class MetricKind {
    /** The error variants of one kind whose attribute sets are kept. */
    static final int MAX_ERRORS = 16;
    final Attributes succeeded;
    private final int[] codes = new int[MAX_ERRORS];
    private final Class<?>[] failures = new Class<?>[MAX_ERRORS];
    private final Attributes[] errors = new Attributes[MAX_ERRORS];
    private volatile int count;

    MetricKind(final Attributes succeeded) {
        this.succeeded = succeeded;
    }

    /**
     * @param command a command that has an error
     * @return the kept set of its error, or null where the kind keeps no more
     */
    @Nullable
    Attributes error(final CompletedCommand command) {
        int code = command.getErrorCode() > 0 ? command.getErrorCode() : 0;
        Throwable failure = command.getFailure();
        Class<?> type = code != 0 || failure == null ? null : failure.getClass();
        int known = count;
        for (int i = 0; i < known; i++) {
            if (codes[i] == code && failures[i] == type) {
                return errors[i];
            }
        }
        synchronized (this) {
            int filled = count;
            for (int i = known; i < filled; i++) {
                if (codes[i] == code && failures[i] == type) {
                    return errors[i];
                }
            }
            if (filled == MAX_ERRORS) {
                return null;
            }
            codes[filled] = code;
            failures[filled] = type;
            errors[filled] = withError(succeeded, command);
            count = filled + 1;
            return errors[filled];
        }
    }

    /** @return the set of a command's error: the kind's with {@code error.type} and, for a server's code, the status code */
    static Attributes withError(final Attributes kind, final CompletedCommand command) {
        String code = ErrorType.statusCode(command);
        return code == null ? kind.toBuilder().put(SpanKeys.ERROR_TYPE, ErrorType.of(command)).build()
                : kind.toBuilder().put(SpanKeys.ERROR_TYPE, code).put(SpanKeys.STATUS_CODE, code).build();
    }
}
