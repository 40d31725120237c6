package io.github.mongoredact.internal;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.MongoServerException;
import com.mongodb.event.CommandEvent;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.ListenerCounters;
import io.github.mongoredact.StartedCommand;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.RawBsonDocument;

import java.util.concurrent.TimeUnit;

/**
 * The work behind {@code RedactingCommandListener}: redact and copy, correlate, forward. Thread-safe; per-thread state lives
 * in {@link Workspace}. Never throws: a document that can not be read is forwarded as a marker document.
 */
public final class CommandProcessor {
    /** The key of the marker document forwarded in place of a document that could not be read. */
    public static final String REDACTION_ERROR_KEY = "$redactionError";

    private final CompiledPolicy policy;
    private final boolean redactFailures;
    private final Downstream downstream;
    private final InFlightTable inFlight;
    private final Counters counters;
    private final FailureRedactor failureRedactor;

    /**
     * @param policy the compiled policy
     * @param redactFailures whether failures are scrubbed
     * @param downstream the listeners to forward to
     * @param maxInFlight the bound of the in-flight table
     */
    public CommandProcessor(final CompiledPolicy policy, final boolean redactFailures, final Downstream downstream,
                            final int maxInFlight) {
        this.policy = policy;
        this.redactFailures = redactFailures;
        this.downstream = downstream;
        this.inFlight = new InFlightTable(maxInFlight);
        this.counters = new Counters(inFlight);
        this.failureRedactor = new FailureRedactor(policy);
        downstream.countFailuresIn(counters.sinkFailures);
    }

    /** @return the live counters */
    public ListenerCounters counters() {
        return counters;
    }

    /** Handles a started event. Never throws. */
    public void started(final CommandStartedEvent event) {
        try {
            if (downstream.isEmpty()) {
                return;
            }
            startedUnguarded(event);
        } catch (RuntimeException e) {
            unexpected(e);
        }
    }

    /** Handles a succeeded event. Never throws. */
    public void succeeded(final CommandSucceededEvent event) {
        try {
            if (downstream.isEmpty()) {
                return;
            }
            succeededUnguarded(event);
        } catch (RuntimeException e) {
            unexpected(e);
        }
    }

    /** Handles a failed event. Never throws. */
    public void failed(final CommandFailedEvent event) {
        try {
            if (downstream.isEmpty()) {
                return;
            }
            failedUnguarded(event);
        } catch (RuntimeException e) {
            unexpected(e);
        }
    }

    private void unexpected(final RuntimeException e) {
        counters.redactionFailures.increment();
        downstream.unexpected(e);
    }

    private void startedUnguarded(final CommandStartedEvent event) {
        boolean sinks = downstream.hasSinks();
        boolean documents = downstream.needsDocuments();
        String commandName = event.getCommandName();
        BsonDocument owned = null;
        String collection = null;
        long fingerprint = 0;
        int size = 0;
        boolean sensitive = false;
        try {
            BsonDocument command = event.getCommand();
            sensitive = SpecRedaction.isSensitiveCommand(commandName, command);
            if (sensitive) {
                owned = SpecRedaction.EMPTY;
            } else {
                Workspace workspace = Workspace.current();
                DocumentRedactor redactor = workspace.redactor;
                byte[] bytes = redactor.redact(command, policy, policy.commandRules(commandName), true, documents, sinks,
                        workspace);
                owned = bytes == null ? null : new RawBsonDocument(bytes);
                collection = redactor.collectionName;
                fingerprint = redactor.fingerprint;
                size = redactor.inputSize;
                if (redactor.valuesRedacted > 0) {
                    counters.valuesRedacted.add(redactor.valuesRedacted);
                }
            }
        } catch (RuntimeException | StackOverflowError e) {
            counters.redactionFailures.increment();
            owned = marker(e);
        }
        StartedCommand started = null;
        if (sinks) {
            started = new StartedCommand(event, owned, collection, fingerprint, size, sensitive);
            inFlight.put(key(event), started);
        } else if (sensitive && SpecRedaction.isHello(commandName)) {
            // the spec decides a hello's reply and failure by its command: remember the sensitive ones
            inFlight.put(key(event), Boolean.TRUE);
        }
        CommandStartedEvent forwarded = null;
        if (downstream.hasPlain()) {
            forwarded = new CommandStartedEvent(event.getRequestContext(), event.getOperationId(), event.getRequestId(),
                    event.getConnectionDescription(), event.getDatabaseName(), commandName,
                    owned == null ? SpecRedaction.EMPTY : owned);
        }
        counters.eventsForwarded.increment();
        downstream.started(forwarded, started);
    }

    private void succeededUnguarded(final CommandSucceededEvent event) {
        boolean sinks = downstream.hasSinks();
        boolean documents = downstream.needsDocuments();
        String commandName = event.getCommandName();
        Object entry = sinks || SpecRedaction.isHello(commandName) ? inFlight.remove(key(event)) : null;
        StartedCommand started = entry instanceof StartedCommand ? (StartedCommand) entry : null;
        Boolean startedSensitive = startedSensitive(sinks, entry, started);
        BsonDocument owned = null;
        int replySize = 0;
        int errorCode = 0;
        String errorCodeName = null;
        try {
            BsonDocument reply = event.getResponse();
            Workspace workspace = Workspace.current();
            if (sinks) {
                ReplyErrors errors = workspace.replyErrors;
                if (DocumentBytes.view(reply, workspace)) {
                    replySize = workspace.sourceLength();
                    errors.scan(workspace.source(), workspace.sourceOff(), workspace.sourceEnd());
                    workspace.release();
                } else {
                    errors.scan(reply);
                }
                errorCode = errors.code;
                errorCodeName = errors.codeName;
            }
            if (SpecRedaction.isSensitiveReply(commandName, reply, startedSensitive)) {
                owned = SpecRedaction.EMPTY;
            } else if (documents) {
                DocumentRedactor redactor = workspace.redactor;
                byte[] bytes = redactor.redact(reply, policy, policy.replyRules(commandName), false, true, false, workspace);
                owned = new RawBsonDocument(bytes);
                replySize = redactor.inputSize;
                if (redactor.valuesRedacted > 0) {
                    counters.valuesRedacted.add(redactor.valuesRedacted);
                }
            }
        } catch (RuntimeException | StackOverflowError e) {
            counters.redactionFailures.increment();
            owned = marker(e);
        }
        CompletedCommand completed = null;
        if (sinks) {
            completed = new CompletedCommand(started == null ? unknownStart(event) : started, started != null,
                    event.getElapsedTime(TimeUnit.NANOSECONDS), owned, replySize, null, errorCode, errorCodeName);
        }
        CommandSucceededEvent forwarded = null;
        if (downstream.hasPlain()) {
            forwarded = new CommandSucceededEvent(event.getRequestContext(), event.getOperationId(), event.getRequestId(),
                    event.getConnectionDescription(), event.getDatabaseName(), commandName,
                    owned == null ? SpecRedaction.EMPTY : owned, event.getElapsedTime(TimeUnit.NANOSECONDS));
        }
        counters.eventsForwarded.increment();
        downstream.completed(forwarded, null, completed);
    }

    private void failedUnguarded(final CommandFailedEvent event) {
        boolean sinks = downstream.hasSinks();
        String commandName = event.getCommandName();
        Object entry = sinks || SpecRedaction.isHello(commandName) ? inFlight.remove(key(event)) : null;
        StartedCommand started = entry instanceof StartedCommand ? (StartedCommand) entry : null;
        Boolean startedSensitive = startedSensitive(sinks, entry, started);
        Throwable original = event.getThrowable();
        Throwable failure;
        try {
            if (SpecRedaction.isSensitiveFailure(commandName, startedSensitive)) {
                failure = SpecRedaction.redactFailure(original);
            } else if (redactFailures) {
                failure = failureRedactor.redact(original, commandName);
            } else {
                failure = original;
            }
        } catch (RuntimeException | StackOverflowError e) {
            counters.redactionFailures.increment();
            MongoException replaced = new MongoException(original instanceof MongoException
                    ? ((MongoException) original).getCode() : -1,
                    "The failure of command " + commandName + " could not be redacted (" + e.getClass().getSimpleName()
                            + "); its text is withheld");
            replaced.setStackTrace(original.getStackTrace());
            failure = replaced;
        }
        CompletedCommand completed = null;
        if (sinks) {
            int code = original instanceof MongoException ? ((MongoException) original).getCode() : 0;
            String codeName = original instanceof MongoCommandException ? ((MongoCommandException) original).getErrorCodeName()
                    : original instanceof MongoServerException ? ((MongoServerException) original).getErrorCodeName() : null;
            completed = new CompletedCommand(started == null ? unknownStart(event) : started, started != null,
                    event.getElapsedTime(TimeUnit.NANOSECONDS), null, -1, failure, code, codeName);
        }
        CommandFailedEvent forwarded = null;
        if (downstream.hasPlain()) {
            forwarded = new CommandFailedEvent(event.getRequestContext(), event.getOperationId(), event.getRequestId(),
                    event.getConnectionDescription(), event.getDatabaseName(), commandName,
                    event.getElapsedTime(TimeUnit.NANOSECONDS), failure);
        }
        counters.eventsForwarded.increment();
        downstream.completed(null, forwarded, completed);
    }

    /** Whether the start was sensitive: known from the table, or null when the table no longer held it. */
    @Nullable
    private static Boolean startedSensitive(final boolean sinks, @Nullable final Object entry,
                                            @Nullable final StartedCommand started) {
        if (started != null) {
            return started.isRedactedBySpec();
        }
        if (sinks) {
            return entry == null ? null : Boolean.TRUE;
        }
        // without sinks the table holds only the sensitive hellos
        return entry != null;
    }

    private static long key(final CommandEvent event) {
        return InFlightTable.key(DriverApi.localValue(event.getConnectionDescription().getConnectionId()), event.getRequestId());
    }

    /** Facts of a start the table no longer held: the completion's metadata only. */
    private static StartedCommand unknownStart(final CommandEvent event) {
        return new StartedCommand(new CommandStartedEvent(event.getRequestContext(), event.getOperationId(),
                event.getRequestId(), event.getConnectionDescription(), event.getDatabaseName(), event.getCommandName(),
                SpecRedaction.EMPTY), null, null, 0, -1, false);
    }

    /** A document that says what failed, never the bytes that failed. */
    private static BsonDocument marker(final Throwable e) {
        String message = e instanceof BsonFormatException ? e.getMessage()
                : e.getClass().getSimpleName() + " while redacting";
        return new BsonDocument(REDACTION_ERROR_KEY, new BsonString(String.valueOf(message)));
    }
}
