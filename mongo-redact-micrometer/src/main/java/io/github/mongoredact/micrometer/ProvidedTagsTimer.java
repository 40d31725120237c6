package io.github.mongoredact.micrometer;

import com.mongodb.event.CommandEvent;
import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.StartedCommand;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.mongodb.MongoCommandTagsProvider;

import java.util.concurrent.TimeUnit;

/**
 * The command timer of a {@link MicrometerCommandSink} built with a {@link MongoCommandTagsProvider}: timed as Micrometer's own
 * {@code MongoMetricsCommandListener} times it (the provider's {@code commandStarted} at each start, then the timer
 * {@value MicrometerCommandSink#COMMANDS} with the tags of its {@code commandTags} and the driver's elapsed time), so that an
 * application's provider tags this library's timer as it tags Micrometer's.
 *
 * <p>The provider never sees the driver's events: it gets new events made from the listener's owned, redacted facts
 * ({@link StartedCommand#toEvent()}, {@link CompletedCommand#toSucceededEvent()}, {@link CompletedCommand#toFailedEvent()}),
 * whose command, reply and failure are the policy's copies, and which it may keep and read from any thread.</p>
 *
 * <p>Cost: an event per completion, and per start when the provider overrides {@code commandStarted} (the interface's
 * default does nothing: a lambda, say, is handed no starts), the meter's lookup by its tags at each completion, and what
 * the provider allocates; the sink asks the listener for the copies of command and reply while it has a provider.
 * Threading: called on the driver's threads, concurrently; the provider must be thread-safe, as Micrometer requires.</p>
 */
final class ProvidedTagsTimer {
    private final MeterRegistry registry;
    private final Tags commonTags;
    private final MongoCommandTagsProvider provider;
    /** Whether the provider overrides {@code commandStarted}: the interface's default does nothing, so no event is made for it. */
    private final boolean readsStarts;

    ProvidedTagsTimer(final MeterRegistry registry, final Tags commonTags, final MongoCommandTagsProvider provider) {
        this.registry = registry;
        this.commonTags = commonTags;
        this.provider = provider;
        this.readsStarts = overridesCommandStarted(provider);
    }

    /** @return whether the provider's class declares its own {@code commandStarted} (when it can not be told: true) */
    static boolean overridesCommandStarted(final MongoCommandTagsProvider provider) {
        try {
            return provider.getClass().getMethod("commandStarted", CommandStartedEvent.class).getDeclaringClass()
                    != MongoCommandTagsProvider.class;
        } catch (NoSuchMethodException | RuntimeException e) {
            return true;
        }
    }

    /** @return whether the provider is handed the starts ({@link #overridesCommandStarted}) */
    boolean readsStarts() {
        return readsStarts;
    }

    MongoCommandTagsProvider provider() {
        return provider;
    }

    /** The provider's {@code commandStarted}, with an owned event of the redacted command, when it overrides it. */
    void started(final StartedCommand command) {
        if (readsStarts) {
            provider.commandStarted(command.toEvent());
        }
    }

    /** Times the command under the provider's tags (and the sink's common tags), with an owned succeeded or failed event. */
    void record(final CompletedCommand command) {
        CommandEvent event = command.isSucceeded() ? command.toSucceededEvent() : command.toFailedEvent();
        Timer.builder(MicrometerCommandSink.COMMANDS).description(CommandMeters.TIMER_DESCRIPTION).tags(commonTags)
                .tags(provider.commandTags(event)).register(registry).record(command.getElapsedNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public String toString() {
        return provider.toString();
    }
}
