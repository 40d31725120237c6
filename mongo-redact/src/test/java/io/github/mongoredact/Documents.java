package io.github.mongoredact;

import org.bson.BsonBinaryWriter;
import org.bson.BsonBinaryWriterSettings;
import org.bson.BsonWriterSettings;
import org.bson.RawBsonDocument;
import org.bson.io.BasicOutputBuffer;

import java.util.Arrays;

/** Documents built byte by byte, without the driver's recursive codecs: deep ones, and ones with huge names or values. */
public final class Documents {
    private Documents() {
    }

    /** @return {@code {"a": {"a": ... {"leaf": 1} ...}}} with {@code levels} documents in all, the outermost included */
    public static RawBsonDocument deep(final int levels) {
        BasicOutputBuffer buffer = new BasicOutputBuffer();
        // the writer's default limit is the driver's 1024 levels: lift it to build deeper documents
        try (BsonBinaryWriter writer = new BsonBinaryWriter(new BsonWriterSettings(Integer.MAX_VALUE),
                new BsonBinaryWriterSettings(), buffer)) {
            writer.writeStartDocument();
            for (int i = 1; i < levels; i++) {
                writer.writeName(i % 2 == 0 ? "a" : "b");
                writer.writeStartDocument();
            }
            writer.writeInt32("leaf", 1);
            for (int i = 0; i < levels; i++) {
                writer.writeEndDocument();
            }
        }
        return new RawBsonDocument(buffer.toByteArray());
    }

    /** @return {@code {"a": [[...[1]...]]}} with {@code levels} arrays */
    public static RawBsonDocument deepArrays(final int levels) {
        BasicOutputBuffer buffer = new BasicOutputBuffer();
        try (BsonBinaryWriter writer = new BsonBinaryWriter(new BsonWriterSettings(Integer.MAX_VALUE),
                new BsonBinaryWriterSettings(), buffer)) {
            writer.writeStartDocument();
            writer.writeName("a");
            for (int i = 0; i < levels; i++) {
                writer.writeStartArray();
            }
            writer.writeInt32(1);
            for (int i = 0; i < levels; i++) {
                writer.writeEndArray();
            }
            writer.writeEndDocument();
        }
        return new RawBsonDocument(buffer.toByteArray());
    }

    /** @return {@code length} times the character */
    public static String repeat(final char c, final int length) {
        char[] chars = new char[length];
        Arrays.fill(chars, c);
        return new String(chars);
    }
}
