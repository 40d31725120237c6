package io.github.mongoredact.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/** What log sinks do: render the command (or reply) as JSON, unredacted. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class ToJsonBenchmark {

    /**
     * @param input the started event
     * @return the JSON text of the command
     */
    @Benchmark
    public String started(final CommandInput input) {
        return input.event.getCommand().toJson();
    }

    /**
     * @param input the succeeded event
     * @return the JSON text of the reply
     */
    @Benchmark
    public String succeeded(final ReplyInput input) {
        return input.event.getResponse().toJson();
    }
}
