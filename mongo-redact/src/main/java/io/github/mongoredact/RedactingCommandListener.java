package io.github.mongoredact;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.DriverApi;
import io.github.mongoredact.internal.event.CommandProcessor;
import io.github.mongoredact.internal.event.Downstream;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * A {@link CommandListener} that copies every command and reply, redacted by a {@link RedactionPolicy}, into one array of
 * exactly the right size, and hands owned events to its downstream listeners and sinks.
 *
 * <pre>{@code
 * RedactingCommandListener listener = RedactingCommandListener.builder()
 *         .policy(RedactionPolicy.defaults())
 *         .addSink(CommandLogSink.builder().build())     // a CommandSink: correlated, owned facts
 *         .addListener(downstream)                       // a plain CommandListener: owned, redacted driver events
 *         .build();
 * MongoClientSettings settings = MongoClientSettings.builder()
 *         .applyConnectionString(new ConnectionString(uri))
 *         .addCommandListener(listener)
 *         .build();
 * }</pre>
 *
 * <p>Lifetime: the driver's started command is a view on pooled buffers, valid only inside the callback. What this listener
 * forwards is owned: a downstream listener may keep the events and their documents forever and read them from any thread.</p>
 *
 * <p>Threading: thread-safe; the callbacks run on the driver's threads, which this listener never blocks beyond short,
 * bounded bookkeeping. It never throws into the driver: a downstream that throws is caught, counted and logged (a warning the
 * first time, then at debug), and the others still get the event. A document that can not be read is forwarded as a marker
 * document {@code {"$redactionError": "..."}} that says what failed, never as the raw bytes.</p>
 *
 * <p>Memory: started commands are tracked until their completion for the {@link CommandSink}s in a table of at most
 * {@link Builder#maxInFlight(int)} entries; when full, the oldest is evicted and counted.</p>
 *
 * @since 0.1
 */
public final class RedactingCommandListener implements CommandListener {
    private final RedactionPolicy policy;
    private final List<CommandListener> listeners;
    private final List<CommandSink> sinks;
    private final int maxInFlight;
    private final CommandProcessor<StartedCommand, CompletedCommand> processor;
    private final ListenerCounters counters;

    private RedactingCommandListener(final Builder builder) {
        this.policy = builder.policy;
        this.listeners = Collections.unmodifiableList(new ArrayList<>(builder.listeners));
        this.sinks = Collections.unmodifiableList(new ArrayList<>(builder.sinks));
        this.maxInFlight = builder.maxInFlight;
        this.processor = new CommandProcessor<>(RedactionPolicy.compiledOf(policy), policy.isRedactFailures(),
                new Downstream<>(listeners, sinks, Facts.INSTANCE), maxInFlight, Facts.INSTANCE);
        this.counters = new LiveCounters(processor.counters());
    }

    /**
     * @return a new builder, with {@link RedactionPolicy#defaults()} as its policy
     * @since 0.1
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Whether the MongoDB Java driver on the class path offers all the listener needs, asked without building one (a start-up
     * check, such as the Spring Boot auto-configuration's). Detected once.
     *
     * @return null when it does; else the message {@link Builder#build()} refuses with: the supported range, the driver's
     *         version and what it lacks
     * @since 0.5
     */
    @Nullable
    public static String driverRefusal() {
        return DriverApi.refusal();
    }

    @Override
    public void commandStarted(final CommandStartedEvent event) {
        processor.started(event);
    }

    @Override
    public void commandSucceeded(final CommandSucceededEvent event) {
        processor.succeeded(event);
    }

    @Override
    public void commandFailed(final CommandFailedEvent event) {
        processor.failed(event);
    }

    /**
     * @return the policy
     * @since 0.1
     */
    public RedactionPolicy getPolicy() {
        return policy;
    }

    /**
     * @return the plain downstream listeners, in the order they are called (before the sinks); unmodifiable
     * @since 0.1
     */
    public List<CommandListener> getListeners() {
        return listeners;
    }

    /**
     * @return the sinks, in the order they are called (after the plain listeners); unmodifiable
     * @since 0.1
     */
    public List<CommandSink> getSinks() {
        return sinks;
    }

    /**
     * @return the bound of the in-flight table
     * @since 0.1
     */
    public int getMaxInFlight() {
        return maxInFlight;
    }

    /**
     * @return live counters of this listener
     * @since 0.1
     */
    public ListenerCounters getCounters() {
        return counters;
    }

    @Override
    public String toString() {
        return "RedactingCommandListener{policy=" + policy + ", listeners=" + listeners.size() + ", sinks=" + sinks.size()
                + ", maxInFlight=" + maxInFlight + "}";
    }

    /**
     * Builds a {@link RedactingCommandListener}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder {
        /** The default bound of the in-flight table. */
        public static final int DEFAULT_MAX_IN_FLIGHT = 10_000;

        private RedactionPolicy policy = RedactionPolicy.defaults();
        private final List<CommandListener> listeners = new ArrayList<>();
        private final List<CommandSink> sinks = new ArrayList<>();
        private int maxInFlight = DEFAULT_MAX_IN_FLIGHT;

        private Builder() {
        }

        /**
         * @param policy the redaction policy; {@link RedactionPolicy#defaults()} if not set
         * @return this
         * @since 0.1
         */
        public Builder policy(final RedactionPolicy policy) {
            this.policy = notNull("policy", policy);
            return this;
        }

        /**
         * Adds a plain downstream listener: any {@link CommandListener}, such as a third party's. It receives new, owned
         * driver events whose command and reply are the redacted copies. May be called many times; listeners are called in
         * the order they were added, all of them before the sinks.
         *
         * @param listener the listener
         * @return this
         * @since 0.1
         */
        public Builder addListener(final CommandListener listener) {
            listeners.add(notNull("listener", listener));
            return this;
        }

        /**
         * Adds a sink: it receives the correlated {@link CommandSink#started(StartedCommand)} and
         * {@link CommandSink#completed(CompletedCommand)} callbacks. May be called many times; sinks are called in the order
         * they were added, after the plain listeners.
         *
         * @param sink the sink
         * @return this
         * @since 0.1
         */
        public Builder addSink(final CommandSink sink) {
            sinks.add(notNull("sink", sink));
            return this;
        }

        /**
         * @param maxInFlight the bound of the table that holds started commands until their completion, 1 or more
         * @return this
         * @since 0.1
         */
        public Builder maxInFlight(final int maxInFlight) {
            if (maxInFlight < 1) {
                throw new IllegalArgumentException("maxInFlight must be 1 or more, was " + maxInFlight);
            }
            this.maxInFlight = maxInFlight;
            return this;
        }

        /**
         * Builds the listener, in the application's configuration code rather than on the driver's threads: a driver on which
         * the listener can not work at all is refused here.
         *
         * @return the listener
         * @throws IllegalStateException if the MongoDB Java driver on the class path is outside the supported range (4.11.0
         *                               to the newest 5.x) or lacks what the listener needs; the message names the driver
         *                               version and what is missing
         * @since 0.1
         */
        public RedactingCommandListener build() {
            String refusal = driverRefusal();
            if (refusal != null) {
                throw new IllegalStateException(refusal);
            }
            return new RedactingCommandListener(this);
        }
    }
}
