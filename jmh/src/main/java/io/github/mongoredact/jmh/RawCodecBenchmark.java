package io.github.mongoredact.jmh;

import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
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

/** Encoding the command into an owned {@link RawBsonDocument} through the codec, as users write it. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class RawCodecBenchmark {

    /**
     * @param input the started event
     * @return the owned copy
     */
    @Benchmark
    public RawBsonDocument started(final CommandInput input) {
        return new RawBsonDocument(input.event.getCommand(), new BsonDocumentCodec());
    }
}
