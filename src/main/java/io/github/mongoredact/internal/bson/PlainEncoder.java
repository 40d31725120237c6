package io.github.mongoredact.internal.bson;

import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDbPointer;
import org.bson.BsonDocument;
import org.bson.BsonJavaScriptWithScope;
import org.bson.BsonRegularExpression;
import org.bson.BsonValue;
import org.bson.types.Decimal128;

import java.util.Map;

/**
 * Encodes a plain {@link BsonDocument} (the small top level the driver builds for insert / update / delete, with each
 * document sequence appended as an array of byte-backed documents) as BSON, value by value, copying byte-backed documents
 * whole with their framing checked ({@link FramedCopy#copyDocument}): whole documents, or one element or value at a time
 * for {@link FramedCopy}. The sizes are {@link PlainSize}'s count, which {@code PlainSizeTest} holds to the driver's codec
 * and to what this encoder writes, byte for byte.
 *
 * <p>Not thread-safe: one instance per thread, reused.</p>
 */
public final class PlainEncoder {
    private static final byte[] NO_DESTINATION = new byte[0];
    /** Where the current write goes; {@link #NO_DESTINATION} between writes, so that no caller's array is kept. */
    private byte[] dst = NO_DESTINATION;
    private int pos;
    /** Whether the arrays of the top level are written with their first element only (a sample for the analysis). */
    private boolean sample;

    /** @return the exact encoded size of the document, counted without writing ({@link PlainSize}) */
    public int size(final BsonDocument document) {
        return PlainSize.of(document);
    }

    /**
     * @param sample whether each top-level array counts its first element only: the query-shape fingerprint hashes only the
     *               first element of an array, so a sample has the fingerprint of the whole
     * @return the exact encoded size
     */
    public int size(final BsonDocument document, final boolean sample) {
        return sample ? PlainSize.sample(document) : PlainSize.of(document);
    }

    /**
     * Writes the document at {@code index}; {@code dst} must have room for {@link #size}.
     *
     * @return bytes written
     */
    public int write(final BsonDocument document, final byte[] dst, final int index) {
        return write(document, dst, index, false);
    }

    /** Writes the document, or its sample (see {@link #size(BsonDocument, boolean)}). @return bytes written */
    public int write(final BsonDocument document, final byte[] dst, final int index, final boolean sample) {
        this.sample = sample;
        this.dst = dst;
        this.pos = index;
        document(document, 0);
        this.dst = NO_DESTINATION;
        return pos - index;
    }

    /** @return the encoded size of one element of a top-level document: type byte, key, value */
    public int elementSize(final String key, final BsonValue value) {
        return PlainSize.elementSize(key, value);
    }

    /**
     * Writes one element of a top-level document at {@code index}; {@code dst} must have room for {@link #elementSize}.
     *
     * @return bytes written
     */
    public int writeElement(final String key, final BsonValue value, final byte[] dst, final int index) {
        return element(key, value, dst, index);
    }

    /** @return the encoded size of a key: its UTF-8 bytes and the terminating NUL */
    public int keySize(final String key) {
        return PlainSize.keySize(key);
    }

    /** Writes a key and its terminating NUL at {@code index}. @return bytes written */
    public int writeKey(final String key, final byte[] dst, final int index) {
        begin(dst, index);
        putKey(key);
        return end(index);
    }

    /**
     * @param depth the depth of the document or array that holds the value (0: the top level)
     * @return the encoded size of a value, without type byte and key
     */
    public int valueSize(final BsonValue value, final int depth) {
        return PlainSize.valueSize(value, depth);
    }

    /** Writes a value (without type byte and key) at {@code index}, as {@link #valueSize} sized it. @return bytes written */
    public int writeValue(final BsonValue value, final int depth, final byte[] dst, final int index) {
        begin(dst, index);
        value(value, depth);
        return end(index);
    }

    private int element(final String key, final BsonValue value, final byte[] dst, final int index) {
        begin(dst, index);
        putByte((byte) value.getBsonType().getValue());
        putKey(key);
        value(value, 0);
        return end(index);
    }

    private void begin(final byte[] dst, final int index) {
        this.sample = false;
        this.dst = dst;
        this.pos = index;
    }

    private int end(final int index) {
        this.dst = NO_DESTINATION;
        return pos - index;
    }

    private void document(final BsonDocument document, final int depth) {
        checkDepth(depth);
        if (DocumentBytes.isByteBacked(document)) {
            // copied whole: framed (length prefix within its bytes, terminating NUL), not read element by element
            pos += FramedCopy.copyDocument(document, dst, pos);
            return;
        }
        int start = pos;
        pos += 4;
        for (Map.Entry<String, BsonValue> entry : document.entrySet()) {
            BsonValue value = entry.getValue();
            putByte((byte) value.getBsonType().getValue());
            putKey(entry.getKey());
            value(value, depth);
        }
        putByte((byte) 0);
        Bytes.writeInt(dst, start, pos - start);
    }

    private void array(final BsonArray array, final int depth) {
        checkDepth(depth);
        int start = pos;
        pos += 4;
        int size = sample && depth == 1 ? Math.min(1, array.size()) : array.size();
        for (int i = 0; i < size; i++) {
            BsonValue value = array.get(i);
            putByte((byte) value.getBsonType().getValue());
            putDigits(i);
            putByte((byte) 0);
            value(value, depth);
        }
        putByte((byte) 0);
        Bytes.writeInt(dst, start, pos - start);
    }

    private void value(final BsonValue value, final int depth) {
        switch (value.getBsonType()) {
            case DOUBLE:
                putLong(Double.doubleToRawLongBits(value.asDouble().getValue()));
                break;
            case STRING:
                putString(value.asString().getValue());
                break;
            case DOCUMENT:
                document(value.asDocument(), depth + 1);
                break;
            case ARRAY:
                array(value.asArray(), depth + 1);
                break;
            case UNDEFINED:
            case NULL:
            case MIN_KEY:
            case MAX_KEY:
                break;
            case OBJECT_ID:
                putBytes(value.asObjectId().getValue().toByteArray());
                break;
            case BOOLEAN:
                putByte((byte) (value.asBoolean().getValue() ? 1 : 0));
                break;
            case DATE_TIME:
                putLong(value.asDateTime().getValue());
                break;
            case JAVASCRIPT:
                putString(value.asJavaScript().getCode());
                break;
            case SYMBOL:
                putString(value.asSymbol().getSymbol());
                break;
            case INT32:
                putInt(value.asInt32().getValue());
                break;
            case TIMESTAMP:
                putLong(value.asTimestamp().getValue());
                break;
            case INT64:
                putLong(value.asInt64().getValue());
                break;
            default:
                lessCommon(value, depth);
        }
    }

    /** The types commands rarely hold, apart so that {@link #value} stays short. */
    private void lessCommon(final BsonValue value, final int depth) {
        switch (value.getBsonType()) {
            case BINARY:
                binary(value.asBinary());
                break;
            case REGULAR_EXPRESSION:
                regex(value.asRegularExpression());
                break;
            case DB_POINTER:
                dbPointer(value.asDBPointer());
                break;
            case JAVASCRIPT_WITH_SCOPE:
                codeWithScope(value.asJavaScriptWithScope(), depth);
                break;
            case DECIMAL128:
                Decimal128 decimal = value.asDecimal128().getValue();
                putLong(decimal.getLow());
                putLong(decimal.getHigh());
                break;
            default:
                throw new BsonFormatException("unsupported BSON type " + value.getBsonType());
        }
    }

    private void binary(final BsonBinary binary) {
        byte[] data = binary.getData();
        if (binary.getType() == BsonTypes.OLD_BINARY_SUBTYPE) {
            // the old binary subtype repeats the length inside the value
            putInt(data.length + 4);
            putByte(binary.getType());
            putInt(data.length);
        } else {
            putInt(data.length);
            putByte(binary.getType());
        }
        putBytes(data);
    }

    private void regex(final BsonRegularExpression regex) {
        putCString(regex.getPattern());
        putCString(regex.getOptions());
    }

    private void dbPointer(final BsonDbPointer pointer) {
        putString(pointer.getNamespace());
        putBytes(pointer.getId().toByteArray());
    }

    private void codeWithScope(final BsonJavaScriptWithScope code, final int depth) {
        int start = pos;
        pos += 4;
        putString(code.getCode());
        document(code.getScope(), depth + 1);
        Bytes.writeInt(dst, start, pos - start);
    }

    private static void checkDepth(final int depth) {
        if (depth >= BsonBounds.MAX_DEPTH) {
            throw FramingErrors.tooDeep();
        }
    }

    private void putByte(final byte b) {
        dst[pos] = b;
        pos++;
    }

    private void putInt(final int value) {
        Bytes.writeInt(dst, pos, value);
        pos += 4;
    }

    private void putLong(final long value) {
        Bytes.writeLong(dst, pos, value);
        pos += 8;
    }

    private void putBytes(final byte[] bytes) {
        System.arraycopy(bytes, 0, dst, pos, bytes.length);
        pos += bytes.length;
    }

    private void putDigits(final int value) {
        pos += Bytes.writeDigits(dst, pos, value);
    }

    private void putKey(final String key) {
        if (key.indexOf('\0') >= 0) {
            throw new BsonFormatException("key holds a NUL character: key length=" + key.length());
        }
        putUtf8(key);
        putByte((byte) 0);
    }

    private void putCString(final String value) {
        if (value.indexOf('\0') >= 0) {
            throw new BsonFormatException("C string holds a NUL character: length=" + value.length());
        }
        putUtf8(value);
        putByte((byte) 0);
    }

    private void putString(final String value) {
        int lengthIndex = pos;
        pos += 4;
        putUtf8(value);
        putByte((byte) 0);
        Bytes.writeInt(dst, lengthIndex, pos - lengthIndex - 4);
    }

    /**
     * UTF-8 without allocating, as the driver's codec writes it: an unpaired surrogate is written as its own three bytes (as
     * the codec does, on every supported line), not as {@link String#getBytes}' {@code ?}, so that copies stay byte-identical.
     */
    private void putUtf8(final String s) {
        int length = s.length();
        // ASCII, the driver's keys and most names: one byte a character, array and index in locals
        byte[] d = dst;
        int p = pos;
        int i = 0;
        if (length <= d.length - p) {
            for (; i < length; i++) {
                char c = s.charAt(i);
                if (c >= 0x80) {
                    break;
                }
                d[p + i] = (byte) c;
            }
        }
        pos = p + i;
        if (i < length) {
            putUtf8(s, i);
        }
    }

    /** The characters of {@code s} from {@code from} on, any of them beyond ASCII. */
    private void putUtf8(final String s, final int from) {
        int length = s.length();
        for (int i = from; i < length; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                putByte((byte) c);
            } else if (c < 0x800) {
                putByte((byte) (0xC0 | c >> 6));
                putByte((byte) (0x80 | c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                putByte((byte) (0xF0 | cp >> 18));
                putByte((byte) (0x80 | cp >> 12 & 0x3F));
                putByte((byte) (0x80 | cp >> 6 & 0x3F));
                putByte((byte) (0x80 | cp & 0x3F));
            } else {
                putByte((byte) (0xE0 | c >> 12));
                putByte((byte) (0x80 | c >> 6 & 0x3F));
                putByte((byte) (0x80 | c & 0x3F));
            }
        }
    }
}
