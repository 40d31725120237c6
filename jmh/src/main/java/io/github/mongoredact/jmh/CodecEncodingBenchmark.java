package io.github.mongoredact.jmh;

import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.jmh.support.CodecEncoder;
import io.github.mongoredact.jmh.support.Forwarded;
import io.github.mongoredact.jmh.support.Inputs;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.io.BasicOutputBuffer;
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

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Floor (d), the peer: the driver's own encoding of the same documents, as it writes an insert of {@link BsonDocument}s: the
 * command's top level and the user's documents (plain, decoded {@code BsonDocument}s, as the application passes them) through
 * {@link BsonDocumentCodec} into a fresh {@link BasicOutputBuffer}. The bytes are checked, in setup, to be those
 * {@code specOnly()} forwards for the event.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class CodecEncodingBenchmark {
    private BsonDocument command;
    private CodecEncoder encoder;

    /**
     * Builds the plain command of the event's documents and checks its encoding against the library's verbatim copy.
     *
     * @param input the started event
     */
    @Setup
    public void setUp(final FloorInput input) {
        encoder = new CodecEncoder();
        command = new BsonDocument();
        for (Map.Entry<String, BsonValue> entry : input.event.getCommand().entrySet()) {
            command.append(entry.getKey(), entry.getValue() instanceof BsonArray
                    ? new BsonArray(Inputs.documents(input.size(), input.count)) : entry.getValue());
        }
        Forwarded.checkSame("the driver's encoding", Forwarded.started(RedactionPolicy.specOnly(), input.event),
                CodecEncoder.bytes(encoder.encode(command)));
    }

    /**
     * @param input the started event (its documents, decoded, are encoded)
     * @return the buffer holding the encoded command
     */
    @Benchmark
    public BasicOutputBuffer started(final FloorInput input) {
        return encoder.encode(command);
    }
}
