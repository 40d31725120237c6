package io.github.mongoredact.internal.bson;

import io.github.mongoredact.DriverShapes;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Document sequences laid out as the driver decodes them: byte-backed documents over one heap buffer of a whole message. */
final class SequenceInOneBuffer {
    private SequenceInOneBuffer() {
    }

    /** @return the i-th document of such a sequence: an id and an e-mail */
    static BsonDocument document(final int i) {
        return new BsonDocument("_id", new BsonInt32(i)).append("email", new BsonString("c" + i + "@example.com"));
    }

    /**
     * The documents back to back in one heap buffer, {@code gap} bytes apart (0: as the driver decodes them), with other
     * message bytes before and after them.
     */
    static BsonArray of(final int count, final int gap) {
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        message.write(new byte[]{1, 0x33, 0, 0, 0, 'd', 0}, 0, 7);
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            positions.add(message.size());
            byte[] bytes = DriverShapes.encode(document(i));
            message.write(bytes, 0, bytes.length);
            message.write(new byte[gap], 0, gap);
        }
        message.write(new byte[]{0x5A, 0x5A, 0x5A}, 0, 3);
        ByteBuffer buffer = ByteBuffer.wrap(message.toByteArray());
        BsonArray sequence = new BsonArray();
        for (int position : positions) {
            sequence.add(DriverShapes.byteBufDocument(buffer.duplicate(), position));
        }
        return sequence;
    }
}
