package io.github.mongoredact.jmh.floor;

import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.Map;

/**
 * The fields of a plain top level the driver builds for a command with document sequences ({@code insert}, {@code ordered},
 * {@code txnNumber}, {@code $db}, and with sessions {@code $clusterTime} and {@code lsid}), written verbatim: the values the
 * driver decoded from the command section. Strings, booleans, 32/64-bit integers, doubles, object ids, dates, timestamps,
 * binaries, nulls, and plain documents and arrays of those (the prototypes need not be general); anything else fails.
 */
final class TopLevel {
    private TopLevel() {
    }

    /** @return the encoded size of the element {@code key: value} */
    static int elementSize(final String key, final BsonValue value) {
        return 1 + key.length() + 1 + valueSize(value);
    }

    /** @return the encoded size of {@code value} without type and key */
    static int valueSize(final BsonValue value) {
        switch (value.getBsonType()) {
            case STRING:
                return 4 + value.asString().getValue().length() + 1;
            case BOOLEAN:
                return 1;
            case NULL:
                return 0;
            case INT32:
                return 4;
            case INT64:
            case DOUBLE:
            case DATE_TIME:
            case TIMESTAMP:
                return 8;
            case OBJECT_ID:
                return 12;
            case BINARY:
                return 4 + 1 + binary(value).getData().length;
            case DOCUMENT:
                int size = 4 + 1;
                for (Map.Entry<String, BsonValue> entry : plain(value).entrySet()) {
                    size += elementSize(entry.getKey(), entry.getValue());
                }
                return size;
            case ARRAY:
                BsonArray array = value.asArray();
                int arraySize = 4 + 1;
                for (int i = 0; i < array.size(); i++) {
                    arraySize += 1 + BsonOut.indexKeySize(i) + valueSize(array.get(i));
                }
                return arraySize;
            default:
                throw new IllegalArgumentException("the floor prototypes write no " + value.getBsonType() + " at the top level");
        }
    }

    /** Writes the element {@code key: value}; the output must have room for {@link #elementSize}. */
    static void write(final BsonOut out, final String key, final BsonValue value) {
        out.putByte(value.getBsonType().getValue());
        out.putAscii(key);
        writeValue(out, value);
    }

    /** Writes {@code value} without type and key; the output must have room for {@link #valueSize}. */
    static void writeValue(final BsonOut out, final BsonValue value) {
        switch (value.getBsonType()) {
            case STRING:
                String s = value.asString().getValue();
                out.putInt(s.length() + 1);
                out.putAscii(s);
                break;
            case BOOLEAN:
                out.putByte(value.asBoolean().getValue() ? 1 : 0);
                break;
            case NULL:
                break;
            case INT32:
                out.putInt(value.asInt32().getValue());
                break;
            case INT64:
                out.putLong(value.asInt64().getValue());
                break;
            case DOUBLE:
                out.putLong(Double.doubleToRawLongBits(value.asDouble().getValue()));
                break;
            case DATE_TIME:
                out.putLong(value.asDateTime().getValue());
                break;
            case TIMESTAMP:
                out.putLong(value.asTimestamp().getValue());
                break;
            case OBJECT_ID:
                byte[] id = value.asObjectId().getValue().toByteArray();
                System.arraycopy(id, 0, out.buf, out.pos, id.length);
                out.pos += id.length;
                break;
            case BINARY:
                BsonBinary binary = binary(value);
                out.putInt(binary.getData().length);
                out.putByte(binary.getType());
                System.arraycopy(binary.getData(), 0, out.buf, out.pos, binary.getData().length);
                out.pos += binary.getData().length;
                break;
            case DOCUMENT:
                int start = out.pos;
                out.pos += 4;
                for (Map.Entry<String, BsonValue> entry : plain(value).entrySet()) {
                    write(out, entry.getKey(), entry.getValue());
                }
                out.putByte(0);
                out.putInt(start, out.pos - start);
                break;
            case ARRAY:
                BsonArray array = value.asArray();
                int arrayStart = out.pos;
                out.pos += 4;
                for (int i = 0; i < array.size(); i++) {
                    out.putByte(array.get(i).getBsonType().getValue());
                    out.putIndexKey(i);
                    writeValue(out, array.get(i));
                }
                out.putByte(0);
                out.putInt(arrayStart, out.pos - arrayStart);
                break;
            default:
                throw new IllegalArgumentException("the floor prototypes write no " + value.getBsonType() + " at the top level");
        }
    }

    /** A nested document of the decoded top level: plain, as the driver decodes the command section. */
    private static BsonDocument plain(final BsonValue value) {
        if (value.getClass() != BsonDocument.class) {
            throw new IllegalArgumentException("the floor prototypes write plain nested documents only: "
                    + value.getClass().getName());
        }
        return (BsonDocument) value;
    }

    private static BsonBinary binary(final BsonValue value) {
        BsonBinary binary = value.asBinary();
        if (binary.getType() == 2) {
            throw new IllegalArgumentException("the floor prototypes write no old binary subtype 2");
        }
        return binary;
    }
}
