package io.github.mongoredact.internal.event;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.MongoServerException;
import com.mongodb.event.CommandEvent;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.BoundedPool;
import io.github.mongoredact.internal.Guard;
import io.github.mongoredact.internal.bson.DriverApi;
import io.github.mongoredact.internal.failure.FailureRedactor;
import io.github.mongoredact.internal.failure.FailureStandIns;
import io.github.mongoredact.internal.failure.SpecFailures;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import io.github.mongoredact.internal.rules.SpecRedaction;
import io.github.mongoredact.internal.shape.QueryShape;
import io.github.mongoredact.internal.summary.CommandSummary;
import io.github.mongoredact.internal.walk.DocumentRedactor;
import io.github.mongoredact.internal.walk.Redaction;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The work behind {@code RedactingCommandListener}: redact and copy, correlate, forward. Thread-safe, with no state per
 * thread: a callback that reads the driver's bytes borrows a {@link DocumentRedactor} (and its {@code Workspace}) from the
 * pool shared by all threads and gives it back before it forwards the event. Never throws: a document that can not be read is
 * forwarded as a marker document.
 *
 * <p>Each event goes through the same steps: its content (the command, the reply or the failure) redacted by the spec where the
 * spec says so, else by the policy; the facts made for sinks; the event forwarded, counted once. What differs:</p>
 * <ul>
 *     <li>A start reads as much as the downstream does ({@link Downstream#startNeeds}, asked once): a copy for documents,
 *     the analysis for a fingerprint, the top level alone for metrics, its size counted only for a sink that reads it. With
 *     sinks its facts wait in the in-flight table; without, only a sensitive hello is remembered.</li>
 *     <li>A completion looks its start up once ({@link #completedUnguarded}): with sinks the table's entry, or facts rebuilt from
 *     the completion when the table no longer held it; without, whether it was a sensitive hello. A reply is copied only for
 *     reply documents, its error fields and cursor id read only for sinks; a failure is always redacted, and stood for where
 *     that fails ({@code FailureStandIns}).</li>
 * </ul>
 *
 * @param <S> the facts of a started command handed to sinks, made by {@link CommandFacts}
 * @param <C> the facts of a completed command
 */
public final class CommandProcessor<S, C> {
    private static final System.Logger LOGGER = ListenerLogger.LOGGER;
    /** The key of the marker document forwarded in place of a document that could not be read. */
    public static final String REDACTION_ERROR_KEY = Markers.KEY;

    private final CompiledPolicy policy;
    private final boolean redactFailures;
    private final Downstream<?, S, C> downstream;
    /** With sinks: every start, until its completion. */
    private final InFlightTable<S> starts;
    /** Without sinks: only the starts of the hellos the spec redacts, whose replies and failures it redacts too. */
    private final InFlightTable<SensitiveHello> sensitiveHellos;
    private final Counters counters;
    private final FailureRedactor failureRedactor;
    private final AtomicBoolean warned = new AtomicBoolean();
    private final CommandFacts<S, C> facts;
    private final CommandSummary summary;
    /** Reply scanners between callbacks, shared by all threads; borrowed only when sinks read a reply's facts. */
    private static final BoundedPool<ReplyErrors> REPLY_ERRORS = new BoundedPool<>(ReplyErrors::new);

    /**
     * @param policy the compiled policy
     * @param redactFailures whether failures are scrubbed
     * @param downstream the listeners to forward to
     * @param maxInFlight the bound of the in-flight table
     * @param facts the maker of the value types handed to sinks
     */
    public CommandProcessor(final CompiledPolicy policy, final boolean redactFailures, final Downstream<?, S, C> downstream,
                            final int maxInFlight, final CommandFacts<S, C> facts) {
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
    public Counters counters() {
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
            completedUnguarded(event, event, null);
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
            completedUnguarded(event, null, event);
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

    /**
     * A start: the command's content by what the downstream reads, then the facts kept for the completion.
     */
    private void startedUnguarded(final CommandStartedEvent event) {
        boolean sinks = downstream.hasSinks();
        String commandName = event.getCommandName();
        BsonDocument owned = null;
        String collection = null;
        long fingerprint = 0;
        int size = 0;
        boolean sensitive = false;
        long cursorId = 0;
        QueryShape queryShape = null;
        DocumentRedactor redactor = null;
        int needs = downstream.startNeeds(sinks && QueryShapes.isShaped(commandName));
        try {
            BsonDocument command = event.getCommand();
            sensitive = SpecRedaction.isSensitiveCommand(commandName, command);
            if (sensitive) {
                owned = SpecRedaction.EMPTY;
            } else if ((needs & Downstream.WALKED) == 0) {
                // metrics alone: the top level tells the collection, the driver's buffers the size; nothing is walked
                redactor = DocumentRedactor.borrow();
                collection = summary.collection(command, commandName, redactor.workspace(), redactor.cursor());
                size = summary.sizeAsSent(command, redactor.workspace(), (needs & Downstream.COMMAND_SIZE) != 0);
            } else {
                redactor = DocumentRedactor.borrow();
                byte[] bytes = redactCommand(redactor, command, commandName, needs, sinks);
                Redaction redaction = redactor.redaction();
                owned = bytes == null ? null : new RawBsonDocument(bytes);
                // the server's query shape is given only where the copy shows it: it takes the copy
                queryShape = (needs & Downstream.QUERY_SHAPE) != 0 && bytes != null ? QueryShapes.of(redactor, bytes) : null;
                collection = redaction.collectionName();
                fingerprint = redaction.fingerprint();
                size = redaction.inputSize();
                countRedacted(redaction);
            }
            if (sinks && !sensitive) {
                // last: a copy that failed leaves it 0, as the copy then shows no id
                cursorId = summary.getMoreCursorId(command, commandName);
            }
        } catch (Throwable e) {
            owned = copyFailed("command", event, e);
        } finally {
            if (redactor != null) {
                redactor.giveBack();
            }
        }
        S started = null;
        if (sinks) {
            started = facts.started(event, owned, collection, fingerprint, size, sensitive, cursorId, queryShape);
            // counts the event as forwarded: nothing between here and the forwarding below can fail
            starts.putAndCount(key(event), started);
        } else if (sensitive && SpecRedaction.isHello(commandName)) {
            // the spec decides a hello's reply and failure by its command: remember the sensitive ones
            sensitiveHellos.put(key(event), SensitiveHello.STARTED);
        }
        countForwarded(sinks);
        downstream.started(downstream.hasPlain() ? DriverEvents.started(event, orEmpty(owned)) : null, started);
    }

    /**
     * The copy (when documents or the query shape are wanted) or the analysis of a command, by the borrowed redactor, whose
     * {@link DocumentRedactor#redaction()} then holds the analysis.
     *
     * @param needs what the downstream reads ({@link Downstream#startNeeds})
     * @return the copy, or null when only the analysis was wanted
     */
    @Nullable
    private byte[] redactCommand(final DocumentRedactor redactor, final BsonDocument command, final String commandName,
                                 final int needs, final boolean sinks) {
        boolean fingerprint = (needs & Downstream.FINGERPRINT) != 0;
        if ((needs & (Downstream.DOCUMENTS | Downstream.QUERY_SHAPE)) != 0) {
            return redactor.redactCommand(command, policy, policy.commandRules(commandName), sinks, fingerprint);
        }
        redactor.analyseCommand(command, policy, policy.commandRules(commandName), fingerprint);
        return null;
    }

    /**
     * A completion, succeeded or failed (one of the two events is given): its start looked up once, then the reply or the
     * failure redacted by the spec or the policy, the facts made for sinks, and the event forwarded.
     */
    private void completedUnguarded(final CommandEvent event, @Nullable final CommandSucceededEvent succeeded,
                                    @Nullable final CommandFailedEvent failed) {
        boolean sinks = downstream.hasSinks();
        String commandName = event.getCommandName();
        long key = key(event);
        // with sinks the table counts the event as forwarded under its lock
        S started = sinks ? starts.removeAndCount(key) : null;
        // without sinks only sensitive hellos are remembered, so a hello that is not there was not sensitive
        boolean startKnown = !sinks || started != null;
        boolean startSensitive = sinks ? started != null && facts.isRedactedBySpec(started)
                : SpecRedaction.isHello(commandName) && sensitiveHellos.remove(key) != null;
        S start = !sinks ? null : started != null ? started : unknownStart(event);
        if (succeeded != null) {
            replied(succeeded, start, startSensitive);
        } else if (failed != null) {
            failed(failed, start, startKnown, startSensitive);
        }
    }

    /**
     * A reply: its error fields and cursor id read for sinks, its copy made when reply documents are read. The cursor id is
     * given only where the copy would show it, so it is 0 where the spec empties the reply or its copy fails.
     */
    private void replied(final CommandSucceededEvent event, @Nullable final S start,
                         final boolean startSensitive) {
        boolean documents = downstream.needsReplyDocuments();
        String commandName = event.getCommandName();
        BsonDocument owned = null;
        ReplyErrors read = start == null ? null : REPLY_ERRORS.borrow();
        DocumentRedactor redactor = null;
        boolean scanned = false;
        try {
            BsonDocument reply = event.getResponse();
            CompiledPolicy.RuleSet rules = policy.replyRules(commandName);
            if (read != null) {
                read.read(reply, rules.cursorIds());
                scanned = true;
            }
            if (SpecRedaction.isSensitiveReply(commandName, reply, startSensitive)) {
                owned = SpecRedaction.EMPTY;
                if (read != null) {
                    read.cursorId = 0;
                }
            } else if (documents) {
                redactor = DocumentRedactor.borrow();
                byte[] bytes = redactor.redactReply(reply, policy, rules);
                Redaction redaction = redactor.redaction();
                owned = new RawBsonDocument(bytes);
                if (read != null) {
                    read.size = redaction.inputSize();
                }
                countRedacted(redaction);
            }
        } catch (Throwable e) {
            owned = copyFailed("reply", event, e);
            if (read != null && !scanned) {
                read.cleared();
            } else if (read != null) {
                // the facts the scan read are kept but for the cursor id, which the marker no longer shows
                read.cursorId = 0;
            }
        } finally {
            if (redactor != null) {
                redactor.giveBack();
            }
        }
        C completed = null;
        if (read != null) {
            completed = facts.succeeded(start, event.getElapsedTime(TimeUnit.NANOSECONDS), owned, read);
            REPLY_ERRORS.giveBack(read.cleared());
        }
        countForwarded(start != null);
        downstream.completed(downstream.hasPlain() ? DriverEvents.succeeded(event, orEmpty(owned)) : null, null, completed);
    }

    /** A failure: redacted by the spec, by the policy or not at all; a stand-in where its redaction fails. */
    private void failed(final CommandFailedEvent event, @Nullable final S start, final boolean startKnown,
                        final boolean startSensitive) {
        String commandName = event.getCommandName();
        Throwable original = FailureStandIns.ofEvent(event.getThrowable(), commandName);
        Throwable failure;
        try {
            if (SpecRedaction.isSensitiveFailure(commandName, startKnown, startSensitive)) {
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
            failure = FailureStandIns.unredacted(original, commandName, e);
        }
        C completed = null;
        if (start != null) {
            int code = original instanceof MongoException ? ((MongoException) original).getCode() : 0;
            String codeName = original instanceof MongoCommandException ? ((MongoCommandException) original).getErrorCodeName()
                    : original instanceof MongoServerException ? ((MongoServerException) original).getErrorCodeName() : null;
            completed = facts.failed(start, event.getElapsedTime(TimeUnit.NANOSECONDS), failure, code, codeName);
        }
        countForwarded(start != null);
        downstream.completed(null, downstream.hasPlain() ? DriverEvents.failed(event, failure) : null, completed);
    }

    private void countRedacted(final Redaction redaction) {
        if (redaction.valuesRedacted() > 0) {
            counters.valuesRedacted.add(redaction.valuesRedacted());
        }
    }

    /** Counts an event as forwarded; with sinks the in-flight table has counted it already, under its lock. */
    private void countForwarded(final boolean sinks) {
        if (!sinks) {
            counters.eventsForwarded.increment();
        }
    }

    private static BsonDocument orEmpty(@Nullable final BsonDocument owned) {
        return owned == null ? SpecRedaction.EMPTY : owned;
    }

    private static long key(final CommandEvent event) {
        return InFlightTable.key(DriverApi.localValue(event.getConnectionDescription().getConnectionId()), event.getRequestId());
    }

    /** Facts of a start the table no longer held: the completion's metadata only. */
    private S unknownStart(final CommandEvent event) {
        return facts.started(DriverEvents.started(event, SpecRedaction.EMPTY), null, null, 0, -1, false, 0, null);
    }

    /** The one entry of the table of sensitive hellos: its presence is the fact. */
    private enum SensitiveHello {
        STARTED
    }
}
