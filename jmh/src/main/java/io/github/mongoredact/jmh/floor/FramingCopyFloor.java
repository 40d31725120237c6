package io.github.mongoredact.jmh.floor;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.ByteBuf;

import java.util.Map;

/**
 * Floor (a) of issue 11: the least work that produces {@code specOnly()}'s output for a started insert with a plain top level:
 * the top level's fields written, each sequence document copied verbatim into one exact array, with a check of its framing
 * only (length prefix within the buffer, terminating 0). Sizes come from the length prefixes, so the exact array is allocated
 * once, before any byte is copied. A document held as one buffer (the driver's byte-backed command without sequences, a heap
 * {@code RawBsonDocument} reply) is one exact copy of its bytes with the same framing check.
 *
 * <p>A prototype for measurement, not a general encoder: a plain top level of the types {@link TopLevel} writes (ASCII
 * strings), arrays of the driver's byte-backed documents. Not thread-safe: one per benchmark state.</p>
 */
public final class FramingCopyFloor {
    private final BsonOut out = new BsonOut();
    private final SequenceDocument.Whole whole = new SequenceDocument.Whole();

    /**
     * @param command the started event's command, or a succeeded event's reply
     * @return its BSON, sequences as arrays, in an array of exactly its size
     */
    public byte[] copy(final BsonDocument command) {
        if (command.getClass() != BsonDocument.class) {
            SequenceDocument.Whole bytes = whole.of(command);
            byte[] copy = new byte[bytes.length];
            System.arraycopy(bytes.array, bytes.start, copy, 0, bytes.length);
            return copy;
        }
        int size = size(command);
        out.reset(new byte[size], false);
        out.putInt(size);
        for (Map.Entry<String, BsonValue> entry : command.entrySet()) {
            BsonValue value = entry.getValue();
            if (value instanceof BsonArray) {
                copySequence(entry.getKey(), (BsonArray) value);
            } else {
                TopLevel.write(out, entry.getKey(), value);
            }
        }
        out.putByte(0);
        if (out.pos != size) {
            throw new IllegalStateException("size=" + size + " written=" + out.pos);
        }
        return out.buf;
    }

    private static int size(final BsonDocument command) {
        int size = 4 + 1;
        for (Map.Entry<String, BsonValue> entry : command.entrySet()) {
            BsonValue value = entry.getValue();
            if (value instanceof BsonArray) {
                size += 1 + entry.getKey().length() + 1 + 4 + 1;
                BsonArray sequence = (BsonArray) value;
                for (int i = 0; i < sequence.size(); i++) {
                    ByteBuf buf = SequenceDocument.buffer(sequence.get(i));
                    int start = buf.arrayOffset() + buf.position();
                    size += 1 + BsonOut.indexKeySize(i) + SequenceDocument.length(buf.array(), start, buf.remaining());
                }
            } else {
                size += TopLevel.elementSize(entry.getKey(), value);
            }
        }
        return size;
    }

    private void copySequence(final String key, final BsonArray sequence) {
        out.putByte(0x04);
        out.putAscii(key);
        int arrayStart = out.pos;
        out.pos += 4;
        for (int i = 0; i < sequence.size(); i++) {
            ByteBuf buf = SequenceDocument.buffer(sequence.get(i));
            byte[] src = buf.array();
            int start = buf.arrayOffset() + buf.position();
            int length = SequenceDocument.length(src, start, buf.remaining());
            if (src[start + length - 1] != 0) {
                throw new IllegalArgumentException("document not terminated: index=" + i + " length=" + length);
            }
            out.putByte(0x03);
            out.putIndexKey(i);
            System.arraycopy(src, start, out.buf, out.pos, length);
            out.pos += length;
        }
        out.putByte(0);
        out.putInt(arrayStart, out.pos - arrayStart);
    }
}
