package io.github.mongoredact.jmh;

import io.github.mongoredact.jmh.support.Forwarded;
import org.openjdk.jmh.annotations.Param;
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

import java.util.Arrays;

/**
 * Floor (e): {@link Arrays#copyOf} of an array of the output's size, the cost of the one exact allocation every subject makes.
 * The source is what the library forwards for the same event under {@code output} ({@code specOnly} or {@code defaults}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class CopyOfBenchmark {
    /** Whose output size: {@code specOnly} or {@code defaults}. */
    @Param({"specOnly", "defaults"})
    public String output;

    private byte[] source;

    /**
     * Takes the library's output for the event as the source.
     *
     * @param input the started event
     */
    @Setup
    public void setUp(final FloorInput input) {
        source = Forwarded.started(Forwarded.policy(output), input.event);
    }

    /**
     * @param input the started event (not read: its output size is the source's)
     * @return the copy
     */
    @Benchmark
    public byte[] started(final FloorInput input) {
        return Arrays.copyOf(source, source.length);
    }
}
