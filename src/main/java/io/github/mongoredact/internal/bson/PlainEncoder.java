package io.github.mongoredact.internal.bson;

import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonJavaScriptWithScope;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.bson.types.Decimal128;

import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Encodes a plain {@link BsonDocument} (the small top level the driver builds for insert / update / delete, with each
 * document sequence appended as an array of byte-backed documents) as BSON, value by value, copying byte-backed documents
 * whole with their framing checked ({@link FramedCopy#copyDocument}): whole documents, or one element or value at a time
 * for {@link FramedCopy}. The sizes are {@link PlainSize}'s count, which {@code PlainSizeTest} holds to the driver's codec
 * and to what this encoder writes, byte for byte.
 *
 * <p>Not thread-safe: one per workspace, reused by whoever holds it for a callback.</p>
 */
public final class PlainEncoder {
    private static final byte[] NO_DESTINATION = new byte[0];
    /** Where the current write goes; {@link #NO_DESTINATION} between writes, so that no caller's array is kept. */
    private byte[] dst = NO_DESTINATION;
    private int pos;
    /** Whether the arrays of the top level are written with their first element only (a sample for the analysis). */
    private boolean sample;
    /** Counts the entries of plain documents for {@link PlainSize}. */
    final PlainSize.Counter counter = new PlainSize.Counter();
    /** Writes the entries of the plain document being written, as its map hands them over. */
    private final EntryWriter writer = new EntryWriter();
    /** Sizes and writes the top level of a {@link FramedCopy}. */
    final FramedCopy.TopLevel topLevel = new FramedCopy.TopLevel(this);
    /** The open levels of a document written below the recursion limit ({@link #nested}). */
    private final OpenLevels open = new OpenLevels();

    /** @return the exact encoded size of the document, counted without writing ({@link PlainSize}) */
    public int size(final BsonDocument document) {
        return PlainSize.of(document, counter);
    }

    /**
     * @param sample whether each top-level array counts its first element only: the query-shape fingerprint hashes only the
     *               first element of an array, so a sample has the fingerprint of the whole
     * @return the exact encoded size
     */
    public int size(final BsonDocument document, final boolean sample) {
        return sample ? PlainSize.sample(document, counter) : PlainSize.of(document, counter);
    }

    /** Writes the document at {@code index}; {@code dst} must have room for {@link #size}. @return bytes written */
    public int write(final BsonDocument document, final byte[] dst, final int index) {
        return write(document, dst, index, false);
    }

    /** Writes the document, or its sample (see {@link #size(BsonDocument, boolean)}). @return bytes written */
    public int write(final BsonDocument document, final byte[] dst, final int index, final boolean sample) {
        this.sample = sample;
        this.dst = dst;
        this.pos = index;
        try {
            document(document, 0);
        } finally {
            this.dst = NO_DESTINATION;
        }
        return pos - index;
    }

    /** @return the encoded size of one element of a top-level document: type byte, key, value */
    public int elementSize(final String key, final BsonValue value) {
        return PlainSize.elementSize(key, value, counter);
    }

    /**
     * Writes one element of a top-level document at {@code index}; {@code dst} must have room for {@link #elementSize}.
     *
     * @return bytes written
     */
    public int writeElement(final String key, final BsonValue value, final byte[] dst, final int index) {
        begin(dst, index);
        try {
            BsonType type = value.getBsonType();
            putByte((byte) type.getValue());
            putKey(key, true);
            value(type, value, 0);
        } finally {
            this.dst = NO_DESTINATION;
        }
        return pos - index;
    }

    /** @return the encoded size of a key: its UTF-8 bytes and the terminating NUL */
    public int keySize(final String key) {
        return PlainSize.keySize(key);
    }

    /** Writes a key and its terminating NUL at {@code index}. @return bytes written */
    public int writeKey(final String key, final byte[] dst, final int index) {
        this.dst = dst;
        this.pos = index;
        putKey(key, true);
        this.dst = NO_DESTINATION;
        return pos - index;
    }

    /**
     * @param depth the depth of the document or array that holds the value (0: the top level)
     * @return the encoded size of a value, without type byte and key
     */
    public int valueSize(final BsonValue value, final int depth) {
        return PlainSize.valueSize(value, depth, counter);
    }

    /** Writes a value (without type byte and key) at {@code index}, as {@link #valueSize} sized it. @return bytes written */
    public int writeValue(final BsonValue value, final int depth, final byte[] dst, final int index) {
        begin(dst, index);
        try {
            value(value.getBsonType(), value, depth);
        } finally {
            this.dst = NO_DESTINATION;
        }
        return pos - index;
    }

    private void begin(final byte[] dst, final int index) {
        this.sample = false;
        this.dst = dst;
        this.pos = index;
    }

    private void document(final BsonDocument document, final int depth) {
        BsonBounds.checkDepth(depth);
        if (DocumentBytes.isByteBacked(document)) {
            // copied whole: framed (length prefix within its bytes, terminating NUL), not read element by element
            pos += FramedCopy.copyDocument(document, dst, pos);
            return;
        }
        int start = pos;
        pos += 4;
        EntryWriter w = writer;
        int outer = w.depth;
        w.depth = depth;
        DocumentEntries.forEach(document, w);
        w.depth = outer;
        putByte((byte) 0);
        Bytes.writeInt(dst, start, pos - start);
    }

    private void array(final BsonArray array, final int depth) {
        BsonBounds.checkDepth(depth);
        int start = pos;
        pos += 4;
        int size = sample && depth == 1 ? Math.min(1, array.size()) : array.size();
        for (int i = 0; i < size; i++) {
            BsonValue value = array.get(i);
            BsonType type = value.getBsonType();
            putByte((byte) type.getValue());
            putDigits(i);
            putByte((byte) 0);
            value(type, value, depth);
        }
        putByte((byte) 0);
        Bytes.writeInt(dst, start, pos - start);
    }

    /** Writes a value of type {@code type} (its {@code getBsonType()}, read once by the caller, which writes it too). */
    private void value(final BsonType type, final BsonValue value, final int depth) {
        switch (type) {
            case DOUBLE:
                putLong(Double.doubleToRawLongBits(value.asDouble().getValue()));
                break;
            case STRING:
                putString(value.asString().getValue());
                break;
            case DOCUMENT:
            case ARRAY:
                container(value, depth);
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
                lessCommon(type, value, depth);
        }
    }

    /** The types commands rarely hold, apart so that {@link #value} stays short. */
    private void lessCommon(final BsonType type, final BsonValue value, final int depth) {
        switch (type) {
            case BINARY:
                binary(value.asBinary());
                break;
            case REGULAR_EXPRESSION:
                putCString(value.asRegularExpression().getPattern());
                putCString(value.asRegularExpression().getOptions());
                break;
            case DB_POINTER:
                putString(value.asDBPointer().getNamespace());
                putBytes(value.asDBPointer().getId().toByteArray());
                break;
            case JAVASCRIPT_WITH_SCOPE:
                container(value, depth);
                break;
            case DECIMAL128:
                Decimal128 decimal = value.asDecimal128().getValue();
                putLong(decimal.getLow());
                putLong(decimal.getHigh());
                break;
            default:
                throw new BsonFormatException("unsupported BSON type " + type);
        }
    }

    private void binary(final BsonBinary binary) {
        byte[] data = binary.getData();
        boolean old = binary.getType() == BsonTypes.OLD_BINARY_SUBTYPE;
        // the old binary subtype repeats the length inside the value
        putInt(old ? data.length + 4 : data.length);
        putByte(binary.getType());
        if (old) {
            putInt(data.length);
        }
        putBytes(data);
    }

    /** A document, array or code with scope held at {@code depth}: by recursion above the limit, by one loop below it. */
    private void container(final BsonValue value, final int depth) {
        if (depth >= PlainSize.RECURSION_LIMIT) {
            nested(value, depth + 1);
        } else if (value.isDocument()) {
            document(value.asDocument(), depth + 1);
        } else if (value.isArray()) {
            array(value.asArray(), depth + 1);
        } else {
            codeWithScope(value.asJavaScriptWithScope(), depth);
        }
    }

    private void codeWithScope(final BsonJavaScriptWithScope code, final int depth) {
        int start = pos;
        pos += 4;
        putString(code.getCode());
        document(code.getScope(), depth + 1);
        Bytes.writeInt(dst, start, pos - start);
    }

    /**
     * Writes a document, array or code with scope at {@code level} (its own depth) and all it holds, with the open levels in
     * {@link #open} instead of on the stack: one loop, whatever the depth, for what lies below the recursion limit.
     */
    private void nested(final BsonValue root, final int level) {
        OpenLevels levels = open;
        try {
            enter(levels, root, level);
            while (!levels.isEmpty()) {
                if (!levels.hasNext()) {
                    pos = levels.close(dst, pos);
                    continue;
                }
                BsonValue value;
                if (levels.isArray()) {
                    int i = levels.nextIndex();
                    value = levels.element(i);
                    putByte((byte) value.getBsonType().getValue());
                    putDigits(i);
                    putByte((byte) 0);
                } else {
                    Map.Entry<String, BsonValue> entry = levels.nextEntry();
                    value = entry.getValue();
                    putByte((byte) value.getBsonType().getValue());
                    putKey(entry.getKey(), false);
                }
                enter(levels, value, levels.depth() + 1);
            }
        } finally {
            levels.clear();
        }
    }

    /** Writes a value at {@code level}: whole when it holds no other, else its start, its level opened in {@code levels}. */
    private void enter(final OpenLevels levels, final BsonValue value, final int level) {
        int codeStart = -1;
        BsonValue container = value;
        if (value.isJavaScriptWithScope()) {
            codeStart = pos;
            pos += 4;
            putString(value.asJavaScriptWithScope().getCode());
            container = value.asJavaScriptWithScope().getScope();
        } else if (!value.isDocument() && !value.isArray()) {
            // holds no other value: the recursion below stops at once
            value(value.getBsonType(), value, level - 1);
            return;
        }
        BsonBounds.checkDepth(level);
        if (container.isDocument() && DocumentBytes.isByteBacked(container.asDocument())) {
            pos += FramedCopy.copyDocument(container.asDocument(), dst, pos);
            if (codeStart >= 0) {
                Bytes.writeInt(dst, codeStart, pos - codeStart);
            }
            return;
        }
        levels.push(container, level, pos, codeStart);
        pos += 4;
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

    private void putKey(final String key, final boolean remember) {
        pos = KeyBytes.write(key, dst, pos, remember);
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

    /** UTF-8 as the driver's codec writes it ({@link Bytes#writeUtf8}). */
    private void putUtf8(final String s) {
        pos = Bytes.writeUtf8(s, dst, pos);
    }

    /**
     * Writes the entries of one plain document as its map hands them over ({@link DocumentEntries#forEach}): a nested
     * document's depth keeps that of the one that holds it in a local of {@link #document}, so that nothing is stored per
     * entry.
     */
    private final class EntryWriter implements BiConsumer<String, BsonValue> {
        /** The depth of the document being written (0: the top level). */
        private int depth;

        @Override
        public void accept(final String key, final BsonValue value) {
            BsonType type = value.getBsonType();
            putByte((byte) type.getValue());
            putKey(key, depth == 0);
            value(type, value, depth);
        }
    }
}
