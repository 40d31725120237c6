package io.github.mongoredact.observation;

import com.mongodb.MongoClientSettings;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.otel.OpenTelemetryCommandSink;
import io.github.mongoredact.otel.QueryTextLength;
import io.micrometer.observation.ObservationFilter;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;

import java.util.function.Function;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * The MongoDB Java driver's own tracing (5.7 and later: {@code MongoClientSettings.Builder.observabilitySettings}, through
 * Micrometer Observation), made safe. The driver's spans stay (operation spans with their command spans nested), but:
 *
 * <ul>
 *   <li>the driver's command payload is off, so its raw command (every value, {@code lsid}, {@code $clusterTime}) never
 *   reaches a span;</li>
 *   <li>{@code db.query.text}, when on, is this library's parametrized text: the listener's redacted copy, rendered in
 *   {@code commandStarted} and handed to the span of the same connection (the driver starts the span before it calls the
 *   listeners, and a connection has one command in flight) by an {@link ObservationFilter} at the span's stop;</li>
 *   <li>an {@link ObservationHandler} replaces the error of every command, operation and transaction observation by its
 *   redacted rebuild before the handlers after it see it, so the exception event, the status description and the
 *   {@code exception.*} attributes carry no server text (a duplicate key's value, "The full response is {...}"). It must be
 *   registered ahead of the tracing handler: {@link #register(ObservationRegistry)} before the tracing handler is added (in
 *   Spring Boot, the auto-configuration orders it first). Registered later, the filter still rewrites the
 *   {@code exception.*} attributes at the stop, but the exception event and the status were already recorded.</li>
 * </ul>
 *
 * <pre>{@code
 * ObservationRegistry registry = ObservationRegistry.create();
 * DriverTracing tracing = DriverTracing.builder().queryTextMaxLength(1000).build();
 * tracing.register(registry);                                       // first: ahead of the tracing handler
 * registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
 * RedactingCommandListener.Builder listener = RedactingCommandListener.builder();
 * MongoClientSettings.Builder settings = MongoClientSettings.builder().applyConnectionString(connectionString);
 * tracing.apply(settings, registry, listener);                      // the one call
 * settings.addCommandListener(listener.build());
 * }</pre>
 *
 * <p>Driver lines: {@link #isSupported()} tells whether the driver on the class path has the API (detected once); on 4.11 to
 * 5.6, {@link Builder#build()} refuses with a clear message, and {@code io.github.mongoredact.otel.OpenTelemetryCommandSink}
 * traces instead.</p>
 *
 * <p>Threading: thread-safe; the handler, the filter and the sink run on the driver's threads and never throw into them.</p>
 *
 * @since 0.3
 */
public final class DriverTracing {
    /** The environment variable of the specification that sets the query text's length when the builder does not. */
    public static final String QUERY_TEXT_MAX_LENGTH_VARIABLE = OpenTelemetryCommandSink.QUERY_TEXT_MAX_LENGTH_VARIABLE;
    private static final String API = "com.mongodb.observability.micrometer.MicrometerObservabilitySettings";
    private static final boolean SUPPORTED = present(API);

    private final QueryTexts texts;
    private final ScrubbedErrors errors;
    private final ObservationHandler<?> handler;
    private final ObservationFilter filter;

    private DriverTracing(final Builder builder, final int queryTextMaxLength) {
        this.texts = new QueryTexts(queryTextMaxLength);
        this.errors = new ScrubbedErrors(builder.policy.isRedactFailures() ? builder.policy : null);
        this.handler = new ErrorScrubbingHandler(errors);
        this.filter = new QueryTextFilter(texts, errors);
    }

    /**
     * @return whether the driver on the class path has its own tracing API (5.7 and later); detected once
     * @since 0.3
     */
    public static boolean isSupported() {
        return SUPPORTED;
    }

    /**
     * @return a new builder
     * @since 0.3
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Registers the error handler and the query-text filter. Call it before the tracing handler is registered: handlers see
     * an error in the order they were registered.
     *
     * @param registry the registry the driver's tracing uses
     * @since 0.3
     */
    public void register(final ObservationRegistry registry) {
        notNull("registry", registry).observationConfig().observationHandler(handler).observationFilter(filter);
    }

    /**
     * The one call: turns the driver's tracing on with the registry and its command payload off, and adds the sink that
     * renders the texts to the listener's builder.
     *
     * @param settings the client's settings builder
     * @param registry the registry the driver's tracing reports to (with {@link #register(ObservationRegistry)} done)
     * @param listener the builder of the listener that goes on the same client
     * @since 0.3
     */
    public void apply(final MongoClientSettings.Builder settings, final ObservationRegistry registry,
                      final RedactingCommandListener.Builder listener) {
        ObservabilityApi.tracePayloadOff(notNull("settings", settings), notNull("registry", registry));
        notNull("listener", listener).addSink(texts);
    }

    /**
     * For settings whose own tracing is already configured (by a customizer, say): keeps it, with the command payload off.
     *
     * @param settings the client's settings builder
     * @return true when the settings traced with Micrometer and were changed; false when they do not trace
     * @since 0.3
     */
    public boolean turnPayloadOff(final MongoClientSettings.Builder settings) {
        MongoClientSettings built = notNull("settings", settings).build();
        if (ObservabilityApi.tracingRegistry(built) == null) {
            return false;
        }
        ObservabilityApi.payloadOff(settings, built);
        return true;
    }

    /**
     * @param settings a client's settings
     * @return whether they turn the driver's own tracing on (with Micrometer); false on drivers without the API
     * @since 0.3
     */
    public static boolean tracesItself(final MongoClientSettings settings) {
        return SUPPORTED && ObservabilityApi.tracingRegistry(notNull("settings", settings)) != null;
    }

    /**
     * @return the sink that renders the parametrized texts, for the listener on the same client (added by
     *         {@link #apply})
     * @since 0.3
     */
    public CommandSink sink() {
        return texts;
    }

    /**
     * @return the handler that replaces errors, to register ahead of the tracing handler
     * @since 0.3
     */
    public ObservationHandler<?> errorHandler() {
        return handler;
    }

    /**
     * @return the filter that writes the query text (and rewrites errors a late handler missed)
     * @since 0.3
     */
    public ObservationFilter queryTextFilter() {
        return filter;
    }

    /**
     * @return the maximum length of {@code db.query.text}, 0 when it is off
     * @since 0.3
     */
    public int getQueryTextMaxLength() {
        return texts.maxLength();
    }

    /**
     * @return how many errors could not be redacted (a stand-in without text was recorded for each)
     * @since 0.3
     */
    public long getFailures() {
        return errors.failures.sum();
    }

    @Override
    public String toString() {
        return "DriverTracing{queryTextMaxLength=" + texts.maxLength() + "}";
    }

    /** @return whether the class can be loaded by this class's loader, without initialising it */
    private static boolean present(final String className) {
        try {
            Class.forName(className, false, DriverTracing.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * Builds a {@link DriverTracing}. Not thread-safe.
     *
     * @since 0.3
     */
    public static final class Builder {
        private RedactionPolicy policy = RedactionPolicy.defaults();
        @Nullable
        private Integer queryTextMaxLength;
        private Function<String, String> environment = System::getenv;

        private Builder() {
        }

        /**
         * @param policy the policy whose reply rules redact the errors' documents; the listener's, {@link
         *               RedactionPolicy#defaults()} if not set
         * @return this
         * @since 0.3
         */
        public Builder policy(final RedactionPolicy policy) {
            this.policy = notNull("policy", policy);
            return this;
        }

        /**
         * @param queryTextMaxLength the most characters of {@code db.query.text} before {@code " ..."}; 0 turns it off. If
         *                           not set: {@value DriverTracing#QUERY_TEXT_MAX_LENGTH_VARIABLE}, else off
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

        /** For tests: where environment variables are read. */
        Builder environment(final Function<String, String> environment) {
            this.environment = notNull("environment", environment);
            return this;
        }

        /**
         * @return the tracing
         * @throws IllegalStateException if the driver on the class path has no tracing of its own (before 5.7)
         * @throws IllegalArgumentException if {@value DriverTracing#QUERY_TEXT_MAX_LENGTH_VARIABLE} holds no length
         * @since 0.3
         */
        public DriverTracing build() {
            if (!SUPPORTED) {
                throw new IllegalStateException("The MongoDB Java driver on the class path has no tracing of its own (it"
                        + " comes with 5.7; " + API + " is missing): use io.github.mongoredact.otel.OpenTelemetryCommandSink");
            }
            return new DriverTracing(this, QueryTextLength.of(queryTextMaxLength, environment));
        }
    }
}
