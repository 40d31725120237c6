package io.github.mongoredact.jmh;

import io.github.mongoredact.CommandSink;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.StartedCommand;
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
 * The copy alone, beside {@link QueryShapeBenchmark}: the redacting listener with one sink that asks for the command's copy
 * (and no reply, fingerprint nor shape), on the find of {@link ShapeInput}: what a span sink with the query text on pays.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class ShapeCopyBenchmark {
    private RedactingCommandListener listener;
    private final long[] copies = new long[1];

    /** Builds the listener and its sink. */
    @Setup
    public void setUp() {
        listener = RedactingCommandListener.builder().addSink(new CommandSink() {
            @Override
            public boolean needsReplyDocuments() {
                return false;
            }

            @Override
            public boolean needsFingerprint() {
                return false;
            }

            @Override
            public void started(final StartedCommand command) {
                copies[0] += command.getCommand() != null ? 1 : 0;
            }
        }).build();
    }

    /**
     * @param input the two events
     * @return the listener
     */
    @Benchmark
    public RedactingCommandListener findPair(final ShapeInput input) {
        listener.commandStarted(input.started);
        listener.commandSucceeded(input.succeeded);
        return listener;
    }

    /** Each command must have been copied. */
    @TearDown
    public void tearDown() {
        noFailures(listener);
        check(copies[0] > 0, "no copy made");
    }
}
