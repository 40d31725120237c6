package io.github.mongoredact.micrometer;

import com.mongodb.lang.Nullable;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The meters of one key of a {@link MicrometerCommandSink} (server, database, collection, command name, and with the
 * fingerprint tag the query shape): the timers of each status, the two size summaries (opt-in) and the error counters, each
 * registered when first used. Thread-safe; allocation-free once a meter exists.
 */
final class CommandMeters {
    /** The timer's description, Micrometer's. */
    static final String TIMER_DESCRIPTION = "Timer of mongodb commands";

    private final MeterRegistry registry;
    private final Tags tags;
    private volatile DistributionSummary commandSize;
    private volatile DistributionSummary replySize;
    private volatile Timer succeeded;
    private volatile Timer failed;
    private final LongTable<Counter> errors = new LongTable<>();

    CommandMeters(final MeterRegistry registry, final Tags tags) {
        this.registry = registry;
        this.tags = tags;
    }

    DistributionSummary commandSize() {
        DistributionSummary summary = commandSize;
        if (summary == null) {
            // register returns the same meter for the same id, so a race only makes the lookup twice
            summary = DistributionSummary.builder(MicrometerCommandSink.COMMAND_SIZE)
                    .description("Sizes of mongodb commands as sent").baseUnit("bytes").tags(tags).register(registry);
            commandSize = summary;
        }
        return summary;
    }

    DistributionSummary replySize() {
        DistributionSummary summary = replySize;
        if (summary == null) {
            summary = DistributionSummary.builder(MicrometerCommandSink.REPLY_SIZE)
                    .description("Sizes of mongodb replies as received").baseUnit("bytes").tags(tags).register(registry);
            replySize = summary;
        }
        return summary;
    }

    Timer succeeded() {
        Timer timer = succeeded;
        if (timer == null) {
            timer = timer("SUCCESS");
            succeeded = timer;
        }
        return timer;
    }

    Timer failed() {
        Timer timer = failed;
        if (timer == null) {
            timer = timer("FAILED");
            failed = timer;
        }
        return timer;
    }

    private Timer timer(final String status) {
        // register returns the same timer for the same id, so a race only makes the lookup twice
        return Timer.builder(MicrometerCommandSink.COMMANDS).description(TIMER_DESCRIPTION).tags(tags).tag("status", status)
                .register(registry);
    }

    Counter errors(final int code, @Nullable final String codeName) {
        Counter counter = errors.get(code);
        if (counter == null) {
            counter = errors.computeIfAbsent(code, c -> Counter.builder(MicrometerCommandSink.ERRORS)
                    .description("Errors of mongodb commands: failures and replies that report write errors")
                    .tags(tags).tag("error.code", Integer.toString(code))
                    .tag("error.code.name", codeName == null ? "unknown" : codeName).register(registry));
        }
        return counter;
    }
}
