package io.github.mongoredact;

import org.bson.BsonDocument;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The bytes a verbatim copy of a command with one document sequence must hold, assembled by hand from the documents' own bytes
 * (which may be corrupt inside, where the driver's codec could not encode them): the top level, then the sequence appended as
 * an array whose elements are the documents byte for byte.
 */
public final class SequenceBytes {
    private SequenceBytes() {
    }

    /**
     * @param top the command section, plain and valid
     * @param key the sequence's identifier
     * @param documents each document's bytes, as the driver holds them
     * @return the command as BSON with the sequence as its last element
     */
    public static byte[] merged(final BsonDocument top, final String key, final List<byte[]> documents) {
        ByteArrayOutputStream array = new ByteArrayOutputStream();
        for (int i = 0; i < documents.size(); i++) {
            array.write(0x03);
            array.writeBytes(Integer.toString(i).getBytes(StandardCharsets.US_ASCII));
            array.write(0);
            array.writeBytes(documents.get(i));
        }
        array.write(0);
        byte[] head = DriverShapes.encode(top);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(head, 0, head.length - 1);
        out.write(0x04);
        out.writeBytes(key.getBytes(StandardCharsets.UTF_8));
        out.write(0);
        out.writeBytes(le(4 + array.size()));
        out.writeBytes(array.toByteArray());
        out.write(0);
        byte[] bytes = out.toByteArray();
        System.arraycopy(le(bytes.length), 0, bytes, 0, 4);
        return bytes;
    }

    private static byte[] le(final int value) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
    }
}
