package io.github.mongoredact.jmh;

import org.bson.BsonDocument;
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

/** What the driver's javadoc advises for keeping a document past the callback: {@code getCommand().clone()}. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class CloneBenchmark {

    /**
     * @param input the started event
     * @return the clone
     */
    @Benchmark
    public BsonDocument started(final CommandInput input) {
        return input.event.getCommand().clone();
    }

    /**
     * @param input the succeeded event
     * @return the clone of the reply
     */
    @Benchmark
    public BsonDocument succeeded(final ReplyInput input) {
        return input.event.getResponse().clone();
    }

    /**
     * The item event of a command of the typical mix: for a document held as one buffer (the driver's byte-backed command,
     * the getMore reply) a plain byte copy; for a plain top level a copy of each sequence document.
     *
     * @param input the command
     * @return the clone of its command, or for {@code getMore} of its reply
     */
    @Benchmark
    public BsonDocument mix(final MixInput input) {
        return input.document().clone();
    }
}
