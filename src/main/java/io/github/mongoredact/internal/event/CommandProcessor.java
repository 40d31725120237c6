package io.github.mongoredact.internal.event;

import com.mongodb.MongoClientException;
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
import io.github.mongoredact.internal.Guard;
import io.github.mongoredact.internal.bson.DriverApi;
import io.github.mongoredact.internal.bson.PlainSize;
import io.github.mongoredact.internal.bson.Workspace;
import io.github.mongoredact.internal.failure.FailureRedactor;
import io.github.mongoredact.internal.failure.SpecFailures;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import io.github.mongoredact.internal.rules.SpecRedaction;
import io.github.mongoredact.internal.summary.CommandSummary;
import io.github.mongoredact.internal.walk.DocumentRedactor;
import io.github.mongoredact.internal.walk.Redaction;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The work behind {@code RedactingCommandListener}: redact and copy, correlate, forward. Thread-safe; per-thread state lives
 * in {@link Workspace}. Never throws: a document that can not be read is forwarded as a marker document.
 */
public final class CommandProcessor {
    private static final System.Logger LOGGER = ListenerLogger.LOGGER;
    /** The key of the marker document forwarded in place of a document that could not be read. */
    public static final String REDACTION_ERROR_KEY = Markers.KEY;

    private final CompiledPolicy policy;
    private final boolean redactFailures;
    private final Downstream downstream;
    /** With sinks: every start, until its completion. */
    private final InFlightTable<StartedCommand> starts;
    /** Without sinks: only the starts of the hellos the spec redacts, whose replies and failures it redacts too. */
    private final InFlightTable<SensitiveHello> sensitiveHellos;
    private final Counters counters;
    private final FailureRedactor failureRedactor;
    private final AtomicBoolean warned = new AtomicBoolean();
    private final CommandFacts facts;
    private final OrdinaryNames ordinaryNames = new OrdinaryNames();
    private final CommandSummary summary;

    /**
     * @param policy the compiled policy
     * @param redactFailures whether failures are scrubbed
     * @param downstream the listeners to forward to
     * @param maxInFlight the bound of the in-flight table
     * @param facts the maker of the value types handed to sinks
     */
    public CommandProcessor(final CompiledPolicy policy, final boolean redactFailures, final Downstream downstream,
                            final int maxInFlight, final CommandFacts facts) {
        this.facts = facts;
        this.policy = policy;
        this.summary = new CommandSummary(policy);
        this.redactFailures = redactFailures;
        this.downstream = downstream;
        // one table is used, by whether there are sinks; the other is never written and stays at its smallest
        this.starts = new InFlightTable<>(downstream.hasSinks() ? maxInFlight : 1);
        this.sensitiveHellos = new InFlightTable<>(downstream.hasSinks() ? 1 : maxInFlight);
        this.counters = new Counters(downstream.hasSinks() ? starts : sensitiveHellos);
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
        } catch (Throwable e) {
            unexpected("commandStarted", event, e);
        }
    }

    /** Handles a succeeded event. Never throws. */
    public void succeeded(final CommandSucceededEvent event) {
        try {
            if (downstream.isEmpty()) {
                return;
            }
            succeededUnguarded(event);
        } catch (Throwable e) {
            unexpected("commandSucceeded", event, e);
        }
    }

    /** Handles a failed event. Never throws. */
    public void failed(final CommandFailedEvent event) {
        try {
            if (downstream.isEmpty()) {
                return;
            }
            failedUnguarded(event);
        } catch (Throwable e) {
            unexpected("commandFailed", event, e);
        }
    }

    /** A failure outside the guarded copy: the event was not forwarded. Counted and logged; never throws. */
    private void unexpected(final String callback, final CommandEvent event, final Throwable e) {
        Guard.rethrowIfStopRequest(e);
        counters.redactionFailures.increment();
        Guard.log(LOGGER, warned, "The redacting listener failed in " + callback + " of command " + commandName(event)
                + ", which was not forwarded", e);
    }

    /** The copy or redaction of a document failed: counted and logged, and a marker goes on in its place. */
    private BsonDocument copyFailed(final String what, final CommandEvent event, final Throwable e) {
        Guard.rethrowIfStopRequest(e);
        counters.redactionFailures.increment();
        Guard.log(LOGGER, warned, "The redacting listener could not copy the " + what + " of command " + commandName(event)
                + "; a marker document was forwarded in its place", e);
        return Markers.of(e);
    }

    private static String commandName(final CommandEvent event) {
        try {
            return event.getCommandName();
        } catch (Throwable e) {
            Guard.rethrowIfStopRequest(e);
            return "(unknown)";
        }
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
            sensitive = ordinaryNames.isSensitiveCommand(commandName, command);
            if (sensitive) {
                owned = SpecRedaction.EMPTY;
            } else if (!documents && !downstream.needsFingerprint()) {
                // metrics alone: the top level tells the collection, the driver's buffers the size; nothing is walked
                collection = summary.collection(command, commandName);
                size = PlainSize.asSent(command);
            } else {
                Redaction redaction = redactCommand(command, commandName, documents, sinks);
                byte[] bytes = redaction.takeBytes();
                owned = bytes == null ? null : new RawBsonDocument(bytes);
                collection = redaction.collectionName();
                fingerprint = redaction.fingerprint();
                size = redaction.inputSize();
                if (redaction.valuesRedacted() > 0) {
                    counters.valuesRedacted.add(redaction.valuesRedacted());
                }
            }
        } catch (Throwable e) {
            owned = copyFailed("command", event, e);
        }
        StartedCommand started = null;
        if (sinks) {
            started = facts.started(event, owned, collection, fingerprint, size, sensitive);
            // counts the event as forwarded: nothing between here and the forwarding below can fail
            starts.putAndCount(key(event), started);
        } else if (sensitive && SpecRedaction.isHello(commandName)) {
            // the spec decides a hello's reply and failure by its command: remember the sensitive ones
            sensitiveHellos.put(key(event), SensitiveHello.STARTED);
        }
        CommandStartedEvent forwarded = null;
        if (downstream.hasPlain()) {
            forwarded = new CommandStartedEvent(event.getRequestContext(), event.getOperationId(), event.getRequestId(),
                    event.getConnectionDescription(), event.getDatabaseName(), commandName,
                    owned == null ? SpecRedaction.EMPTY : owned);
        }
        if (!sinks) {
            counters.eventsForwarded.increment();
        }
        downstream.started(forwarded, started);
    }

    /** The copy (when documents are wanted) or the analysis of a command, by the thread's redactor. */
    private Redaction redactCommand(final BsonDocument command, final String commandName, final boolean documents,
                                    final boolean sinks) {
        Workspace workspace = Workspace.current();
        DocumentRedactor redactor = DocumentRedactor.current();
        boolean wantsFingerprint = sinks && downstream.needsFingerprint();
        return documents
                ? redactor.redactCommand(command, policy, policy.commandRules(commandName), sinks, wantsFingerprint, workspace)
                : redactor.analyseCommand(command, policy, policy.commandRules(commandName), wantsFingerprint, workspace);
    }

    private void succeededUnguarded(final CommandSucceededEvent event) {
        boolean sinks = downstream.hasSinks();
        boolean documents = downstream.needsDocuments();
        String commandName = event.getCommandName();
        // with sinks the table counts the event as forwarded under its lock
        StartedCommand started = sinks ? starts.removeAndCount(key(event)) : null;
        // without sinks only sensitive hellos are remembered, so a hello that is not there was not sensitive
        boolean startKnown = !sinks || started != null;
        boolean startSensitive = sinks ? started != null && started.isRedactedBySpec()
                : SpecRedaction.isHello(commandName) && sensitiveHellos.remove(key(event)) != null;
        BsonDocument owned = null;
        int replySize = 0;
        int errorCode = 0;
        String errorCodeName = null;
        try {
            BsonDocument reply = event.getResponse();
            Workspace workspace = Workspace.current();
            if (sinks) {
                ReplyErrors errors = ReplyErrors.read(reply, workspace);
                replySize = errors.size;
                errorCode = errors.code;
                errorCodeName = errors.codeName;
            }
            if (!ordinaryNames.isOrdinary(commandName)
                    && SpecRedaction.isSensitiveReply(commandName, reply, startSensitive)) {
                owned = SpecRedaction.EMPTY;
            } else if (documents) {
                DocumentRedactor redactor = DocumentRedactor.current();
                Redaction redaction = redactor.redactReply(reply, policy, policy.replyRules(commandName), workspace);
                byte[] bytes = redaction.takeBytes();
                if (bytes == null) {
                    throw new IllegalStateException("no copy of the reply of command " + commandName);
                }
                owned = new RawBsonDocument(bytes);
                replySize = redaction.inputSize();
                if (redaction.valuesRedacted() > 0) {
                    counters.valuesRedacted.add(redaction.valuesRedacted());
                }
            }
        } catch (Throwable e) {
            owned = copyFailed("reply", event, e);
        }
        CompletedCommand completed = null;
        if (sinks) {
            completed = facts.completed(started == null ? unknownStart(event) : started, started != null,
                    event.getElapsedTime(TimeUnit.NANOSECONDS), owned, replySize, null, errorCode, errorCodeName);
        }
        CommandSucceededEvent forwarded = null;
        if (downstream.hasPlain()) {
            forwarded = new CommandSucceededEvent(event.getRequestContext(), event.getOperationId(), event.getRequestId(),
                    event.getConnectionDescription(), event.getDatabaseName(), commandName,
                    owned == null ? SpecRedaction.EMPTY : owned, event.getElapsedTime(TimeUnit.NANOSECONDS));
        }
        if (!sinks) {
            counters.eventsForwarded.increment();
        }
        downstream.completed(forwarded, null, completed);
    }

    private void failedUnguarded(final CommandFailedEvent event) {
        boolean sinks = downstream.hasSinks();
        String commandName = event.getCommandName();
        // with sinks the table counts the event as forwarded under its lock
        StartedCommand started = sinks ? starts.removeAndCount(key(event)) : null;
        // without sinks only sensitive hellos are remembered, so a hello that is not there was not sensitive
        boolean startKnown = !sinks || started != null;
        boolean startSensitive = sinks ? started != null && started.isRedactedBySpec()
                : SpecRedaction.isHello(commandName) && sensitiveHellos.remove(key(event)) != null;
        Throwable original = failureOf(event.getThrowable(), commandName);
        Throwable failure;
        try {
            if (!ordinaryNames.isOrdinary(commandName)
                    && SpecRedaction.isSensitiveFailure(commandName, startKnown, startSensitive)) {
                failure = SpecFailures.redact(original);
            } else if (redactFailures) {
                failure = failureRedactor.redact(original, commandName);
            } else {
                failure = original;
            }
        } catch (Throwable e) {
            Guard.rethrowIfStopRequest(e);
            counters.redactionFailures.increment();
            Guard.log(LOGGER, warned, "The redacting listener could not redact the failure of command " + commandName
                    + "; a stand-in without its text was forwarded", e);
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
            completed = facts.completed(started == null ? unknownStart(event) : started, started != null,
                    event.getElapsedTime(TimeUnit.NANOSECONDS), null, -1, failure, code, codeName);
        }
        CommandFailedEvent forwarded = null;
        if (downstream.hasPlain()) {
            forwarded = new CommandFailedEvent(event.getRequestContext(), event.getOperationId(), event.getRequestId(),
                    event.getConnectionDescription(), event.getDatabaseName(), commandName,
                    event.getElapsedTime(TimeUnit.NANOSECONDS), failure);
        }
        if (!sinks) {
            counters.eventsForwarded.increment();
        }
        downstream.completed(null, forwarded, completed);
    }

    /**
     * A failed event without a throwable (the driver never makes one, a third party's code may) is still a failure: sinks
     * must not see it as a success.
     */
    private static Throwable failureOf(@Nullable final Throwable thrown, final String commandName) {
        return thrown != null ? thrown : new MongoClientException("The driver reported the failure of command "
                + commandName + " without a throwable");
    }

    private static long key(final CommandEvent event) {
        return InFlightTable.key(DriverApi.localValue(event.getConnectionDescription().getConnectionId()), event.getRequestId());
    }

    /** Facts of a start the table no longer held: the completion's metadata only. */
    private StartedCommand unknownStart(final CommandEvent event) {
        return facts.started(new CommandStartedEvent(event.getRequestContext(), event.getOperationId(),
                event.getRequestId(), event.getConnectionDescription(), event.getDatabaseName(), event.getCommandName(),
                SpecRedaction.EMPTY), null, null, 0, -1, false);
    }

    /** The one entry of the table of sensitive hellos: its presence is the fact. */
    private enum SensitiveHello {
        STARTED
    }
}
