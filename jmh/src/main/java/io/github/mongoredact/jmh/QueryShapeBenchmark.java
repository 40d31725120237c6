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
 * The query shape beside the copy ({@link ShapeCopyBenchmark}): the redacting listener with one sink that asks for the
 * server's query shape and no document (the listener then copies the command, shapes it and its copy and compares them), on
 * the find of {@link ShapeInput}, reading the debug shape and its hash as the span sink does: what
 * {@code OpenTelemetryCommandSink}'s {@code queryShape} (on by default) adds to a shaped command.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class QueryShapeBenchmark {
    private RedactingCommandListener listener;
    private final long[] shapes = new long[1];

    /** Builds the listener and its sink. */
    @Setup
    public void setUp() {
        listener = RedactingCommandListener.builder().addSink(new CommandSink() {
            @Override
            public boolean needsDocuments() {
                return false;
            }

            @Override
            public boolean needsFingerprint() {
                return false;
            }

            @Override
            public boolean needsQueryShape() {
                return true;
            }

            @Override
            public void started(final StartedCommand command) {
                String shape = command.getQueryShape();
                String hash = command.getQueryShapeHash();
                shapes[0] += shape != null && hash != null ? 1 : 0;
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

    /** Each command must have had its shape. */
    @TearDown
    public void tearDown() {
        noFailures(listener);
        check(shapes[0] > 0, "no shape given");
    }
}
