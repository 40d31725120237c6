package io.github.mongoredact.micrometer;

import io.github.mongoredact.ListenerCounters;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * Makes the live counters of a {@link io.github.mongoredact.RedactingCommandListener} visible as meters, read when the registry publishes:
 * {@code mongoredact.listener.events.forwarded}, {@code .redaction.failures}, {@code .sink.failures},
 * {@code .inflight.evictions}, {@code .values.redacted} (function counters) and {@code mongoredact.listener.inflight}
 * (gauge).
 *
 * <pre>{@code
 * new ListenerCountersMetrics(listener.getCounters(), Tags.of("app", "orders")).bindTo(registry);
 * }</pre>
 *
 * <p>Lifetime and threading: immutable; the meters hold the counters (and so the listener) for as long as the registry keeps
 * them. The counters are thread-safe, so the registry may read them from any thread.</p>
 *
 * @since 0.1
 */
public final class ListenerCountersMetrics implements MeterBinder {
    /** The prefix of the meters' names. */
    public static final String PREFIX = "mongoredact.listener.";

    private final ListenerCounters counters;
    private final Tags tags;

    /**
     * @param counters the listener's counters ({@link io.github.mongoredact.RedactingCommandListener#getCounters()})
     * @since 0.1
     */
    public ListenerCountersMetrics(final ListenerCounters counters) {
        this(counters, Tags.empty());
    }

    /**
     * @param counters the listener's counters ({@link io.github.mongoredact.RedactingCommandListener#getCounters()})
     * @param tags tags added to every meter
     * @since 0.1
     */
    public ListenerCountersMetrics(final ListenerCounters counters, final Iterable<Tag> tags) {
        this.counters = notNull("counters", counters);
        this.tags = Tags.of(notNull("tags", tags));
    }

    @Override
    public void bindTo(final MeterRegistry registry) {
        notNull("registry", registry);
        FunctionCounter.builder(PREFIX + "events.forwarded", counters, ListenerCounters::getEventsForwarded)
                .description("Command events forwarded downstream by the redacting listener").tags(tags).register(registry);
        FunctionCounter.builder(PREFIX + "redaction.failures", counters, ListenerCounters::getRedactionFailures)
                .description("Documents that could not be redacted and were forwarded as a marker").tags(tags)
                .register(registry);
        FunctionCounter.builder(PREFIX + "sink.failures", counters, ListenerCounters::getSinkFailures)
                .description("Exceptions thrown by downstream listeners and sinks").tags(tags).register(registry);
        FunctionCounter.builder(PREFIX + "inflight.evictions", counters, ListenerCounters::getInFlightEvictions)
                .description("Started commands evicted from the bounded in-flight table before their completion")
                .tags(tags).register(registry);
        FunctionCounter.builder(PREFIX + "values.redacted", counters, ListenerCounters::getValuesRedacted)
                .description("Values replaced by placeholders").tags(tags).register(registry);
        Gauge.builder(PREFIX + "inflight", counters, ListenerCounters::getInFlight)
                .description("Started commands held until their completion").tags(tags).register(registry);
    }

    @Override
    public String toString() {
        return "ListenerCountersMetrics{tags=" + tags + "}";
    }
}
