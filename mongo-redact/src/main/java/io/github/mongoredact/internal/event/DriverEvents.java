package io.github.mongoredact.internal.event;

import com.mongodb.event.CommandEvent;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import org.bson.BsonDocument;

import java.util.concurrent.TimeUnit;

/**
 * The driver's events as the plain listeners get them: the metadata of the event the driver handed over, with the owned
 * (redacted) document or the redacted failure in place of the driver's own.
 */
final class DriverEvents {

    private DriverEvents() {
    }

    /** @return the event's metadata with the given command (an owned copy, or the spec's empty document) */
    static CommandStartedEvent started(final CommandEvent event, final BsonDocument command) {
        return new CommandStartedEvent(event.getRequestContext(), event.getOperationId(), event.getRequestId(),
                event.getConnectionDescription(), event.getDatabaseName(), event.getCommandName(), command);
    }

    /** @return the event with the given reply */
    static CommandSucceededEvent succeeded(final CommandSucceededEvent event, final BsonDocument reply) {
        return new CommandSucceededEvent(event.getRequestContext(), event.getOperationId(), event.getRequestId(),
                event.getConnectionDescription(), event.getDatabaseName(), event.getCommandName(), reply,
                event.getElapsedTime(TimeUnit.NANOSECONDS));
    }

    /** @return the event with the given failure */
    static CommandFailedEvent failed(final CommandFailedEvent event, final Throwable failure) {
        return new CommandFailedEvent(event.getRequestContext(), event.getOperationId(), event.getRequestId(),
                event.getConnectionDescription(), event.getDatabaseName(), event.getCommandName(),
                event.getElapsedTime(TimeUnit.NANOSECONDS), failure);
    }
}
