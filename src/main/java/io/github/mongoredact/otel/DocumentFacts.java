package io.github.mongoredact.otel;

import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.Span;
import org.bson.BsonBinary;
import org.bson.BsonBinaryReader;
import org.bson.BsonBinarySubType;
import org.bson.BsonDocument;
import org.bson.BsonReader;
import org.bson.BsonType;
import org.bson.RawBsonDocument;
import org.bson.io.ByteBufferBsonInput;

/**
 * The span attributes read from the redacted copies: the session id ({@code lsid}), the transaction number and the cursor id
 * (of {@code getMore}, and of a reply's {@code cursor} when not 0). Only values the copy still holds with their own type are
 * taken: a value the policy replaced by a placeholder yields no attribute, so the span tells nothing the copy hides. The top
 * level is read once, hopping over the values it does not need (a document sequence costs one jump). Stateless.
 */
final class DocumentFacts {
    private DocumentFacts() {
    }

    /** Adds {@code db.mongodb.lsid}, {@code db.mongodb.txn_number} and getMore's {@code db.mongodb.cursor_id}. */
    static void ofCommand(final BsonDocument command, final String commandName, final SpanBuilder span) {
        BsonReader reader = reader(command);
        try {
            reader.readStartDocument();
            boolean first = true;
            while (reader.readBsonType() != BsonType.END_OF_DOCUMENT) {
                String name = reader.readName();
                BsonType type = reader.getCurrentBsonType();
                if (first && "getMore".equals(commandName) && type == BsonType.INT64) {
                    span.setAttribute(SpanKeys.CURSOR_ID, reader.readInt64());
                } else if ("txnNumber".equals(name) && (type == BsonType.INT64 || type == BsonType.INT32)) {
                    span.setAttribute(SpanKeys.TXN_NUMBER, type == BsonType.INT64 ? reader.readInt64() : reader.readInt32());
                } else if ("lsid".equals(name) && type == BsonType.DOCUMENT) {
                    String id = sessionId(reader);
                    if (id != null) {
                        span.setAttribute(SpanKeys.LSID, id);
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

    /** Adds {@code db.mongodb.cursor_id} from the reply's {@code cursor.id}, when it is a cursor left open (not 0). */
    static void ofReply(final BsonDocument reply, final Span span) {
        BsonReader reader = reader(reply);
        try {
            reader.readStartDocument();
            while (reader.readBsonType() != BsonType.END_OF_DOCUMENT) {
                String name = reader.readName();
                if ("cursor".equals(name) && reader.getCurrentBsonType() == BsonType.DOCUMENT) {
                    reader.readStartDocument();
                    while (reader.readBsonType() != BsonType.END_OF_DOCUMENT) {
                        if ("id".equals(reader.readName()) && reader.getCurrentBsonType() == BsonType.INT64) {
                            long id = reader.readInt64();
                            if (id != 0) {
                                span.setAttribute(SpanKeys.CURSOR_ID, id);
                            }
                            return;
                        }
                        reader.skipValue();
                    }
                    return;
                }
                reader.skipValue();
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

    /** A reader over an owned copy's bytes (never the decoding reader {@code RawBsonDocument} inherits). */
    private static BsonReader reader(final BsonDocument document) {
        if (document instanceof RawBsonDocument) {
            return new BsonBinaryReader(new ByteBufferBsonInput(((RawBsonDocument) document).getByteBuffer()));
        }
        return document.asBsonReader();
    }
}
