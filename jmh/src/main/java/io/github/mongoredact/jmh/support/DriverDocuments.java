package io.github.mongoredact.jmh.support;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.ByteBuf;
import org.bson.ByteBufNIO;
import org.bson.RawBsonDocument;

import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * Real instances of the driver's package-private {@code com.mongodb.internal.connection.ByteBufBsonDocument}, made the way the
 * driver makes them in {@code CommandMessage.getCommandDocument}: {@code createOne} over the command section, and for a command
 * with document sequences {@code toBaseBsonDocument()} of that section with each sequence appended after {@code $db} as a
 * {@code BsonArray} of {@code createList} over the sequence's bytes. The buffers are {@link ByteBufNIO}s over heap
 * {@link ByteBuffer}s, as the driver's pool hands out.
 */
public final class DriverDocuments {
    private static final Method CREATE_ONE;
    private static final Method CREATE_LIST;
    private static final Method TO_BASE;

    static {
        try {
            Class<?> type = Class.forName("com.mongodb.internal.connection.ByteBufBsonDocument");
            CREATE_ONE = type.getDeclaredMethod("createOne", ByteBuf.class);
            CREATE_LIST = type.getDeclaredMethod("createList", ByteBuf.class);
            TO_BASE = type.getDeclaredMethod("toBaseBsonDocument");
            CREATE_ONE.setAccessible(true);
            CREATE_LIST.setAccessible(true);
            TO_BASE.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private DriverDocuments() {
    }

    /**
     * @param document the document to encode
     * @return a real {@code ByteBufBsonDocument} over a heap buffer holding the document's bytes
     */
    public static BsonDocument byteBacked(final BsonDocument document) {
        return createOne(heapBuf(bytesOf(document)));
    }

    /**
     * The plain top level the driver makes for a command with document sequences.
     *
     * @param body the command section (ends with {@code $db})
     * @param sequenceId the sequence identifier, such as {@code documents}
     * @param sequence the documents of the sequence
     * @return a plain {@code BsonDocument} decoded from the body's bytes, with the sequence appended as a {@code BsonArray} of
     *         real {@code ByteBufBsonDocument}s over one buffer
     */
    public static BsonDocument plainWithSequence(final BsonDocument body, final String sequenceId,
                                                 final List<BsonDocument> sequence) {
        BsonDocument top = toBase(createOne(heapBuf(bytesOf(body))));
        if (!sequence.isEmpty()) {
            int total = 0;
            byte[][] docs = new byte[sequence.size()][];
            for (int i = 0; i < docs.length; i++) {
                docs[i] = bytesOf(sequence.get(i));
                total += docs[i].length;
            }
            byte[] all = new byte[total];
            int pos = 0;
            for (byte[] doc : docs) {
                System.arraycopy(doc, 0, all, pos, doc.length);
                pos += doc.length;
            }
            top.append(sequenceId, new BsonArray(createList(heapBuf(all))));
        }
        return top;
    }

    /** @return the class name the driver's byte-backed document has, to check an input is what it claims */
    public static String byteBackedClassName() {
        return "com.mongodb.internal.connection.ByteBufBsonDocument";
    }

    /**
     * @param document any document
     * @return its BSON bytes
     */
    public static byte[] bytesOf(final BsonDocument document) {
        RawBsonDocument raw = document instanceof RawBsonDocument ? (RawBsonDocument) document
                : new RawBsonDocument(document, new org.bson.codecs.BsonDocumentCodec());
        ByteBuf buf = raw.getByteBuffer();
        byte[] bytes = new byte[buf.remaining()];
        buf.get(bytes);
        return bytes;
    }

    private static ByteBuf heapBuf(final byte[] bytes) {
        return new ByteBufNIO(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN));
    }

    private static BsonDocument createOne(final ByteBuf buf) {
        try {
            return (BsonDocument) CREATE_ONE.invoke(null, buf);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("ByteBufBsonDocument.createOne failed", e);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<BsonDocument> createList(final ByteBuf buf) {
        try {
            return (List<BsonDocument>) CREATE_LIST.invoke(null, buf);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("ByteBufBsonDocument.createList failed", e);
        }
    }

    private static BsonDocument toBase(final BsonDocument byteBacked) {
        try {
            return (BsonDocument) TO_BASE.invoke(byteBacked);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("ByteBufBsonDocument.toBaseBsonDocument failed", e);
        }
    }
}
