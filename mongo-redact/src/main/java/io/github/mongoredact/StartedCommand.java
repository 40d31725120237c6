package io.github.mongoredact;

import com.mongodb.RequestContext;
import com.mongodb.connection.ConnectionDescription;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.DriverApi;
import io.github.mongoredact.internal.rules.SpecRedaction;
import io.github.mongoredact.internal.shape.QueryShape;
import org.bson.BsonDocument;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * The owned, immutable facts of a started command, as the {@link RedactingCommandListener} hands them to a {@link CommandSink}.
 *
 * <p>Lifetime and threading: every field is owned; an instance may be kept forever and read from any thread.</p>
 *
 * @since 0.1
 */
public final class StartedCommand {
    private static final Object REDACTED_BY_SPEC = new Object();
    @Nullable
    private final RequestContext requestContext;
    private final long operationId;
    private final int requestId;
    private final ConnectionDescription connectionDescription;
    private final String databaseName;
    private final String commandName;
    @Nullable
    private final BsonDocument command;
    @Nullable
    private final String collectionName;
    private final long fingerprint;
    private final int commandSize;
    /**
     * {@link #REDACTED_BY_SPEC}, a {@code getMore}'s cursor id (a {@code Long}), the server's query shape of a find, aggregate,
     * count or distinct (a {@link QueryShape}), or null: one field (a command the spec redacts names no cursor and has no
     * shape, a getMore has no shape), so that the facts of a pair stay 112 bytes.
     */
    @Nullable
    private final Object specOrCursor;

    /**
     * Creates the facts of a started command.
     *
     * @param event the started event whose metadata is taken (its command is not read)
     * @param command the redacted, owned command, or null when no copy was made
     * @param collectionName the collection the command names, or null
     * @param fingerprint the query-shape fingerprint of the redacted command
     * @param commandSize the size in bytes of the command as the driver sent it (sequences merged as arrays)
     * @param redactedBySpec whether the command was one of the spec's sensitive commands
     * @since 0.1
     */
    StartedCommand(final CommandStartedEvent event, @Nullable final BsonDocument command,
                          @Nullable final String collectionName, final long fingerprint, final int commandSize,
                          final boolean redactedBySpec) {
        this(event, command, collectionName, fingerprint, commandSize, redactedBySpec, 0);
    }

    /**
     * Creates the facts of a started command, with the cursor id a {@code getMore} names.
     *
     * @param cursorId the cursor id of a {@code getMore} where its copy would show it, else 0 ({@link #getCursorId()})
     * @since 0.5
     */
    StartedCommand(final CommandStartedEvent event, @Nullable final BsonDocument command,
                   @Nullable final String collectionName, final long fingerprint, final int commandSize,
                   final boolean redactedBySpec, final long cursorId) {
        this(event, command, collectionName, fingerprint, commandSize, redactedBySpec, cursorId, null);
    }

    /**
     * Creates the facts of a started command, with the cursor id a {@code getMore} names or the query shape of a command the
     * server shapes.
     *
     * @param queryShape the server's query shape where a sink asked for it and the copy shows it, else null
     * @since 0.6
     */
    StartedCommand(final CommandStartedEvent event, @Nullable final BsonDocument command,
                   @Nullable final String collectionName, final long fingerprint, final int commandSize,
                   final boolean redactedBySpec, final long cursorId, @Nullable final QueryShape queryShape) {
        notNull("event", event);
        this.requestContext = event.getRequestContext();
        this.operationId = event.getOperationId();
        this.requestId = event.getRequestId();
        this.connectionDescription = event.getConnectionDescription();
        this.databaseName = event.getDatabaseName();
        this.commandName = event.getCommandName();
        this.command = command;
        this.collectionName = collectionName;
        this.fingerprint = fingerprint;
        this.commandSize = commandSize;
        this.specOrCursor = redactedBySpec ? REDACTED_BY_SPEC : cursorId != 0 ? Long.valueOf(cursorId) : queryShape;
    }

    /**
     * @return a new started event with this command's metadata and its owned command (an empty document when none was copied)
     * @since 0.1
     */
    public CommandStartedEvent toEvent() {
        return new CommandStartedEvent(requestContext, operationId, requestId, connectionDescription, databaseName, commandName,
                command == null ? new BsonDocument() : command);
    }

    /**
     * @return the redacted, owned command, or null when no downstream needed documents for this event
     * @since 0.1
     */
    @Nullable
    public BsonDocument getCommand() {
        return command;
    }

    /**
     * The read-only view of {@link #getCommand()}: its size, its text as the driver's log and OpenTelemetry show it, its
     * top-level fields. Made on each call, over the same bytes (no copy).
     *
     * @return the view of the redacted, owned command, or null when {@link #getCommand()} is null
     * @since 0.5
     */
    @Nullable
    public OwnedDocument getCommandView() {
        return view(command);
    }

    /** @return the view of an owned document of the listener's, or null */
    @Nullable
    static OwnedDocument view(@Nullable final BsonDocument owned) {
        return owned == null ? null : new OwnedDocument(owned);
    }

    /**
     * @return the request context the driver passed, or null
     * @since 0.1
     */
    @Nullable
    public RequestContext getRequestContext() {
        return requestContext;
    }

    /**
     * @return the command's name, such as {@code find}
     * @since 0.1
     */
    public String getCommandName() {
        return commandName;
    }

    /**
     * @return the database name
     * @since 0.1
     */
    public String getDatabaseName() {
        return databaseName;
    }

    /**
     * @return the collection the command names (the string value of its first field), or null for commands such as {@code ping}
     * @since 0.1
     */
    @Nullable
    public String getCollectionName() {
        return collectionName;
    }

    /**
     * The query-shape fingerprint: a stable 64-bit hash of the command's shape and of nothing else. It takes the command name;
     * the namespace ({@code $db}, the collection of a command that names one in its first field, also inside {@code explain},
     * and {@code getMore}'s {@code collection}) where the policy keeps it; every key (a masked key as its placeholder),
     * operator and stage; the type of every value (numbers of any width are one type). It never takes a value, under any
     * policy: where a command's first field is a value ({@code {"usersInfo": "grace"}}), its type only. An array counts by
     * its first element; {@code lsid}, {@code $clusterTime} and {@code txnNumber} do not count. So one command has one
     * fingerprint under every policy that masks no key, and knowing it tells nothing the redacted copy hides.
     *
     * @return the fingerprint; 0 when no sink reads it ({@link CommandSink#needsFingerprint()})
     * @since 0.1
     */
    public long getFingerprint() {
        return fingerprint;
    }

    /**
     * @return {@link #getFingerprint()} as 16 lower-case hex digits: the log's {@code fingerprint} and the meters'
     *         {@code command.fingerprint} (before 0.6: {@code queryShapeHash} and {@code query.shape}, the names of
     *         MongoDB's own hash, {@link #getQueryShapeHash()}), so that the two can be joined
     * @since 0.1
     */
    public String getFingerprintHex() {
        String digits = Long.toHexString(fingerprint);
        return "0000000000000000".substring(digits.length()) + digits;
    }

    /**
     * @return the size in bytes of the command as sent, document sequences counted as arrays (the same whether or not a copy
     *         was made: without one it comes from the driver's buffers); 0 for a command the spec redacts or that could not be
     *         read, and for a plain top level that no sink asked the size of ({@link CommandSink#needsCommandSize()}) when no
     *         copy was made; -1 in the facts rebuilt for a start the listener no longer held
     * @since 0.1
     */
    public int getCommandSize() {
        return commandSize;
    }

    /**
     * @return whether the command is one the spec redacts (authentication and user management); its document is empty
     * @since 0.1
     */
    public boolean isRedactedBySpec() {
        return specOrCursor == REDACTED_BY_SPEC;
    }

    /**
     * The cursor a {@code getMore} reads from: the {@code int64} of its first field. Read from the driver's command as the
     * collection is, without a copy, so a sink has it without asking for documents ({@link CommandSink#needsDocuments()}).
     * Given only where the policy's copy of the command would show the same id with its type (where the rules of
     * {@code getMore} keep an {@code int64} in its first field, and not under a {@code maxDocumentBytes} cap): so it tells
     * nothing the redacted command hides. Under {@link RedactionPolicy#specOnly()} and {@link RedactionPolicy#defaults()} it
     * is given. The id of the cursor a command opens is {@link CompletedCommand#getCursorId()}.
     *
     * @return the cursor id of a {@code getMore}, or 0 for every other command, a spec-redacted one, or an id its copy does
     *         not show
     * @since 0.5
     */
    public long getCursorId() {
        Object cursor = specOrCursor;
        return cursor instanceof Long ? (Long) cursor : 0;
    }

    /**
     * MongoDB's own query shape of the command, as the server's {@code $queryStats} prints {@code key.queryShape}: the
     * namespace ({@code cmdNs}), the command's name and the parts of the command that make its shape (filter, projection,
     * sort, collation, {@code let}, the pipeline...), normalised as the server normalises them, every literal replaced by a
     * string naming its type ({@code "?number"}, {@code "?string"}, {@code "?array<?number>"}...), as relaxed extended JSON.
     * Given for {@code find}, {@code aggregate}, {@code distinct} and {@code count}, where a sink asked for it
     * ({@link CommandSink#needsQueryShape()}), where the listener reproduces the server's shape exactly (else none rather than
     * a wrong one: an operator or stage it does not shape, an internal database, a find by {@code _id} alone...), and where the
     * redacted copy of the command has the same shape (a masked key or a hidden type gives none): it tells nothing the copy
     * hides. Unlike {@link #getFingerprint()}, the server computes the same.
     *
     * @return the debug query shape, or null
     * @since 0.6
     */
    @Nullable
    public String getQueryShape() {
        Object shape = specOrCursor;
        return shape instanceof QueryShape ? ((QueryShape) shape).debugShapeJson() : null;
    }

    /**
     * The {@code queryShapeHash} of {@link #getQueryShape()}, as MongoDB writes it into its slow-query log lines, its
     * profiler, {@code $queryStats} and {@code explain}, and keys {@code setQuerySettings} by: 64 upper-case hex digits of
     * SHA-256 over the shape. MongoDB reports it from 8.0 for {@code find}, {@code aggregate} and {@code distinct}, from 8.1
     * for {@code count}; the value is the same on every server version that reports one.
     *
     * @return the query shape hash, or null where {@link #getQueryShape()} is null
     * @since 0.6
     */
    @Nullable
    public String getQueryShapeHash() {
        Object shape = specOrCursor;
        return shape instanceof QueryShape ? ((QueryShape) shape).hashHex() : null;
    }

    /**
     * @return the request id
     * @since 0.1
     */
    public int getRequestId() {
        return requestId;
    }

    /**
     * @return the operation id
     * @since 0.1
     */
    public long getOperationId() {
        return operationId;
    }

    /**
     * @return the description of the connection the command was sent on
     * @since 0.1
     */
    public ConnectionDescription getConnectionDescription() {
        return connectionDescription;
    }

    /**
     * The driver's id of the connection, as the driver's command log shows it ({@code driverConnectionId}): the same call on
     * every driver line the listener supports.
     *
     * @return the driver-generated id of the connection the command was sent on
     * @since 0.5
     */
    public long getDriverConnectionId() {
        return DriverApi.localValue(connectionDescription.getConnectionId());
    }

    /**
     * @return the server-generated id of the connection ({@code serverConnectionId}), or null when the server did not tell it
     * @since 0.5
     */
    @Nullable
    public Long getServerConnectionId() {
        return DriverApi.serverValue(connectionDescription.getConnectionId());
    }

    /**
     * Whether the command is one the specifications call sensitive: {@link #isRedactedBySpec()}, and, where the start was not
     * held ({@link CompletedCommand#isStartKnown()} false, no document to tell), a command whose name alone is one of the
     * spec's sensitive commands ({@code authenticate}, {@code saslStart}, {@code createUser}..., in any case). MongoDB's
     * OpenTelemetry specification makes no span for them.
     *
     * @return whether the command is sensitive
     * @since 0.5
     */
    public boolean isSensitive() {
        return isRedactedBySpec() || SpecRedaction.isSensitiveName(commandName);
    }

    /**
     * @return whether the command is a {@code hello} or an {@code isMaster} (in any case): the handshake's, for which MongoDB's
     *         OpenTelemetry specification makes no span (the driver sends it to listeners only outside the handshake)
     * @since 0.5
     */
    public boolean isHello() {
        return SpecRedaction.isHello(commandName);
    }

    @Override
    public String toString() {
        return "StartedCommand{commandName=" + commandName + ", databaseName=" + databaseName
                + ", collectionName=" + collectionName + ", requestId=" + requestId
                + ", fingerprint=" + getFingerprintHex() + ", commandSize=" + commandSize
                + (getCursorId() != 0 ? ", cursorId=" + getCursorId() : "") + "}";
    }
}
