package io.github.mongoredact.jmh.mix;

import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.jmh.MixInput;
import io.github.mongoredact.jmh.floor.FramingCopyFloor;
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
 * Floor (a) on the mix: the verbatim copy {@code specOnly()} forwards, with the least work: for a document held as one buffer
 * one exact copy of its bytes with its framing checked (length prefix within the buffer, terminating 0); for a plain top level
 * its fields written and each sequence document copied with the same check. Its output is checked, in setup, to be byte for
 * byte the library's.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class FloorFramingCopyBenchmark {
    private FramingCopyFloor floor;

    /**
     * Builds the prototype and checks its output against the library's.
     *
     * @param input the command
     */
    @Setup
    public void setUp(final MixInput input) {
        floor = new FramingCopyFloor();
        Forwarded.checkSame("framing copy floor", input.forwarded(RedactionPolicy.specOnly()), floor.copy(input.document()));
    }

    /**
     * @param input the command
     * @return the copy
     */
    @Benchmark
    public byte[] mix(final MixInput input) {
        return floor.copy(input.document());
    }
}
