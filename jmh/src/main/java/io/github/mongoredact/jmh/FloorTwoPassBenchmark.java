package io.github.mongoredact.jmh;

import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.jmh.floor.PlaceholderFloor;
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
 * Floor (c): the same placeholder walk as {@link FloorOnePassBenchmark}, as a size pass, one exact array and a write
 * pass (the library's structure before issue 11). Its output is checked, in setup, to be byte for byte the library's.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class FloorTwoPassBenchmark {
    private PlaceholderFloor floor;

    /**
     * Builds the prototype and checks its output against the library's.
     *
     * @param input the started event
     */
    @Setup
    public void setUp(final FloorInput input) {
        floor = new PlaceholderFloor();
        Forwarded.checkSame("two-pass placeholder floor", Forwarded.started(RedactionPolicy.defaults(), input.event),
                floor.twoPass(input.event.getCommand()));
    }

    /**
     * @param input the started event
     * @return the redacted command, in an exact array
     */
    @Benchmark
    public byte[] started(final FloorInput input) {
        return floor.twoPass(input.event.getCommand());
    }
}
