package io.github.mongoredact.jmh.support;

import org.bson.BsonBinaryWriter;
import org.bson.BsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;

import java.util.Arrays;

/** The driver's own encoding of a document: {@link BsonDocumentCodec} into a fresh {@link BasicOutputBuffer}. */
public final class CodecEncoder {
    private final BsonDocumentCodec codec = new BsonDocumentCodec();
    private final EncoderContext context = EncoderContext.builder().build();

    /**
     * @param document the document
     * @return a new buffer holding its BSON
     */
    public BasicOutputBuffer encode(final BsonDocument document) {
        BasicOutputBuffer buffer = new BasicOutputBuffer();
        try (BsonBinaryWriter writer = new BsonBinaryWriter(buffer)) {
            codec.encode(writer, document, context);
        }
        return buffer;
    }

    /**
     * @param buffer a buffer {@link #encode} returned
     * @return the bytes written into it
     */
    public static byte[] bytes(final BasicOutputBuffer buffer) {
        return Arrays.copyOf(buffer.getInternalBuffer(), buffer.getPosition());
    }
}
