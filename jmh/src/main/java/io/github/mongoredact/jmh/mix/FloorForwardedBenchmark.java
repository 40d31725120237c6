package io.github.mongoredact.jmh.mix;

import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.jmh.MixInput;
import io.github.mongoredact.jmh.floor.Forwarding;
import io.github.mongoredact.jmh.floor.FramingCopyFloor;
import io.github.mongoredact.jmh.floor.PlanFloor;
import io.github.mongoredact.jmh.support.Forwarded;
import io.github.mongoredact.jmh.support.LastEventListener;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The floor with what the driver's event API forces, on the mix: a bare-array floor ({@code floor=framingCopy}:
 * {@link FramingCopyFloor}, {@code specOnly()}'s output; {@code floor=onePass}: {@link PlanFloor}, {@code defaults()}'s
 * output), its array wrapped in the owned {@code RawBsonDocument} and a new event forwarded to a plain downstream listener,
 * as our listener forwards them. Its output is checked, in setup, to be byte for byte the library's.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class FloorForwardedBenchmark {
    /** Which bare-array floor makes the bytes: {@code framingCopy} or {@code onePass}. */
    @Param({"framingCopy", "onePass"})
    public String floor;

    private FramingCopyFloor framing;
    private PlanFloor plan;
    private LastEventListener downstream;

    /**
     * Builds the prototype and checks its forwarded output against the library's.
     *
     * @param input the command
     */
    @Setup
    public void setUp(final MixInput input) {
        RedactionPolicy policy = Forwarded.policy(floor.equals("onePass") ? "defaults" : "specOnly");
        if (!floor.equals("onePass") && !floor.equals("framingCopy")) {
            throw new IllegalArgumentException("floor=" + floor + " (framingCopy or onePass)");
        }
        byte[] expected = input.forwarded(policy);
        framing = floor.equals("framingCopy") ? new FramingCopyFloor() : null;
        plan = framing == null ? PlanFloor.of(input.document(), expected) : null;
        downstream = new LastEventListener();
        mix(input);
        Forwarded.checkSame("forwarded " + floor + " floor", expected, Forwarded.bytes(input.reply
                ? downstream.succeeded.getResponse() : downstream.started.getCommand()));
    }

    /**
     * @param input the command
     * @return the forwarded event, which owns its copy
     */
    @Benchmark
    public Object mix(final MixInput input) {
        byte[] bytes = framing != null ? framing.copy(input.document()) : plan.redact(input.document());
        if (input.reply) {
            downstream.commandSucceeded(Forwarding.succeeded(input.succeeded, bytes));
            return downstream.succeeded;
        }
        downstream.commandStarted(Forwarding.started(input.started, bytes));
        return downstream.started;
    }
}
