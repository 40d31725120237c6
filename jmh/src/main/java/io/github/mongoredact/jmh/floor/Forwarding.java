package io.github.mongoredact.jmh.floor;

import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import org.bson.RawBsonDocument;

import java.util.concurrent.TimeUnit;

/**
 * What the driver's event API forces on any listener that hands on an owned copy, whatever made the bytes: the copy wrapped in
 * a {@link RawBsonDocument} (whose {@code BsonDocument} constructor also creates an empty {@code LinkedHashMap}) and a new
 * event that carries it, as the library builds them. The floors that return a bare array leave these out; the forwarded
 * floor adds them, so that the fixed part per event has a floor of its own.
 */
public final class Forwarding {
    private Forwarding() {
    }

    /**
     * @param event the event the driver handed over
     * @param bytes the owned copy of its command
     * @return the event to forward
     */
    public static CommandStartedEvent started(final CommandStartedEvent event, final byte[] bytes) {
        return new CommandStartedEvent(event.getRequestContext(), event.getOperationId(), event.getRequestId(),
                event.getConnectionDescription(), event.getDatabaseName(), event.getCommandName(), new RawBsonDocument(bytes));
    }

    /**
     * @param event the event the driver handed over
     * @param bytes the owned copy of its reply
     * @return the event to forward
     */
    public static CommandSucceededEvent succeeded(final CommandSucceededEvent event, final byte[] bytes) {
        return new CommandSucceededEvent(event.getRequestContext(), event.getOperationId(), event.getRequestId(),
                event.getConnectionDescription(), event.getDatabaseName(), event.getCommandName(), new RawBsonDocument(bytes),
                event.getElapsedTime(TimeUnit.NANOSECONDS));
    }
}
