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
 * copied) on a {@link SimpleMeterRegistry}: one started + succeeded pair per op, as {@link MicrometerListenerBenchmark}.
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

    /** Builds the registry, the sink and the listener. */
    @Setup
    public void setUp() {
        registry = new SimpleMeterRegistry();
        listener = RedactingCommandListener.builder().addSink(MicrometerCommandSink.builder(registry).build()).build();
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
        noFailures(listener);
        Timer timer = registry.find(MicrometerCommandSink.COMMANDS).timer();
        check(timer != null && timer.count() > 0, "no command timed: " + registry.getMetersAsString());
    }
}
