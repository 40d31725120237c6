package io.github.mongoredact.micrometer;

import io.github.mongoredact.handoff.HandOffSink;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * Makes the counters of a {@link HandOffSink} visible as meters, read when the registry publishes:
 * {@code mongoredact.handoff.delivered}, {@code .dropped}, {@code .failures} (function counters) and
 * {@code mongoredact.handoff.queued} (gauge), tagged {@code name}.
 *
 * <pre>{@code
 * new HandOffSinkMetrics(handOff, "audit").bindTo(registry);
 * }</pre>
 *
 * <p>Lifetime and threading: immutable; the meters hold the hand-off for as long as the registry keeps them. Its counters are
 * thread-safe, so the registry may read them from any thread.</p>
 *
 * @since 0.1
 */
public final class HandOffSinkMetrics implements MeterBinder {
    /** The prefix of the meters' names. */
    public static final String PREFIX = "mongoredact.handoff.";

    private final HandOffSink handOff;
    private final Tags tags;

    /**
     * @param handOff the hand-off
     * @param name the value of the {@code name} tag, which tells hand-offs apart
     * @since 0.1
     */
    public HandOffSinkMetrics(final HandOffSink handOff, final String name) {
        this(handOff, name, Tags.empty());
    }

    /**
     * @param handOff the hand-off
     * @param name the value of the {@code name} tag, which tells hand-offs apart
     * @param tags tags added to every meter
     * @since 0.1
     */
    public HandOffSinkMetrics(final HandOffSink handOff, final String name, final Iterable<Tag> tags) {
        this.handOff = notNull("handOff", handOff);
        this.tags = Tags.of(notNull("tags", tags)).and("name", notNull("name", name));
    }

    @Override
    public void bindTo(final MeterRegistry registry) {
        notNull("registry", registry);
        FunctionCounter.builder(PREFIX + "delivered", handOff, HandOffSink::getDelivered)
                .description("Events delivered to the wrapped sink").tags(tags).register(registry);
        FunctionCounter.builder(PREFIX + "dropped", handOff, HandOffSink::getDropped)
                .description("Events dropped because the queue was full or closed").tags(tags).register(registry);
        FunctionCounter.builder(PREFIX + "failures", handOff, HandOffSink::getFailures)
                .description("Exceptions thrown by the wrapped sink").tags(tags).register(registry);
        Gauge.builder(PREFIX + "queued", handOff, HandOffSink::getQueued)
                .description("Events waiting in the queue").tags(tags).register(registry);
    }

    @Override
    public String toString() {
        return "HandOffSinkMetrics{tags=" + tags + "}";
    }
}
