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
 * Ours with {@link RedactionPolicy#specOnly()}: the owned, verbatim copy (sequences merged as arrays) forwarded to a plain
 * downstream listener, which keeps the last event.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class OursSpecOnlyBenchmark {
    private RedactingCommandListener listener;
    private LastEventListener downstream;

    /** Builds the listener. */
    @Setup
    public void setUp() {
        downstream = new LastEventListener();
        listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly()).addListener(downstream).build();
    }

    /**
     * @param input the started event
     * @return the forwarded event, which owns its copy
     */
    @Benchmark
    public CommandStartedEvent started(final CommandInput input) {
        listener.commandStarted(input.event);
        return downstream.started;
    }

    /**
     * @param input the succeeded event
     * @return the forwarded event, which owns its copy of the reply
     */
    @Benchmark
    public CommandSucceededEvent succeeded(final ReplyInput input) {
        listener.commandSucceeded(input.event);
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

    /** The copy must be the command itself: a verbatim policy that changed it would measure something else. */
    @TearDown
    public void tearDown() {
        noFailures(listener);
        if (downstream.started != null) {
            check(downstream.started.getCommand().size() > 0, "empty copy forwarded");
        }
    }
}
