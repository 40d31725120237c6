package io.github.mongoredact.internal.bson;

import com.mongodb.lang.Nullable;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonJavaScriptWithScope;
import org.bson.BsonRegularExpression;
import org.bson.BsonType;
import org.bson.BsonValue;
import org.bson.types.Decimal128;

import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Encodes a plain {@link BsonDocument} (the small top level the driver builds for insert / update / delete, with each
 * document sequence appended as an array of byte-backed documents; a failure's documents) as BSON, value by value, through an
 * {@link Output}: counted, written into an array of exactly its size, or written into a scratch that grows. One writer for
 * both, so that the size and the bytes cannot disagree; {@code PlainEncoderTest} holds both to the driver's codec, byte for
 * byte. A byte-backed document inside is copied whole, its frame checked ({@link DocumentBytes#copyFramed}); counted, a
 * document sequence of the top level is sized from its buffers in O(1) where they tell it
 * ({@link DocumentBytes#sequenceSize}).
 *
 * <p>Documents nested down to {@link #RECURSION_LIMIT} levels are written by recursion, a few frames a level; deeper ones by
 * one loop with their levels in {@link OpenLevels}, so that no input decides the stack's depth.</p>
 *
 * <p>Not thread-safe: one per workspace, reused by whoever holds it for a callback. Holds no caller's document after a
 * call; the last output object it wrote into (not its bytes) stays referenced.</p>
 */
public final class PlainEncoder {
    /** The depth down to which nested plain documents are written by recursion. */
    static final int RECURSION_LIMIT = 8;
    /** The output of the call under way ({@link #writing}), or of the last one, kept: see {@link #begin}. */
    @Nullable
    private Output out;
    private boolean writing;
    /** Counts for {@link #size}. */
    private final Output counting = new Output();
    /** Writes the entries of the plain document being written, as its map hands them over. */
    private final EntryWriter writer = new EntryWriter();
    /** The open levels of a document written below the recursion limit ({@link #nested}). */
    private final OpenLevels open = new OpenLevels();

    /**
     * @return the exact encoded size of the document, counted without writing
     * @throws BsonFormatException as {@link #write} refuses, or past the largest array
     */
    public int size(final BsonDocument document) {
        counting.count(0);
        write(document, counting);
        return counting.position();
    }

    /**
     * @return the size in bytes of a document as the driver sent it, document sequences counted as arrays: a byte-backed
     *         document's length, else the encoded size of {@link #size}
     */
    public int sizeAsSent(final BsonDocument document) {
        return DocumentBytes.isByteBacked(document) ? DocumentBytes.length(document) : size(document);
    }

    /**
     * Writes the document at the output's position.
     *
     * @throws BsonFormatException where a key holds a NUL, nesting passes {@link BsonBounds#MAX_DEPTH}, a byte-backed document
     *                             inside is not framed, or a type is not one BSON has
     */
    public void write(final BsonDocument document, final Output output) {
        begin(output);
        try {
            document(document, 0);
        } finally {
            end();
        }
    }

    /** Writes one element of a top-level document (type byte, key, value) at the output's position. */
    public void writeElement(final String key, final BsonValue value, final Output output) {
        begin(output);
        try {
            BsonType type = value.getBsonType();
            out().putByte((byte) type.getValue());
            putCString(key);
            value(type, value, 0);
        } finally {
            end();
        }
    }

    /** Writes a key and its terminating NUL at the output's position. */
    public void writeKey(final String key, final Output output) {
        begin(output);
        try {
            putCString(key);
        } finally {
            end();
        }
    }

    private void begin(final Output output) {
        // the holder's output, the same call to call: a reference stored into this long-lived object costs G1's write barrier
        if (out != output) {
            out = output;
        }
        writing = true;
    }

    private void end() {
        writing = false;
        open.clear();
    }

    private Output out() {
        Output current = out;
        if (current == null || !writing) {
            throw new IllegalStateException("no output: the encoder writes only inside write()");
        }
        return current;
    }

    private void document(final BsonDocument document, final int depth) {
        BsonBounds.checkDepth(depth);
        if (DocumentBytes.isByteBacked(document)) {
            // copied whole: framed (length prefix within its bytes, terminating NUL), not read element by element
            DocumentBytes.copyFramed(document, out());
            return;
        }
        Output o = out();
        int start = o.reserveInt();
        EntryWriter w = writer;
        int outer = w.depth;
        w.depth = depth;
        DocumentEntries.forEach(document, w);
        w.depth = outer;
        o.putByte((byte) 0);
        o.patchLength(start, start);
    }

    private void array(final BsonArray array, final int depth) {
        BsonBounds.checkDepth(depth);
        Output o = out();
        if (depth == 1 && !o.writing()) {
            int size = DocumentBytes.sequenceSize(array);
            if (size >= 0) {
                o.advance(size);
                return;
            }
        }
        int start = o.reserveInt();
        int size = array.size();
        for (int i = 0; i < size; i++) {
            BsonValue value = array.get(i);
            BsonType type = value.getBsonType();
            o.putByte((byte) type.getValue());
            o.putDigits(i);
            o.putByte((byte) 0);
            value(type, value, depth);
        }
        o.putByte((byte) 0);
        o.patchLength(start, start);
    }

    /** Writes a value of type {@code type} (its {@code getBsonType()}, read once by the caller, which writes it too). */
    private void value(final BsonType type, final BsonValue value, final int depth) {
        Output o = out();
        switch (type) {
            case DOUBLE:
                o.putLong(Double.doubleToRawLongBits(value.asDouble().getValue()));
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
                o.putArray(value.asObjectId().getValue().toByteArray());
                break;
            case BOOLEAN:
                o.putByte((byte) (value.asBoolean().getValue() ? 1 : 0));
                break;
            case DATE_TIME:
                o.putLong(value.asDateTime().getValue());
                break;
            case JAVASCRIPT:
                putString(value.asJavaScript().getCode());
                break;
            case SYMBOL:
                putString(value.asSymbol().getSymbol());
                break;
            case INT32:
                o.putInt(value.asInt32().getValue());
                break;
            case TIMESTAMP:
                o.putLong(value.asTimestamp().getValue());
                break;
            case INT64:
                o.putLong(value.asInt64().getValue());
                break;
            default:
                lessCommon(type, value, depth);
        }
    }

    /** The types commands rarely hold, apart so that {@link #value} stays short. */
    private void lessCommon(final BsonType type, final BsonValue value, final int depth) {
        Output o = out();
        switch (type) {
            case BINARY:
                binary(value.asBinary());
                break;
            case REGULAR_EXPRESSION:
                BsonRegularExpression regex = value.asRegularExpression();
                putCString(regex.getPattern());
                putCString(regex.getOptions());
                break;
            case DB_POINTER:
                putString(value.asDBPointer().getNamespace());
                o.putArray(value.asDBPointer().getId().toByteArray());
                break;
            case JAVASCRIPT_WITH_SCOPE:
                container(value, depth);
                break;
            case DECIMAL128:
                Decimal128 decimal = value.asDecimal128().getValue();
                o.putLong(decimal.getLow());
                o.putLong(decimal.getHigh());
                break;
            default:
                throw new BsonFormatException("unsupported BSON type " + type);
        }
    }

    private void binary(final BsonBinary binary) {
        Output o = out();
        byte[] data = binary.getData();
        boolean old = binary.getType() == BsonTypes.OLD_BINARY_SUBTYPE;
        // the old binary subtype repeats the length inside the value
        o.putInt(old ? data.length + 4 : data.length);
        o.putByte(binary.getType());
        if (old) {
            o.putInt(data.length);
        }
        o.putArray(data);
    }

    /** A document, array or code with scope held at {@code depth}: by recursion above the limit, by one loop below it. */
    private void container(final BsonValue value, final int depth) {
        if (depth >= RECURSION_LIMIT) {
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
        Output o = out();
        int start = o.reserveInt();
        putString(code.getCode());
        document(code.getScope(), depth + 1);
        o.patchLength(start, start);
    }

    /**
     * Writes a document, array or code with scope at {@code level} (its own depth) and all it holds, with the open levels in
     * {@link #open} instead of on the stack: one loop, whatever the depth, for what lies below the recursion limit.
     */
    private void nested(final BsonValue root, final int level) {
        OpenLevels levels = open;
        Output o = out();
        enter(levels, root, level);
        while (!levels.isEmpty()) {
            if (!levels.hasNext()) {
                levels.close(o);
                continue;
            }
            BsonValue value;
            if (levels.isArray()) {
                int i = levels.nextIndex();
                value = levels.element(i);
                o.putByte((byte) value.getBsonType().getValue());
                o.putDigits(i);
                o.putByte((byte) 0);
            } else {
                Map.Entry<String, BsonValue> entry = levels.nextEntry();
                value = entry.getValue();
                o.putByte((byte) value.getBsonType().getValue());
                putCString(entry.getKey());
            }
            enter(levels, value, levels.depth() + 1);
        }
    }

    /** Writes a value at {@code level}: whole when it holds no other, else its start, its level opened in {@code levels}. */
    private void enter(final OpenLevels levels, final BsonValue value, final int level) {
        Output o = out();
        int codeStart = -1;
        BsonValue container = value;
        if (value.isJavaScriptWithScope()) {
            codeStart = o.reserveInt();
            putString(value.asJavaScriptWithScope().getCode());
            container = value.asJavaScriptWithScope().getScope();
        } else if (!value.isDocument() && !value.isArray()) {
            // holds no other value: the recursion below stops at once
            value(value.getBsonType(), value, level - 1);
            return;
        }
        BsonBounds.checkDepth(level);
        if (container.isDocument() && DocumentBytes.isByteBacked(container.asDocument())) {
            DocumentBytes.copyFramed(container.asDocument(), o);
            if (codeStart >= 0) {
                o.patchLength(codeStart, codeStart);
            }
            return;
        }
        levels.push(container, level, o.reserveInt(), codeStart);
    }

    /** A key or C string and its NUL, refused where it holds a NUL. */
    private void putCString(final String value) {
        Output o = out();
        int length = value.length();
        // ASCII (the driver's keys, most names): the characters and the NUL in the room checked once (a length past the
        // largest array is the general path's, which refuses it)
        byte[] dst = o.writing() && length < Workspace.MAX_ARRAY ? o.room(length + 1) : null;
        if (dst != null) {
            int at = o.position();
            if (putAscii(value, length, true, dst, at)) {
                dst[at + length] = 0;
                o.advance(length + 1);
                return;
            }
        }
        putUtf8(value, true);
        o.putByte((byte) 0);
    }

    private void putString(final String value) {
        Output o = out();
        int length = value.length();
        // ASCII: length, characters and NUL in the room checked once, the length known before the characters
        byte[] dst = o.writing() && length < Workspace.MAX_ARRAY ? o.room(length + 5) : null;
        if (dst != null) {
            int at = o.position();
            if (putAscii(value, length, false, dst, at + 4)) {
                Bytes.writeInt(dst, at, length + 1);
                dst[at + 4 + length] = 0;
                o.advance(length + 5);
                return;
            }
        }
        int lengthIndex = o.reserveInt();
        putUtf8(value, false);
        o.putByte((byte) 0);
        o.patchLength(lengthIndex, lengthIndex + 4);
    }

    /**
     * Writes {@code s} at {@code dst[at]}, which has room for its {@code length} characters, while they are ASCII (and, in a
     * C string, not NUL). @return whether it wrote them all (false: the bytes written are to be written again)
     */
    private static boolean putAscii(final String s, final int length, final boolean cstring, final byte[] dst, final int at) {
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c >= 0x80 || c == 0 && cstring) {
                return false;
            }
            dst[at + i] = (byte) c;
        }
        return true;
    }

    /**
     * UTF-8 as the driver's codec writes it ({@link Bytes#writeUtf8}): an unpaired surrogate takes three bytes; counted, or
     * written where {@link #putCString} and {@link #putString} found a character past ASCII (or a NUL in a C string, refused).
     */
    private void putUtf8(final String s, final boolean cstring) {
        Output o = out();
        int length = s.length();
        if (!o.writing()) {
            o.advance(utf8Length(s, cstring));
            return;
        }
        if (cstring && s.indexOf('\0') >= 0) {
            throw new BsonFormatException("key or C string holds a NUL character: length=" + length);
        }
        // three bytes a character at most; where that much is not at hand, the exact length
        int room = o.remaining() >= 3L * length ? 3 * length : utf8Length(s, false);
        byte[] bytes = o.room(room);
        if (bytes == null) {
            throw new IllegalStateException("no destination: the output is counting");
        }
        int at = o.position();
        o.advance(Bytes.writeUtf8(s, bytes, at) - at);
    }

    /** @return the UTF-8 length of {@code s} ({@link Bytes#utf8Length}), refused past the largest array */
    private static int utf8Length(final String s, final boolean cstring) {
        long bytes = Bytes.utf8Length(s, cstring);
        if (bytes > Workspace.MAX_ARRAY) {
            throw new BsonFormatException("string too large: bytes=" + bytes + " max=" + Workspace.MAX_ARRAY);
        }
        return (int) bytes;
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
            out().putByte((byte) type.getValue());
            putCString(key);
            value(type, value, depth);
        }
    }
}
