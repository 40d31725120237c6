package io.github.mongoredact.otel;

import io.github.mongoredact.CompletedCommand;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;

/**
 * Ends a command span with what its completion tells: the cursor id; on an error (a failure, or a reply that reports errors
 * under {@code ok: 1}) the status ERROR, {@code db.response.status_code} (the server's positive code) and {@code error.type}
 * ({@link ErrorType}); on a failure the redacted exception (never the original: the listener hands over only the redacted
 * failure). Stateless.
 */
final class SpanOutcome {
    private SpanOutcome() {
    }

    /**
     * @param span the span of the command
     * @param start its start, in nanoseconds since the epoch
     * @param command the completed command
     */
    static void end(final Span span, final long start, final CompletedCommand command) {
        // the cursor the command opened, else the one a getMore read (both read without a copy, so with the text off too)
        long cursorId = command.getCursorId() != 0 ? command.getCursorId() : command.getStarted().getCursorId();
        if (cursorId != 0) {
            span.setAttribute(SpanKeys.CURSOR_ID, cursorId);
        }
        if (command.hasError()) {
            String code = ErrorType.statusCode(command);
            if (code != null) {
                span.setAttribute(SpanKeys.STATUS_CODE, code);
            }
            span.setAttribute(SpanKeys.ERROR_TYPE, ErrorType.of(command));
            span.setStatus(StatusCode.ERROR, description(command));
        }
        Throwable failure = command.getFailure();
        if (failure != null) {
            String message = failure.getMessage();
            span.setAttribute(SpanKeys.EXCEPTION_TYPE, failure.getClass().getName());
            if (message != null) {
                span.setAttribute(SpanKeys.EXCEPTION_MESSAGE, message);
            }
            span.setAttribute(SpanKeys.EXCEPTION_STACKTRACE, stackTrace(failure));
            span.recordException(failure);
        }
        span.end(start + command.getElapsedNanos(), TimeUnit.NANOSECONDS);
    }

    /** The status description: the error's code name, which tells what failed and never a value. */
    private static String description(final CompletedCommand command) {
        String codeName = command.getErrorCodeName();
        return codeName != null ? codeName : "";
    }

    private static String stackTrace(final Throwable failure) {
        StringWriter text = new StringWriter();
        try (PrintWriter writer = new PrintWriter(text)) {
            failure.printStackTrace(writer);
        }
        return text.toString();
    }
}
