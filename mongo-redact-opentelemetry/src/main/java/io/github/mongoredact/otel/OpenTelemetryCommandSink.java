package io.github.mongoredact.otel;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.CallbackGuard;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.StartedCommand;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * A {@link CommandSink} that makes one OpenTelemetry span of kind CLIENT per command, as MongoDB's OpenTelemetry specification
 * describes the command span, from the redacted, owned events of the listener.
 *
 * <pre>{@code
 * RedactingCommandListener listener = RedactingCommandListener.builder()
 *         .addSink(OpenTelemetryCommandSink.builder(openTelemetry).queryTextMaxLength(1000).build())
 *         .build();
 * }</pre>
 *
 * <ul>
 *   <li>Name: the command name ({@link SpanNaming#DRIVER_SPECIFICATION}, the default), or the semantic conventions'
 *   {@code db.query.summary} ({@link SpanNaming#SEMANTIC_CONVENTIONS}, {@link Builder#spanNaming(SpanNaming)}). No span for
 *   the specification's sensitive commands nor for the {@code hello} family.</li>
 *   <li>Attributes: {@code db.system.name}, {@code db.namespace}, {@code db.collection.name} (not on {@code admin}),
 *   {@code db.command.name} and {@code db.operation.name} (both the command's name), {@code db.query.summary} (in the form
 *   {@link SpanNaming} chooses), {@code server.address}, {@code server.port} and the connection ids ({@code long}),
 *   {@code network.transport} ({@code tcp}, {@code unix}); the server's query shape of a {@code find}, {@code aggregate},
 *   {@code count} or {@code distinct}, {@code db.mongodb.query_shape} and {@code db.mongodb.query_shape_hash}
 *   ({@link StartedCommand#getQueryShape()}, given only where the redacted copy has the same shape; opt-in,
 *   {@link Builder#queryShape(boolean)}); text on: {@code db.mongodb.lsid}, {@code db.mongodb.txn_number} and
 *   {@code db.operation.batch.size} (an {@code update}'s or {@code delete}'s statements, a client {@code bulkWrite}'s
 *   operations, two or more; never an {@code insert}'s documents) where the copy holds them; on or off:
 *   {@code db.mongodb.cursor_id} where the copy shows it, read without one ({@link CompletedCommand#getCursorId()},
 *   {@link StartedCommand#getCursorId()}); on error {@code error.type} and the status code.</li>
 *   <li>{@code db.query.text}: off by default. On with a maximum length, from {@link Builder#queryTextMaxLength(int)} or
 *   the environment variable {@value #QUERY_TEXT_MAX_LENGTH_VARIABLE}: the redacted copy as relaxed extended JSON without
 *   {@code lsid}, {@code $db}, {@code $clusterTime} and {@code signature}, cut as the logging specification cuts (a text
 * longer than the limit loses its end and gets {@code " ..."}). Under {@link io.github.mongoredact.RedactionPolicy#specOnly()}
 * that is the command the specification expects; under {@link io.github.mongoredact.RedactionPolicy#defaults()}, placeholders.</li>
 *   <li>On failure: status ERROR, {@code db.response.status_code} (the server's code as a string, where it is positive),
 *   {@code error.type} (that code, else the failure's fully qualified class name), {@code exception.type},
 *   {@code exception.message} and {@code exception.stacktrace} (as attributes, and as the {@code exception} event) of the
 *   redacted failure the listener hands over, never of the original. A reply that reports write errors under {@code ok: 1}
 *   gets status ERROR, the code and {@code error.type}, without an exception.</li>
 *   <li>Times: the start is taken when the listener hands the start over, the end is that start plus the elapsed time the
 *   driver measured, so the span's duration is the driver's.</li>
 *   <li>Parent: the OpenTelemetry context in the command's {@code RequestContext} (see {@link TracingContextProvider}, for
 *   the reactive driver), else {@code Context.current()} on the thread that calls {@code commandStarted} (the sync
 *   driver's caller).</li>
 * </ul>
 *
 * <p>Cost: what depends only on server, database, collection and command (the attributes; the last two query texts, of
 * commands of up to 512 bytes of shown fields, found again by those bytes; the last copy of up to 512 bytes, with its text
 * and session facts, found again by its bytes) is cached for the first 4096 keys (later ones:
 * {@link #getSpansOfUncachedKinds()}). Documents are asked for only with the text on, never replies nor the fingerprint; the
 * query shape (opt-in) makes the listener copy a find, aggregate, count or distinct and shape it and its copy (the copy also
 * gives an aggregation's pipeline targets to the conventions' summary).</p>
 *
 * <p>It never throws into its caller: whatever fails is caught, counted ({@link #getFailures()}) and reported once as a
 * warning through {@code System.Logger}, then at debug level. A redacted copy that cannot be read (under
 * {@link io.github.mongoredact.RedactionPolicy#specOnly()} a sequence document is copied as the driver held it, its framing
 * checked) keeps its span, with {@code {"$renderError": "<exception class>"}} as its {@code db.query.text}, counted the same
 * way, as the log sink shows such a document. Threading: thread-safe; called on the driver's threads, on
 * which spans are started and ended (an SDK's span processors run there: use a batching processor).</p>
 *
 * @since 0.3
 */
public final class OpenTelemetryCommandSink implements CommandSink {
    /** The name of the tracer, the instrumentation scope of the spans. */
    public static final String INSTRUMENTATION_NAME = "io.github.mongoredact";
    /** The specification's environment variable that turns the query text on, with its maximum length. */
    public static final String QUERY_TEXT_MAX_LENGTH_VARIABLE = "OTEL_JAVA_INSTRUMENTATION_MONGODB_QUERY_TEXT_MAX_LENGTH";
    /** The specification's environment variable that turns tracing off ({@code false}, {@code 0}, {@code no}) or on. */
    public static final String ENABLED_VARIABLE = "OTEL_JAVA_INSTRUMENTATION_MONGODB_ENABLED";

    private final boolean enabled;
    private final int queryTextMaxLength;
    private final SpanNaming naming;
    private final boolean queryShape;
    private final SpanTemplates templates;
    private final CommandSpans spans;
    /** The span of the command in flight on each connection (a connection has one), by the driver's connection id. */
    private final ConcurrentHashMap<Long, InFlightSpan> inFlight = new ConcurrentHashMap<>();
    private final LongAdder failures = new LongAdder();
    private final CallbackGuard guard = new CallbackGuard(OpenTelemetryCommandSink.class);
    private final EpochClock clock = new EpochClock();

    private OpenTelemetryCommandSink(final Builder builder, final boolean enabled, final int queryTextMaxLength) {
        String version = OpenTelemetryCommandSink.class.getPackage().getImplementationVersion();
        Tracer tracer = version == null ? builder.openTelemetry.getTracer(INSTRUMENTATION_NAME)
                : builder.openTelemetry.getTracer(INSTRUMENTATION_NAME, version);
        this.enabled = enabled;
        this.queryTextMaxLength = queryTextMaxLength;
        this.naming = builder.naming;
        this.queryShape = builder.queryShape;
        this.templates = new SpanTemplates(queryTextMaxLength, naming);
        this.spans = new CommandSpans(tracer, templates, naming, queryShape, this::unreadable);
    }

    /**
     * @param openTelemetry the OpenTelemetry whose tracer makes the spans
     * @return a new builder
     * @since 0.3
     */
    public static Builder builder(final OpenTelemetry openTelemetry) {
        return new Builder(openTelemetry);
    }

    /**
     * @return true only when the query text is on: the text is rendered from the redacted copy
     * @since 0.3
     */
    @Override
    public boolean needsDocuments() {
        return enabled && queryTextMaxLength > 0;
    }

    /**
     * @return false: the reply's one attribute, {@code db.mongodb.cursor_id}, is {@link CompletedCommand#getCursorId()}
     * @since 0.4
     */
    @Override
    public boolean needsReplyDocuments() {
        return false;
    }

    /**
     * @return false: spans do not carry the fingerprint
     * @since 0.3
     */
    @Override
    public boolean needsFingerprint() {
        return false;
    }

    /**
     * @return true while the sink makes spans and the query shape is on ({@link Builder#queryShape(boolean)}): the spans of
     *         a find, aggregate, count or distinct carry the server's shape and its hash where the redacted copy has it
     * @since 0.6
     */
    @Override
    public boolean needsQueryShape() {
        return enabled && queryShape;
    }

    /**
     * @return false: spans do not carry the command's size
     * @since 0.7
     */
    @Override
    public boolean needsCommandSize() {
        return false;
    }

    @Override
    public void started(final StartedCommand command) {
        if (!enabled) {
            return;
        }
        try {
            if (!traced(command)) {
                return;
            }
            long start = clock.now();
            long connection = command.getDriverConnectionId();
            Span span = spans.builder(command, start, connection).startSpan();
            InFlightSpan previous = inFlight.put(connection, new InFlightSpan(span, start, command.getRequestId()));
            if (previous != null) {
                // the completion of the command before never came (a failure of the listener): end it as it is
                previous.span.end();
            }
        } catch (Throwable t) {
            failed(t, command);
        }
    }

    @Override
    public void completed(final CompletedCommand command) {
        if (!enabled) {
            return;
        }
        try {
            StartedCommand started = command.getStarted();
            Long key = started.getDriverConnectionId(); // boxed once for both look-ups
            InFlightSpan entry = inFlight.get(key);
            if (entry != null && entry.requestId == started.getRequestId() && inFlight.remove(key, entry)) {
                // only the commands that are traced have a span in flight
                SpanOutcome.end(entry.span, entry.start, command);
                return;
            }
            if (traced(started)) {
                // the start was not seen (the sink was added to a running listener): the span from the completion alone
                long start = clock.now() - command.getElapsedNanos();
                SpanOutcome.end(spans.builder(started, start, key).startSpan(), start, command);
            }
        } catch (Throwable t) {
            failed(t, command);
        }
    }

    /** The specification makes no span for its sensitive commands nor for the hello family. */
    private static boolean traced(final StartedCommand command) {
        return !command.isSensitive() && !command.isHello();
    }

    /**
     * Counts a redacted copy that could not be read, whose span went on with {@code {"$renderError": "<exception class>"}} as
     * its {@code db.query.text}, and reports it by the exception's class alone: its message may quote the copy.
     */
    private void unreadable(final RuntimeException e, final StartedCommand command) {
        failures.increment();
        try {
            guard.log("OpenTelemetryCommandSink could not read the copy of a command and set its span's db.query.text to"
                    + " $renderError (counted in getFailures()): " + e.getClass().getName() + " while tracing a "
                    + command.getCommandName(), null);
        } catch (Throwable ignored) {
            CallbackGuard.rethrowIfStopRequest(ignored);
            // the report itself failed: counted above, the span goes on
        }
    }

    private void failed(final Throwable t, final Object subject) {
        CallbackGuard.rethrowIfStopRequest(t);
        failures.increment();
        guard.log("OpenTelemetryCommandSink failed to trace a command and dropped its span (counted in"
                + " getFailures()): " + t.getClass().getName() + " while tracing a " + subject.getClass().getSimpleName(), t);
    }

    /**
     * @return how many times making a span failed, or a span's redacted copy could not be read (that span kept, with a
     *         render error as its text); each was caught, never thrown into the driver
     * @since 0.3
     */
    public long getFailures() {
        return failures.sum();
    }

    /**
     * @return the spans whose shared attributes were made for them alone: their server, database, collection and command
     *         name came after the 4096 such keys the sink caches (collections named at run time do not grow it without end)
     * @since 0.4
     */
    public long getSpansOfUncachedKinds() {
        return templates.notKept();
    }

    /**
     * @return whether this sink makes spans
     * @since 0.3
     */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * @return the maximum length of {@code db.query.text}, 0 when the attribute is off
     * @since 0.3
     */
    public int getQueryTextMaxLength() {
        return queryTextMaxLength;
    }

    /**
     * @return the form of the span names and of {@code db.query.summary}
     * @since 0.6
     */
    public SpanNaming getSpanNaming() {
        return naming;
    }

    /**
     * @return whether the spans carry the server's query shape and its hash
     * @since 0.6
     */
    public boolean isQueryShape() {
        return queryShape;
    }

    @Override
    public String toString() {
        return "OpenTelemetryCommandSink{enabled=" + enabled + ", queryTextMaxLength=" + queryTextMaxLength + ", spanNaming="
                + naming + ", queryShape=" + queryShape + "}";
    }

    /**
     * Builds an {@link OpenTelemetryCommandSink}. Not thread-safe.
     *
     * @since 0.3
     */
    public static final class Builder {
        private final OpenTelemetry openTelemetry;
        @Nullable
        private Integer queryTextMaxLength;
        @Nullable
        private Boolean enabled;
        private SpanNaming naming = SpanNaming.DRIVER_SPECIFICATION;
        private boolean queryShape;
        private Function<String, String> environment = System::getenv;

        private Builder(final OpenTelemetry openTelemetry) {
            this.openTelemetry = notNull("openTelemetry", openTelemetry);
        }

        /**
         * @param queryTextMaxLength the most characters of {@code db.query.text} before {@code " ..."}, 1 or more; 0 turns
         *                           the attribute off. If not set: the environment variable
         *                           {@value OpenTelemetryCommandSink#QUERY_TEXT_MAX_LENGTH_VARIABLE}, else off
         * @return this
         * @since 0.3
         */
        public Builder queryTextMaxLength(final int queryTextMaxLength) {
            if (queryTextMaxLength < 0) {
                throw new IllegalArgumentException("queryTextMaxLength must be 0 (off) or more, was " + queryTextMaxLength);
            }
            this.queryTextMaxLength = queryTextMaxLength;
            return this;
        }

        /**
         * @param enabled whether the sink makes spans. If not set: false when the environment variable
         *                {@value OpenTelemetryCommandSink#ENABLED_VARIABLE} says {@code false}, {@code 0} or {@code no},
         *                else true
         * @return this
         * @since 0.3
         */
        public Builder enabled(final boolean enabled) {
            this.enabled = enabled;
            return this;
        }

        /**
         * @param naming how spans are named and {@code db.query.summary} is written: the driver specification's form (the
         *               default: the command's name, {@code find app.users}) or the semantic conventions'
         *               ({@code find users}, also the span's name, with an aggregation's pipeline targets)
         * @return this
         * @since 0.6
         */
        public Builder spanNaming(final SpanNaming naming) {
            this.naming = notNull("naming", naming);
            return this;
        }

        /**
         * @param queryShape whether the spans of a {@code find}, {@code aggregate}, {@code count} or {@code distinct} carry
         *                   {@code db.mongodb.query_shape} and {@code db.mongodb.query_shape_hash}, the server's own shape and
         *                   hash, where the redacted copy has the same shape. Off by default, for its cost: the listener then
         *                   copies every such command and shapes it and its copy, whether or not its span is sampled, and
         *                   the span reads the shape's text and hash (measured: 1.8 us and 1.3 KiB over the copy for a
         *                   find by one field, about four times the copy alone and twice a whole span with the query text
         *                   on; 9 us and 6.9 KiB for a find by twenty fields). It tells nothing the copy hides
         * @return this
         * @since 0.6
         */
        public Builder queryShape(final boolean queryShape) {
            this.queryShape = queryShape;
            return this;
        }

        /** For tests: where environment variables are read. */
        Builder environment(final Function<String, String> environment) {
            this.environment = notNull("environment", environment);
            return this;
        }

        /**
         * @return the sink
         * @throws IllegalArgumentException if an environment variable it reads holds a value it does not understand (the
         *                                  message names the variable and the value)
         * @since 0.3
         */
        public OpenTelemetryCommandSink build() {
            boolean on = TracingEnabled.of(enabled, environment);
            int length = QueryTextLength.of(queryTextMaxLength, environment);
            return new OpenTelemetryCommandSink(this, on, length);
        }
    }
}
