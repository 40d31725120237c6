package io.github.mongoredact.otel;

import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.bson.DocumentBytes;
import org.bson.BsonBinary;
import org.bson.BsonBinaryReader;
import org.bson.BsonBinarySubType;
import org.bson.BsonDocument;
import org.bson.BsonReader;
import org.bson.BsonType;
import org.bson.RawBsonDocument;
import org.bson.io.ByteBufferBsonInput;

import java.nio.charset.StandardCharsets;

/**
 * The span attributes read from the redacted copy of the started command: the session id ({@code lsid}), the transaction
 * number and {@code getMore}'s cursor id. Only values the copy still holds with their own type are taken: a value the policy
 * replaced by a placeholder yields no attribute, so the span tells nothing the copy hides. The top level is read once, hopping
 * over the values it does not need (a document sequence costs one jump). Stateless. (A reply's cursor id comes from
 * {@code CompletedCommand.getCursorId()}, which the listener reads without a copy.)
 */
final class DocumentFacts {
    private static final byte[] LSID = "lsid".getBytes(StandardCharsets.UTF_8);
    private static final byte[] TXN_NUMBER = "txnNumber".getBytes(StandardCharsets.UTF_8);
    private static final byte[] ID = "id".getBytes(StandardCharsets.UTF_8);

    private DocumentFacts() {
    }

    /** Reads {@code db.mongodb.lsid}, {@code db.mongodb.txn_number} and getMore's {@code db.mongodb.cursor_id} into the facts. */
    static void ofCommand(final BsonDocument command, final String commandName, final SpanFacts span) {
        if (command instanceof RawBsonDocument && ofRawCommand((RawBsonDocument) command, commandName, span)) {
            return;
        }
        BsonReader reader = reader(command);
        try {
            reader.readStartDocument();
            boolean first = true;
            while (reader.readBsonType() != BsonType.END_OF_DOCUMENT) {
                String name = reader.readName();
                BsonType type = reader.getCurrentBsonType();
                if (first && "getMore".equals(commandName) && type == BsonType.INT64) {
                    span.cursorId(reader.readInt64());
                } else if ("txnNumber".equals(name) && (type == BsonType.INT64 || type == BsonType.INT32)) {
                    span.txnNumber(type == BsonType.INT64 ? reader.readInt64() : reader.readInt32());
                } else if ("lsid".equals(name) && type == BsonType.DOCUMENT) {
                    String id = sessionId(reader);
                    if (id != null) {
                        span.lsid(id);
                    }
                } else {
                    reader.skipValue();
                }
                first = false;
            }
        } finally {
            reader.close();
        }
    }

    /** @return the session's id as a UUID string, when {@code lsid.id} is still a 16-byte UUID; else null */
    @com.mongodb.lang.Nullable
    private static String sessionId(final BsonReader reader) {
        String id = null;
        reader.readStartDocument();
        while (reader.readBsonType() != BsonType.END_OF_DOCUMENT) {
            if ("id".equals(reader.readName()) && reader.getCurrentBsonType() == BsonType.BINARY) {
                BsonBinary binary = reader.readBinaryData();
                if (binary.getType() == BsonBinarySubType.UUID_STANDARD.getValue() && binary.getData().length == 16) {
                    id = binary.asUuid().toString();
                }
            } else {
                reader.skipValue();
            }
        }
        reader.readEndDocument();
        return id;
    }

    /**
     * The same read straight from the copy's bytes, without a reader nor a string per name.
     *
     * @return false when the bytes do not add up (the reader then reads, and reports them)
     */
    private static boolean ofRawCommand(final RawBsonDocument command, final String commandName, final SpanFacts span) {
        byte[] src = DocumentBytes.array(command);
        int off = DocumentBytes.offset(command);
        int end = documentEnd(src, off);
        if (end < 0) {
            return false;
        }
        int p = off + 4;
        boolean first = true;
        while (p < end) {
            byte type = src[p];
            int name = p + 1;
            int nameEnd = nameEnd(src, name, end);
            int v = nameEnd + 1;
            int valueEnd = nameEnd < 0 ? -1 : valueEnd(src, type, v, end);
            if (valueEnd < 0) {
                return false;
            }
            if (first && type == 0x12 && "getMore".equals(commandName)) {
                span.cursorId(Bytes.readLong(src, v));
            } else if ((type == 0x12 || type == 0x10) && Bytes.equal(TXN_NUMBER, src, name, nameEnd - name)) {
                span.txnNumber(type == 0x12 ? Bytes.readLong(src, v) : Bytes.readInt(src, v));
            } else if (type == 0x03 && Bytes.equal(LSID, src, name, nameEnd - name)) {
                String id = rawSessionId(src, v, valueEnd - 1);
                if (id != null) {
                    span.lsid(id);
                }
            }
            first = false;
            p = valueEnd;
        }
        return p == end;
    }

    /** @return the value offset of the field of that name and type in {@code src[p, end)}, -1 when absent, -2 when corrupt */
    private static int field(final byte[] src, final int from, final int end, final byte[] name, final byte type) {
        int p = from;
        while (p < end) {
            byte elementType = src[p];
            int nameEnd = nameEnd(src, p + 1, end);
            int v = nameEnd + 1;
            int valueEnd = nameEnd < 0 ? -1 : valueEnd(src, elementType, v, end);
            if (valueEnd < 0) {
                return -2;
            }
            if (elementType == type && Bytes.equal(name, src, p + 1, nameEnd - p - 1)) {
                return v;
            }
            p = valueEnd;
        }
        return -1;
    }

    /** The UUID string of {@code id} in the session document {@code src[from, end)}, when it is a 16-byte UUID. */
    @com.mongodb.lang.Nullable
    private static String rawSessionId(final byte[] src, final int from, final int end) {
        int id = field(src, from + 4, end, ID, (byte) 0x05);
        if (id < 0 || Bytes.readInt(src, id) != 16 || src[id + 4] != BsonBinarySubType.UUID_STANDARD.getValue()) {
            return null;
        }
        long most = 0;
        long least = 0;
        for (int i = 0; i < 8; i++) {
            most = (most << 8) | (src[id + 5 + i] & 0xFF);
            least = (least << 8) | (src[id + 13 + i] & 0xFF);
        }
        return new java.util.UUID(most, least).toString();
    }

    /** @return the end of the value, or -1 when it overruns {@code end} or its type is unknown */
    private static int valueEnd(final byte[] src, final byte type, final int v, final int end) {
        try {
            return BsonBounds.valueEnd(src, type, v, end);
        } catch (BsonFormatException e) {
            return -1;
        }
    }

    private static int documentEnd(final byte[] src, final int off) {
        if (off < 0 || off + 5 > src.length) {
            return -1;
        }
        int length = Bytes.readInt(src, off);
        return length < 5 || length > src.length - off || src[off + length - 1] != 0 ? -1 : off + length - 1;
    }

    private static int nameEnd(final byte[] src, final int from, final int end) {
        for (int i = from; i < end; i++) {
            if (src[i] == 0) {
                return i;
            }
        }
        return -1;
    }

    /** A reader over an owned copy's bytes (never the decoding reader {@code RawBsonDocument} inherits). */
    private static BsonReader reader(final BsonDocument document) {
        if (document instanceof RawBsonDocument) {
            return new BsonBinaryReader(new ByteBufferBsonInput(((RawBsonDocument) document).getByteBuffer()));
        }
        return document.asBsonReader();
    }
}
