package io.github.mongoredact.jmh.mix;

import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.jmh.MixInput;
import io.github.mongoredact.jmh.floor.PlanFloor;
import io.github.mongoredact.jmh.support.Forwarded;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Floor (b) on the mix: {@code defaults()}'s output written in one pass into a reusable scratch array, then one exact copy,
 * with the policy's decision for every element planned once in setup from the library's own output ({@link PlanFloor}): the
 * walk and the writes, and nothing that decides. Its output is checked, in setup, to be byte for byte the library's.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class FloorOnePassBenchmark {
    private PlanFloor floor;

    /**
     * Plans the prototype on the library's output and checks its own output against it.
     *
     * @param input the command
     */
    @Setup
    public void setUp(final MixInput input) {
        byte[] expected = input.forwarded(RedactionPolicy.defaults());
        floor = PlanFloor.of(input.document(), expected);
        Forwarded.checkSame("one-pass plan floor", expected, floor.redact(input.document()));
    }

    /**
     * @param input the command
     * @return the redacted document, in an exact array
     */
    @Benchmark
    public byte[] mix(final MixInput input) {
        return floor.redact(input.document());
    }
}
