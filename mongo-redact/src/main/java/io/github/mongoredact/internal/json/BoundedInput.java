package io.github.mongoredact.internal.json;

import org.bson.BsonSerializationException;
import org.bson.RawBsonDocument;
import org.bson.io.ByteBufferBsonInput;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes of an owned document whose strings and names are decoded only up to what the output can still show, plus a
 * margin: a sized string's rest is skipped; a C string (a name, a regular expression) longer than that is returned cut
 * and leaves the input inside it ({@link #cutInside}), which is safe because the cut value fills the output, so the
 * rendering reads nothing more. With no limit ({@code limit} 0) it reads as its superclass.
 */
final class BoundedInput extends ByteBufferBsonInput {
    /** Bytes of UTF-8 per UTF-16 code unit, at most: so many bytes decode to at least as many units as there is room. */
    private static final int MAX_BYTES_PER_UNIT = 3;
    private final TruncatedJson.Output out;
    private final int limit;
    private byte[] buffer = new byte[64];
    boolean cutInside;

    BoundedInput(final RawBsonDocument document, final TruncatedJson.Output out, final int limit) {
        super(document.getByteBuffer());
        this.out = out;
        this.limit = limit;
    }

    /** @return how many bytes to decode at most: the room left in the output, plus a margin, in UTF-8's widest */
    private int wanted() {
        return (Math.max(0, limit - out.length()) + 2) * MAX_BYTES_PER_UNIT;
    }

    @Override
    public String readString() {
        if (limit == 0) {
            return super.readString();
        }
        int size = readInt32();
        if (size <= 0) {
            throw new BsonSerializationException("invalid string size " + size);
        }
        int wanted = wanted();
        if (size - 1 <= wanted) {
            byte[] bytes = buffer(size);
            readBytes(bytes, 0, size);
            if (bytes[size - 1] != 0) {
                throw new BsonSerializationException("string not terminated by a null byte, size " + size);
            }
            return new String(bytes, 0, size - 1, StandardCharsets.UTF_8);
        }
        byte[] bytes = buffer(wanted);
        readBytes(bytes, 0, wanted);
        skip(size - wanted);
        // A character cut at the end decodes as U+FFFD, past what the output can show.
        return new String(bytes, 0, wanted, StandardCharsets.UTF_8);
    }

    @Override
    public String readCString() {
        if (limit == 0) {
            return super.readCString();
        }
        if (cutInside) {
            return ""; // a regular expression's options after its cut pattern: never shown, and not to be read
        }
        int wanted = wanted();
        int length = 0;
        while (true) {
            byte b = readByte();
            if (b == 0) {
                break;
            }
            if (length == wanted) {
                cutInside = true;
                break;
            }
            buffer(length + 1)[length++] = b;
        }
        return new String(buffer, 0, length, StandardCharsets.UTF_8);
    }

    private byte[] buffer(final int size) {
        if (buffer.length < size) {
            buffer = Arrays.copyOf(buffer, Math.max(size, buffer.length * 2));
        }
        return buffer;
    }
}
