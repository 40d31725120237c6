package io.github.mongoredact.jmh;

import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.jmh.support.LastEventListener;
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
 * Ours with {@link RedactionPolicy#defaults()}: shape kept, values replaced by typed placeholders, forwarded to a plain
 * downstream listener. {@link #startedSucceeded} is the pair that {@link OpenTelemetryBenchmark} is compared with.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class OursDefaultsBenchmark {
    private RedactingCommandListener listener;
    private LastEventListener downstream;

    /** Builds the listener. */
    @Setup
    public void setUp() {
        downstream = new LastEventListener();
        listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults()).addListener(downstream).build();
    }

    /**
     * @param input the started event
     * @return the forwarded event, which owns its redacted copy
     */
    @Benchmark
    public CommandStartedEvent started(final CommandInput input) {
        listener.commandStarted(input.event);
        return downstream.started;
    }

    /**
     * @param input the succeeded event
     * @return the forwarded event, which owns its redacted reply
     */
    @Benchmark
    public CommandSucceededEvent succeeded(final ReplyInput input) {
        listener.commandSucceeded(input.event);
        return downstream.succeeded;
    }

    /**
     * One operation as a tracer sees it: started, then succeeded.
     *
     * @param input the two events
     * @return the forwarded succeeded event
     */
    @Benchmark
    public CommandSucceededEvent startedSucceeded(final PairInput input) {
        listener.commandStarted(input.started);
        listener.commandSucceeded(input.succeeded);
        return downstream.succeeded;
    }

    /**
     * The item event of a command of the typical mix: its started event, or for {@code getMore} its reply.
     *
     * @param input the command
     * @return the forwarded event, which owns its copy
     */
    @Benchmark
    public Object mix(final MixInput input) {
        input.send(listener);
        return input.last(downstream);
    }

    /** The values must have been redacted. */
    @TearDown
    public void tearDown() {
        noFailures(listener);
        if (downstream.started != null && downstream.started.getCommand().containsKey("documents")) {
            check(listener.getCounters().getValuesRedacted() > 0, "defaults redacted no value");
        }
    }
}
