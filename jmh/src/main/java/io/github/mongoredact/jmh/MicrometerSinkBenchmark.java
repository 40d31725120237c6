package io.github.mongoredact.jmh;

import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

import static io.github.mongoredact.jmh.support.Checks.check;
import static io.github.mongoredact.jmh.support.Checks.noFailures;

/**
 * Ours on the metrics path: the redacting listener with our {@link MicrometerCommandSink} alone downstream (so no document is
 * copied) on a {@link SimpleMeterRegistry}: one started + succeeded pair per op, as {@link MicrometerListenerBenchmark}. The
 * sink as built by default (the timer and, on errors, the error counter, as Micrometer's listener), and in
 * {@link #metricsPairWithSizes} with its opt-in size summaries, which take each command's size.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class MicrometerSinkBenchmark {
    private SimpleMeterRegistry registry;
    private RedactingCommandListener listener;
    private SimpleMeterRegistry sizesRegistry;
    private RedactingCommandListener sizesListener;

    /** Builds the registry, the sink and the listener. */
    @Setup
    public void setUp() {
        registry = new SimpleMeterRegistry();
        listener = RedactingCommandListener.builder().addSink(MicrometerCommandSink.builder(registry).build()).build();
        sizesRegistry = new SimpleMeterRegistry();
        sizesListener = RedactingCommandListener.builder()
                .addSink(MicrometerCommandSink.builder(sizesRegistry).sizeSummaries(true).build()).build();
    }

    /**
     * @param input the two events
     * @return the registry
     */
    @Benchmark
    public SimpleMeterRegistry metricsPair(final MetricsInput input) {
        listener.commandStarted(input.started);
        listener.commandSucceeded(input.succeeded);
        return registry;
    }

    /**
     * The same pair with the sink's size summaries on ({@code sizeSummaries(true)}).
     *
     * @param input the two events
     * @return the registry
     */
    @Benchmark
    public SimpleMeterRegistry metricsPairWithSizes(final MetricsInput input) {
        sizesListener.commandStarted(input.started);
        sizesListener.commandSucceeded(input.succeeded);
        return sizesRegistry;
    }

    /**
     * The started + succeeded pair of a command of the typical mix.
     *
     * @param input the command's two events
     * @return the registry
     */
    @Benchmark
    public SimpleMeterRegistry mixPair(final MixInput input) {
        listener.commandStarted(input.started);
        listener.commandSucceeded(input.succeeded);
        return registry;
    }

    /** The timer must have counted the operations. */
    @TearDown
    public void tearDown() {
        // each fork runs one benchmark method: the listener it used has forwarded events
        noFailures(listener.getCounters().getEventsForwarded() > 0 ? listener : sizesListener);
        Timer timer = registry.find(MicrometerCommandSink.COMMANDS).timer();
        Timer sizesTimer = sizesRegistry.find(MicrometerCommandSink.COMMANDS).timer();
        check(timer != null && timer.count() > 0 || sizesTimer != null && sizesTimer.count() > 0,
                "no command timed: " + registry.getMetersAsString() + sizesRegistry.getMetersAsString());
        check(registry.find(MicrometerCommandSink.COMMAND_SIZE).meters().isEmpty(), "size summaries recorded by default");
        check(sizesTimer == null || sizesRegistry.find(MicrometerCommandSink.COMMAND_SIZE).summary() != null,
                "no size summary with sizeSummaries(true)");
    }
}
