package io.github.mongoredact.otel;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.CompletedCommand;

/**
 * The {@code error.type} and {@code db.response.status_code} of a command that failed or whose reply reported errors, as the
 * semantic conventions and OpenTelemetry's own MongoDB instrumentation write them: the server's error code as a string where
 * there is one (a positive code: the client's own sentinels, -1 and below, are not the server's), else the fully qualified
 * class name of the redacted failure, else {@value #OTHER}. Stateless.
 */
final class ErrorType {
    /** The conventions' value where no other applies: a reply that reported an error without a positive code. */
    static final String OTHER = "_OTHER";

    private ErrorType() {
    }

    /** @return the server's code as a string, or null where the command has no positive code */
    @Nullable
    static String statusCode(final CompletedCommand command) {
        int code = command.getErrorCode();
        return code > 0 ? Integer.toString(code) : null;
    }

    /** @return the error type of a command that has an error ({@link CompletedCommand#hasError()}) */
    static String of(final CompletedCommand command) {
        int code = command.getErrorCode();
        if (code > 0) {
            return Integer.toString(code);
        }
        Throwable failure = command.getFailure();
        return failure != null ? failure.getClass().getName() : OTHER;
    }
}
