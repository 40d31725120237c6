package io.github.mongoredact.jmh.floor;

import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.ByteBuf;
import org.bson.RawBsonDocument;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The heap buffer behind one of the driver's byte-backed documents ({@code ByteBufBsonDocument}: a sequence document, or a
 * whole command without sequences), reached through a {@link VarHandle} on its private field, as the library reaches it: the
 * floors pay what the library pays to get at the bytes and nothing more. Valid only while the event is being handled; nothing
 * is kept.
 */
final class SequenceDocument {
    private static final Class<?> TYPE;
    private static final VarHandle BYTE_BUF;

    static {
        try {
            TYPE = Class.forName("com.mongodb.internal.connection.ByteBufBsonDocument");
            BYTE_BUF = MethodHandles.privateLookupIn(TYPE, MethodHandles.lookup()).findVarHandle(TYPE, "byteBuf", ByteBuf.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private SequenceDocument() {
    }

    /**
     * @param value an element of a document sequence
     * @return its buffer, positioned at the document's first byte, backed by a heap array
     * @throws IllegalArgumentException when the value is not the driver's byte-backed document over a heap array (the floors
     *                                  are written for that input only)
     */
    static ByteBuf buffer(final BsonValue value) {
        if (value.getClass() != TYPE) {
            throw new IllegalArgumentException("not a driver sequence document: " + value.getClass().getName());
        }
        ByteBuf buf = (ByteBuf) BYTE_BUF.get((BsonDocument) value);
        if (!buf.isBackedByArray()) {
            throw new IllegalArgumentException("sequence document not on a heap buffer: " + buf.getClass().getName());
        }
        return buf;
    }

    /**
     * The checked length of the document that starts at {@code start}: within {@code [5, available]}.
     *
     * @return the length
     */
    static int length(final byte[] src, final int start, final int available) {
        int length = BsonOut.readInt(src, start);
        if (length < 5 || length > available) {
            throw new IllegalArgumentException("document length out of bounds: length=" + length + " available=" + available);
        }
        return length;
    }

    /**
     * Where the bytes of a whole byte-backed document lie: a driver's {@code ByteBufBsonDocument} (a command held as one
     * buffer) or a heap {@link RawBsonDocument} (a reply). Reused, so that reaching the bytes allocates nothing. Not
     * thread-safe.
     */
    static final class Whole {
        byte[] array;
        int start;
        int length;

        /**
         * Points at the document's bytes, its length prefix checked against what the buffer holds and its terminating 0.
         *
         * @return this
         * @throws IllegalArgumentException when the document is neither, or its framing is broken
         */
        Whole of(final BsonDocument document) {
            int available;
            if (document instanceof RawBsonDocument) {
                RawBsonDocument raw = (RawBsonDocument) document;
                array = raw.getBackingArray();
                start = raw.getByteOffset();
                available = raw.getByteLength();
            } else {
                ByteBuf buf = buffer(document);
                array = buf.array();
                start = buf.arrayOffset() + buf.position();
                available = buf.remaining();
            }
            length = length(array, start, available);
            if (array[start + length - 1] != 0) {
                throw new IllegalArgumentException("document not terminated: length=" + length);
            }
            return this;
        }
    }
}
