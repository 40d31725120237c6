package io.github.mongoredact;

import com.mongodb.ServerAddress;
import com.mongodb.connection.ClusterId;
import com.mongodb.connection.ConnectionDescription;
import com.mongodb.connection.ServerId;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import org.bson.BsonArray;
import org.bson.BsonBinaryWriter;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.ByteBuf;
import org.bson.ByteBufNIO;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.codecs.EncoderContext;
import org.bson.io.BasicOutputBuffer;

import java.lang.reflect.Constructor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Builds documents and events shaped as the driver hands them to a command listener: the driver's own
 * {@code ByteBufBsonDocument} (made through reflection, over heap or direct buffers that may hold other bytes around the
 * document, as the driver's message buffers do), {@link RawBsonDocument}s, and the plain top level with document sequences
 * appended after {@code $db}.
 */
public final class DriverShapes {
    private static final String BYTE_BUF_DOCUMENT = "com.mongodb.internal.connection.ByteBufBsonDocument";
    private static final Constructor<?> CONSTRUCTOR;
    private static final ConnectionDescription CONNECTION = new ConnectionDescription(
            new ServerId(new ClusterId("test"), new ServerAddress("127.0.0.1", 27017)));

    static {
        try {
            Class<?> type = Class.forName(BYTE_BUF_DOCUMENT);
            // the constructor over a buffer is the same on every supported line (createOne's parameters changed in 5.x)
            CONSTRUCTOR = type.getDeclaredConstructor(ByteBuf.class);
            CONSTRUCTOR.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private DriverShapes() {
    }

    /** The ways the driver's byte-backed documents come. */
    public enum Backing implements Function<byte[], BsonDocument> {
        /** {@link RawBsonDocument} over its own array (replies, and what our listener forwards). */
        RAW {
            @Override
            public BsonDocument apply(final byte[] bytes) {
                return new RawBsonDocument(bytes);
            }
        },
        /** {@link RawBsonDocument} over a slice of a larger array. */
        RAW_SLICE {
            @Override
            public BsonDocument apply(final byte[] bytes) {
                byte[] larger = surround(bytes);
                return new RawBsonDocument(larger, PREFIX, bytes.length);
            }
        },
        /** The driver's {@code ByteBufBsonDocument} over a heap buffer holding only the document. */
        BYTE_BUF_HEAP {
            @Override
            public BsonDocument apply(final byte[] bytes) {
                return byteBufDocument(ByteBuffer.wrap(bytes.clone()), 0);
            }
        },
        /** The driver's {@code ByteBufBsonDocument} over a heap buffer with other message bytes before and after it. */
        BYTE_BUF_HEAP_IN_MESSAGE {
            @Override
            public BsonDocument apply(final byte[] bytes) {
                return byteBufDocument(ByteBuffer.wrap(surround(bytes)), PREFIX);
            }
        },
        /** The driver's {@code ByteBufBsonDocument} over a direct (non-heap) buffer, with other bytes around it. */
        BYTE_BUF_DIRECT {
            @Override
            public BsonDocument apply(final byte[] bytes) {
                byte[] larger = surround(bytes);
                ByteBuffer direct = ByteBuffer.allocateDirect(larger.length);
                direct.put(larger).clear();
                return byteBufDocument(direct, PREFIX);
            }
        };

        static final int PREFIX = 21;
        private static final int SUFFIX = 13;

        private static byte[] surround(final byte[] bytes) {
            byte[] larger = new byte[PREFIX + bytes.length + SUFFIX];
            Arrays.fill(larger, (byte) 0x5A);
            System.arraycopy(bytes, 0, larger, PREFIX, bytes.length);
            return larger;
        }

        /** Whether it is the driver's own buffer-backed type. */
        public boolean isDriverType() {
            return this == BYTE_BUF_HEAP || this == BYTE_BUF_HEAP_IN_MESSAGE || this == BYTE_BUF_DIRECT;
        }
    }

    /** The driver's {@code ByteBufBsonDocument} for the document at {@code position} of {@code buffer}. */
    public static BsonDocument byteBufDocument(final ByteBuffer buffer, final int position) {
        ByteBuf buf = new ByteBufNIO(buffer.order(ByteOrder.LITTLE_ENDIAN));
        buf.position(position);
        // as the driver slices a document out of a message: its buffer ends where the length prefix says
        int length = buf.getInt(position);
        if (length >= 5 && (long) position + length <= buf.capacity()) {
            buf.limit(position + length);
        }
        try {
            BsonDocument document = (BsonDocument) CONSTRUCTOR.newInstance(buf);
            if (!document.getClass().getName().equals(BYTE_BUF_DOCUMENT)) {
                throw new AssertionError("not the driver's type: " + document.getClass());
            }
            return document;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** @return the {@link BsonDocumentCodec} encoding of the document: the reference for every byte-exact check */
    public static byte[] encode(final BsonDocument document) {
        BasicOutputBuffer buffer = new BasicOutputBuffer();
        try (BsonBinaryWriter writer = new BsonBinaryWriter(buffer)) {
            new BsonDocumentCodec().encode(writer, document, EncoderContext.builder().build());
        }
        return buffer.toByteArray();
    }

    /** @return the document decoded into a plain tree (reads every byte-backed part once) */
    public static BsonDocument decode(final byte[] bytes) {
        return deepCopy(new RawBsonDocument(bytes));
    }

    /** A plain document tree with every byte-backed part decoded. */
    public static BsonDocument deepCopy(final BsonDocument document) {
        BsonDocument copy = new BsonDocument();
        for (Map.Entry<String, BsonValue> entry : document.entrySet()) {
            copy.put(entry.getKey(), deepCopy(entry.getValue()));
        }
        return copy;
    }

    private static BsonValue deepCopy(final BsonValue value) {
        if (value.isDocument()) {
            return deepCopy(value.asDocument());
        }
        if (value.isArray()) {
            BsonArray copy = new BsonArray();
            for (BsonValue element : value.asArray()) {
                copy.add(deepCopy(element));
            }
            return copy;
        }
        return value;
    }

    /** The driver's shape of a command: byte-backed as a whole. */
    public static BsonDocument byteBacked(final BsonDocument command, final Backing backing) {
        return backing.apply(encode(command));
    }

    /**
     * The driver's shape of a command with document sequences: the plain top level, then each sequence appended after
     * {@code $db} as an array of byte-backed documents.
     *
     * @param top the command section (plain, ends with {@code $db})
     * @param sequences identifier, documents, identifier, documents...
     */
    public static BsonDocument withSequences(final BsonDocument top, final Backing backing, final Object... sequences) {
        BsonDocument command = deepCopy(top);
        for (int i = 0; i < sequences.length; i += 2) {
            @SuppressWarnings("unchecked")
            List<BsonDocument> documents = (List<BsonDocument>) sequences[i + 1];
            BsonArray array = new BsonArray();
            for (BsonDocument document : documents) {
                array.add(backing.apply(encode(document)));
            }
            command.append((String) sequences[i], array);
        }
        return command;
    }

    /** The same document with each sequence merged as a plain array: what the listener must write. */
    public static BsonDocument merged(final BsonDocument top, final Object... sequences) {
        BsonDocument command = deepCopy(top);
        for (int i = 0; i < sequences.length; i += 2) {
            @SuppressWarnings("unchecked")
            List<BsonDocument> documents = (List<BsonDocument>) sequences[i + 1];
            BsonArray array = new BsonArray();
            for (BsonDocument document : documents) {
                array.add(deepCopy(document));
            }
            command.append((String) sequences[i], array);
        }
        return command;
    }

    /** @return a connection description as the driver's events carry it */
    public static ConnectionDescription connection() {
        return CONNECTION;
    }

    public static CommandStartedEvent started(final int requestId, final String commandName, final BsonDocument command) {
        return new CommandStartedEvent(null, 1L, requestId, CONNECTION, "shop", commandName, command);
    }

    public static CommandSucceededEvent succeeded(final int requestId, final String commandName, final BsonDocument reply) {
        return new CommandSucceededEvent(null, 1L, requestId, CONNECTION, "shop", commandName, reply, 1_000_000L);
    }

    public static CommandFailedEvent failed(final int requestId, final String commandName, final Throwable failure) {
        return new CommandFailedEvent(null, 1L, requestId, CONNECTION, "shop", commandName, 1_000_000L, failure);
    }

    /** @return the bytes a forwarded document holds, checking it owns exactly one exact-size array */
    public static byte[] ownedBytes(final BsonDocument document) {
        if (!(document instanceof RawBsonDocument)) {
            throw new AssertionError("forwarded document is not a RawBsonDocument: " + document.getClass());
        }
        RawBsonDocument raw = (RawBsonDocument) document;
        byte[] backing = RawBytes.array(raw);
        if (RawBytes.offset(raw) != 0 || backing.length != RawBytes.length(raw)) {
            throw new AssertionError("forwarded document does not own an exact-size array: offset=" + RawBytes.offset(raw)
                    + " length=" + RawBytes.length(raw) + " array=" + backing.length);
        }
        return backing;
    }
}
