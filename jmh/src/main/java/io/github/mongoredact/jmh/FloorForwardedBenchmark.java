package io.github.mongoredact.jmh;

import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.jmh.floor.Forwarding;
import io.github.mongoredact.jmh.floor.FramingCopyFloor;
import io.github.mongoredact.jmh.floor.PlaceholderFloor;
import io.github.mongoredact.jmh.support.Forwarded;
import io.github.mongoredact.jmh.support.LastEventListener;
import org.bson.BsonDocument;
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
 * The floor with what the driver's event API forces: a bare-array floor ({@code floor=framingCopy}: {@link FramingCopyFloor},
 * {@code specOnly()}'s output; {@code floor=onePass}: {@link PlaceholderFloor#onePass}, {@code defaults()}'s output), its
 * array wrapped in the owned {@code RawBsonDocument} and a new {@code CommandStartedEvent} forwarded to a plain downstream
 * listener, as our listener forwards them. Against the bare-array floor of the same name it is the fixed part per event;
 * against ours, what ours does beyond what any listener handing on an owned copy must do. Its output is checked, in setup, to
 * be byte for byte the library's.
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
    private PlaceholderFloor placeholders;
    private boolean onePass;
    private LastEventListener downstream;

    /**
     * Builds the prototype and checks its output against the library's.
     *
     * @param input the started event
     */
    @Setup
    public void setUp(final FloorInput input) {
        onePass = floor.equals("onePass");
        if (!onePass && !floor.equals("framingCopy")) {
            throw new IllegalArgumentException("floor=" + floor + " (framingCopy or onePass)");
        }
        framing = new FramingCopyFloor();
        placeholders = new PlaceholderFloor();
        downstream = new LastEventListener();
        Forwarded.checkSame("forwarded " + floor + " floor",
                Forwarded.started(Forwarded.policy(onePass ? "defaults" : "specOnly"), input.event),
                Forwarded.bytes(started(input).getCommand()));
    }

    /**
     * @param input the started event
     * @return the forwarded event, which owns its copy
     */
    @Benchmark
    public CommandStartedEvent started(final FloorInput input) {
        BsonDocument command = input.event.getCommand();
        byte[] bytes = onePass ? placeholders.onePass(command) : framing.copy(command);
        downstream.commandStarted(Forwarding.started(input.event, bytes));
        return downstream.started;
    }
}
