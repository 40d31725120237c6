package io.github.mongoredact;

import com.mongodb.MongoCommandException;
import com.mongodb.ServerAddress;
import com.mongodb.connection.ClusterId;
import com.mongodb.connection.ConnectionDescription;
import com.mongodb.connection.ConnectionId;
import com.mongodb.connection.ServerId;
import com.mongodb.connection.ServerType;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.bson.types.ObjectId;

import java.lang.reflect.Constructor;
import java.util.Collections;

/** Real driver event objects and owned sink facts built from them, for unit tests of the sinks. */
public final class Events {
    public static final ServerId SERVER_ID = new ServerId(new ClusterId("cluster-1"), new ServerAddress("127.0.0.1", 27017));

    private Events() {
    }

    /** A connection with driver id 3 and, when given, the server's id. */
    public static ConnectionDescription connection(@Nullable final Long serverValue, @Nullable final ObjectId serviceId) {
        ConnectionId id = connectionId(3, serverValue);
        if (serviceId != null) {
            return new ConnectionDescription(serviceId, id, 8, ServerType.STANDALONE, 1000, 16 * 1024 * 1024,
                    48 * 1024 * 1024, Collections.emptyList(), null);
        }
        return new ConnectionDescription(id, 8, ServerType.STANDALONE, 1000, 16 * 1024 * 1024, 48 * 1024 * 1024,
                Collections.emptyList());
    }

    /**
     * A connection id on every driver line: its constructor takes {@code (ServerId, int, Integer)} up to 4.11 and
     * {@code (ServerId, long, Long)} from 5.0.
     */
    public static ConnectionId connectionId(final long localValue, @Nullable final Long serverValue) {
        try {
            for (Constructor<?> constructor : ConnectionId.class.getConstructors()) {
                Class<?>[] types = constructor.getParameterTypes();
                if (types.length == 3) {
                    boolean wide = types[1] == long.class;
                    return (ConnectionId) constructor.newInstance(SERVER_ID, wide ? (Object) localValue : (Object) (int) localValue,
                            serverValue == null ? null : wide ? (Object) serverValue : (Object) serverValue.intValue());
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("no ConnectionId(ServerId, local, server) constructor");
    }

    public static ConnectionDescription connection() {
        return connection(12L, null);
    }

    public static RawBsonDocument raw(final String json) {
        return RawBsonDocument.parse(json);
    }

    public static CommandStartedEvent startedEvent(final int requestId, final String json) {
        return startedEvent(connection(), requestId, json);
    }

    public static CommandStartedEvent startedEvent(final ConnectionDescription connection, final int requestId,
                                                   final String json) {
        BsonDocument command = raw(json);
        return new CommandStartedEvent(null, 7, requestId, connection, "test", command.getFirstKey(), command);
    }

    public static CommandSucceededEvent succeededEvent(final CommandStartedEvent started, final String reply,
                                                       final long elapsedNanos) {
        return new CommandSucceededEvent(null, started.getOperationId(), started.getRequestId(),
                started.getConnectionDescription(), started.getDatabaseName(), started.getCommandName(), raw(reply),
                elapsedNanos);
    }

    public static CommandFailedEvent failedEvent(final CommandStartedEvent started, final Throwable failure,
                                                 final long elapsedNanos) {
        return new CommandFailedEvent(null, started.getOperationId(), started.getRequestId(),
                started.getConnectionDescription(), started.getDatabaseName(), started.getCommandName(), elapsedNanos,
                failure);
    }

    /** Owned facts of a started command, as the listener makes them, with the given owned command. */
    public static StartedCommand started(final CommandStartedEvent event, @Nullable final BsonDocument owned,
                                         @Nullable final String collection, final long fingerprint) {
        int size = event.getCommand() instanceof RawBsonDocument
                ? ((RawBsonDocument) event.getCommand()).getByteBuffer().remaining() : 0;
        return new StartedCommand(event, owned, collection, fingerprint, size, false);
    }

    public static CompletedCommand succeeded(final StartedCommand started, @Nullable final BsonDocument reply,
                                             final long elapsedNanos, final int errorCode,
                                             @Nullable final String errorCodeName) {
        int size = reply instanceof RawBsonDocument ? ((RawBsonDocument) reply).getByteBuffer().remaining() : 0;
        return new CompletedCommand(started, elapsedNanos, reply, size, null, errorCode, errorCodeName, 0);
    }

    public static CompletedCommand failed(final StartedCommand started, final Throwable failure, final long elapsedNanos) {
        int code = failure instanceof MongoCommandException ? ((MongoCommandException) failure).getErrorCode() : 0;
        String name = failure instanceof MongoCommandException ? ((MongoCommandException) failure).getErrorCodeName() : null;
        return new CompletedCommand(started, elapsedNanos, null, -1, failure, code, name, 0);
    }

    public static MongoCommandException commandException(final int code, final String codeName) {
        return new MongoCommandException(new BsonDocument("ok", new org.bson.BsonInt32(0))
                .append("code", new org.bson.BsonInt32(code)).append("codeName", new org.bson.BsonString(codeName))
                .append("errmsg", new org.bson.BsonString("failed with " + codeName)), SERVER_ID.getAddress());
    }
}
