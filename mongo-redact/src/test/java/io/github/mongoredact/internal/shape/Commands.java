package io.github.mongoredact.internal.shape;

import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;

import java.util.Arrays;

/** Test commands encoded as the driver encodes them, and shapes read back for messages. */
final class Commands {
    static final JsonWriterSettings RELAXED = JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();

    private Commands() {
    }

    /** @return the command's bytes, encoded by the driver's codec */
    static byte[] bytes(final BsonDocument command) {
        RawBsonDocument raw = new RawBsonDocument(command, new BsonDocumentCodec());
        return Arrays.copyOfRange(raw.getByteBuffer().array(), 0, raw.getByteBuffer().remaining());
    }

    static byte[] bytes(final String json) {
        return bytes(BsonDocument.parse(json));
    }

    static String json(final byte[] bson) {
        return new RawBsonDocument(bson).toJson(RELAXED);
    }

    static RawBsonDocument document(final byte[] bson) {
        return new RawBsonDocument(bson);
    }

    /** @return the shape of the command {@code json}, or null */
    static QueryShape shape(final QueryShaper shaper, final String json) {
        byte[] command = bytes(json);
        return shaper.shape(command, 0, command.length);
    }

    static QueryShape shapeRedacted(final QueryShaper shaper, final String json) {
        byte[] command = bytes(json);
        return shaper.shapeRedacted(command, 0, command.length);
    }
}
