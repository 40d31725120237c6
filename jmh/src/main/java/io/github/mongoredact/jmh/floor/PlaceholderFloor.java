package io.github.mongoredact.jmh.floor;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Floors (b) and (c) of issue 11: the least work that produces {@code defaults()}'s output for a started insert of flat
 * documents with a plain top level: the top level's scalars kept, every value of every sequence document replaced by the
 * string placeholder of its type, keys copied, nested documents and arrays walked the same way (their structure kept). One
 * walk per document with no rule lookup, no path, no cap: what this input needs and nothing else.
 *
 * <ul>
 *     <li>{@link #onePass}: one pass into a reusable scratch array, then one exact {@link Arrays#copyOf};</li>
 *     <li>{@link #twoPass}: a size pass, one exact array, then the write pass.</li>
 * </ul>
 *
 * <p>A prototype for measurement: sequence documents of numbers, strings, object ids, booleans, dates, nulls, timestamps and
 * nested documents and arrays of those; any other type fails. Its output is checked byte for byte against the library's
 * ({@code FloorsTest}, and each benchmark's setup). Not thread-safe: one per benchmark state.</p>
 */
public final class PlaceholderFloor {
    private static final byte[][] PLACEHOLDERS = new byte[256][];
    /** Output bytes per source byte at most: a null with an empty key (2 bytes) becomes a 12-byte {@code "?null"} string. */
    private static final int MAX_GROWTH = 7;

    static {
        put("?number", 0x01, 0x10, 0x12, 0x13);
        put("?string", 0x02);
        put("?objectId", 0x07);
        put("?bool", 0x08);
        put("?date", 0x09);
        put("?null", 0x0A);
        put("?timestamp", 0x11);
    }

    private final BsonOut out = new BsonOut();
    private byte[] scratch = new byte[1024];

    private static void put(final String placeholder, final int... types) {
        for (int type : types) {
            PLACEHOLDERS[type] = placeholder.getBytes(StandardCharsets.US_ASCII);
        }
    }

    /**
     * @param command the started event's command
     * @return the redacted command in an array of exactly its size, written in one pass into the scratch, then copied
     */
    public byte[] onePass(final BsonDocument command) {
        out.reset(scratch, true);
        write(command);
        scratch = out.buf;
        return Arrays.copyOf(scratch, out.pos);
    }

    /**
     * @param command the started event's command
     * @return the redacted command, sized by a first pass and written by a second into an exact array
     */
    public byte[] twoPass(final BsonDocument command) {
        int size = size(command);
        out.reset(new byte[size], false);
        write(command);
        if (out.pos != size) {
            throw new IllegalStateException("size=" + size + " written=" + out.pos);
        }
        return out.buf;
    }

    private void write(final BsonDocument command) {
        out.pos += 4;
        for (Map.Entry<String, BsonValue> entry : command.entrySet()) {
            BsonValue value = entry.getValue();
            if (value instanceof BsonArray) {
                out.ensure(1 + entry.getKey().length() + 1 + 4);
                out.putByte(0x04);
                out.putAscii(entry.getKey());
                writeSequence((BsonArray) value);
            } else {
                out.ensure(TopLevel.elementSize(entry.getKey(), value));
                TopLevel.write(out, entry.getKey(), value);
            }
        }
        out.ensure(1);
        out.putByte(0);
        out.putInt(0, out.pos);
    }

    private void writeSequence(final BsonArray sequence) {
        int arrayStart = out.pos;
        out.pos += 4;
        for (int i = 0; i < sequence.size(); i++) {
            ByteBuf buf = SequenceDocument.buffer(sequence.get(i));
            byte[] src = buf.array();
            int start = buf.arrayOffset() + buf.position();
            int length = SequenceDocument.length(src, start, buf.remaining());
            out.ensure(1 + BsonOut.indexKeySize(i) + MAX_GROWTH * length);
            out.putByte(0x03);
            out.putIndexKey(i);
            out.pos = writeDocument(src, start, length, out.buf, out.pos);
        }
        out.ensure(1);
        out.putByte(0);
        out.putInt(arrayStart, out.pos - arrayStart);
    }

    /** Writes the redacted document at {@code at}; the destination has room. @return the position after it */
    private static int writeDocument(final byte[] src, final int start, final int length, final byte[] dst, final int at) {
        int end = terminator(src, start, length);
        int p = at + 4;
        int i = start + 4;
        while (i < end) {
            byte type = src[i++];
            if (type == 0x03 || type == 0x04) {
                dst[p++] = type;
                byte k;
                while ((k = src[i++]) != 0) {
                    dst[p++] = k;
                }
                dst[p++] = 0;
                int nested = SequenceDocument.length(src, i, end - i);
                p = writeDocument(src, i, nested, dst, p);
                i += nested;
                continue;
            }
            byte[] placeholder = placeholder(type);
            dst[p++] = 0x02;
            byte b;
            while ((b = src[i++]) != 0) {
                dst[p++] = b;
            }
            dst[p++] = 0;
            p = BsonOut.putString(dst, p, placeholder);
            i = Elements.valueEnd(src, i, type, end);
        }
        dst[p++] = 0;
        int size = p - at;
        dst[at] = (byte) size;
        dst[at + 1] = (byte) (size >>> 8);
        dst[at + 2] = (byte) (size >>> 16);
        dst[at + 3] = (byte) (size >>> 24);
        return p;
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
                    byte[] src = buf.array();
                    int start = buf.arrayOffset() + buf.position();
                    size += 1 + BsonOut.indexKeySize(i) + documentSize(src, start, SequenceDocument.length(src, start,
                            buf.remaining()));
                }
            } else {
                size += TopLevel.elementSize(entry.getKey(), value);
            }
        }
        return size;
    }

    /** @return the size of the redacted document */
    private static int documentSize(final byte[] src, final int start, final int length) {
        int end = terminator(src, start, length);
        int size = 4 + 1;
        int i = start + 4;
        while (i < end) {
            byte type = src[i++];
            int key = i;
            while (src[i++] != 0) {
                // the key's bytes are copied as they are
            }
            if (type == 0x03 || type == 0x04) {
                int nested = SequenceDocument.length(src, i, end - i);
                size += 1 + (i - key) + documentSize(src, i, nested);
                i += nested;
                continue;
            }
            size += 1 + (i - key) + 4 + placeholder(type).length + 1;
            i = Elements.valueEnd(src, i, type, end);
        }
        return size;
    }

    private static int terminator(final byte[] src, final int start, final int length) {
        int end = start + length - 1;
        if (src[end] != 0) {
            throw new IllegalArgumentException("document not terminated: length=" + length);
        }
        return end;
    }

    private static byte[] placeholder(final byte type) {
        byte[] placeholder = PLACEHOLDERS[type & 0xff];
        if (placeholder == null) {
            throw new IllegalArgumentException("the placeholder floor does not handle type=" + type);
        }
        return placeholder;
    }
}
