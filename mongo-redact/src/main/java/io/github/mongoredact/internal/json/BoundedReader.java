package io.github.mongoredact.internal.json;

import org.bson.BsonBinary;
import org.bson.BsonBinaryReader;
import org.bson.BsonBinarySubType;
import org.bson.BsonSerializationException;
import org.bson.io.ByteBufferBsonInput;

/**
 * A reader over the bytes of an owned document whose binary values are read only as far as could still be shown (its
 * {@link BoundedInput} does the same for strings and names). What it returns is a prefix of the real value at least as
 * long as the JSON output has room for, so the cut output is the same as with the whole value.
 */
final class BoundedReader extends BsonBinaryReader {
    private final TruncatedJson.Output out;
    private final int limit;

    BoundedReader(final BoundedInput input, final TruncatedJson.Output out, final int limit) {
        super(input);
        this.out = out;
        this.limit = limit;
    }

    @Override
    protected BsonBinary doReadBinaryData() {
        ByteBufferBsonInput input = (ByteBufferBsonInput) getBsonInput();
        int size = input.readInt32();
        byte type = input.readByte();
        if (type == BsonBinarySubType.OLD_BINARY.getValue()) {
            int repeated = input.readInt32();
            if (repeated != size - 4) {
                throw new BsonSerializationException("old binary size " + repeated + " does not match " + size);
            }
            size -= 4;
        }
        if (size < 0) {
            throw new BsonSerializationException("invalid binary size " + size);
        }
        if (limit == 0) {
            byte[] bytes = new byte[size];
            input.readBytes(bytes);
            return new BsonBinary(type, bytes);
        }
        // base64 shows 4 characters per 3 bytes: a multiple of 3 bytes keeps the shown prefix exact.
        long room = Math.max(0, limit - out.length()) + 2;
        long wanted = 3L * ((room + 3) / 4 + 1);
        int read = size <= wanted || size <= 64 ? size : (int) wanted;
        byte[] bytes = new byte[read];
        input.readBytes(bytes);
        input.skip(size - read);
        return new BsonBinary(type, bytes);
    }
}
