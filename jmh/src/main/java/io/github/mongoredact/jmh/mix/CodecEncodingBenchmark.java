package io.github.mongoredact.jmh.mix;

import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.jmh.MixInput;
import io.github.mongoredact.jmh.support.CodecEncoder;
import io.github.mongoredact.jmh.support.DriverDocuments;
import io.github.mongoredact.jmh.support.Forwarded;
import org.bson.BsonBinaryReader;
import org.bson.BsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.DecoderContext;
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

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * The peer of {@code defaults()} on the mix: the driver's own encoding of the item's document, held as the application hands
 * documents to the driver (a plain, decoded {@code BsonDocument}, sequences as arrays), through {@link BsonDocumentCodec} into
 * a fresh {@link BasicOutputBuffer}. Its bytes are checked, in setup, to be those {@code specOnly()} forwards.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class CodecEncodingBenchmark {
    private BsonDocument document;
    private CodecEncoder encoder;

    /**
     * Decodes the item's document into plain documents and checks their encoding against the library's verbatim copy.
     *
     * @param input the command
     */
    @Setup
    public void setUp(final MixInput input) {
        encoder = new CodecEncoder();
        document = new BsonDocumentCodec().decode(new BsonBinaryReader(ByteBuffer.wrap(DriverDocuments.bytesOf(
                input.document()))), DecoderContext.builder().build());
        Forwarded.checkSame("the driver's encoding", input.forwarded(RedactionPolicy.specOnly()),
                CodecEncoder.bytes(encoder.encode(document)));
    }

    /**
     * @param input the command (its document, decoded, is encoded)
     * @return the buffer holding the encoded document
     */
    @Benchmark
    public BasicOutputBuffer mix(final MixInput input) {
        return encoder.encode(document);
    }
}
