package io.github.mongoredact.observation;

import com.mongodb.observability.micrometer.MongodbObservationContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;

/**
 * Replaces the error of the driver's command, operation and transaction observations by its redacted rebuild in
 * {@code onError}, before the handlers after it see it: registered ahead of the tracing handler, the exception event, the
 * status description and the {@code exception.*} attributes of every span come from the rebuild. Thread-safe.
 */
final class ErrorScrubbingHandler implements ObservationHandler<MongodbObservationContext> {
    private final ScrubbedErrors errors;

    ErrorScrubbingHandler(final ScrubbedErrors errors) {
        this.errors = errors;
    }

    @Override
    public void onError(final MongodbObservationContext context) {
        errors.scrub(context, context.getCommandName());
    }

    @Override
    public boolean supportsContext(final Observation.Context context) {
        return context instanceof MongodbObservationContext;
    }

    @Override
    public String toString() {
        return "ErrorScrubbingHandler{mongo-redact}";
    }
}
