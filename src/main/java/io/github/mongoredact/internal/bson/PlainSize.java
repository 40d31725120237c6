package io.github.mongoredact.internal.bson;

import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonJavaScriptWithScope;
import org.bson.BsonRegularExpression;
import org.bson.BsonValue;

import java.util.Arrays;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The encoded size of a plain {@link BsonDocument}, the same as {@link PlainEncoder#size(BsonDocument)} gives, counted without
 * writing: lengths add up by type, strings by their UTF-8 length, byte-backed documents by their length, and document
 * sequences (the top level's arrays) from their buffers in O(1) where {@link DocumentBytes#sequenceSize} tells it. For the
 * metrics path, which needs the size and never the bytes. Plain documents are read as their map hands their entries over
 * ({@link DocumentEntries#forEach}) to the caller's {@link Counter}, keys by their remembered encoded length
 * ({@link KeyBytes}). Thread-safe; allocation-free once the keys in use are known.
 */
public final class PlainSize {
    /**
     * The depth down to which nested plain documents are counted (and written, by {@link PlainEncoder}) by recursion, a few
     * frames a level; deeper ones, by one loop with their levels on a heap stack, so that no input decides the stack's depth.
     */
    static final int RECURSION_LIMIT = 8;

    private PlainSize() {
    }

    /**
     * @return the size in bytes of a document as the driver sent it, document sequences counted as arrays: a byte-backed
     *         document's length, else the encoded size of {@link #of}
     */
    public static int asSent(final BsonDocument document, final Workspace workspace) {
        return DocumentBytes.isByteBacked(document) ? DocumentBytes.length(document) : of(document, workspace);
    }

    /**
     * @return the encoded size of the document
     * @throws BsonFormatException as {@link PlainEncoder} does: a key with a NUL, nesting too deep, a size past 2 GiB
     */
    public static int of(final BsonDocument document, final Workspace workspace) {
        return of(document, workspace.encoder.counter);
    }

    /** {@link #of(BsonDocument, Workspace)} with that workspace's counter. */
    static int of(final BsonDocument document, final Counter counter) {
        return checked(document(document, 0, counter));
    }

    /**
     * The size of the sample the analysis walks: each array of the top level with its first element only (the query-shape
     * fingerprint hashes only the first element of an array, so the sample has the fingerprint of the whole).
     *
     * @return the encoded size of the document's sample
     * @throws BsonFormatException as {@link #of}
     */
    public static int sample(final BsonDocument document, final Workspace workspace) {
        return sample(document, workspace.encoder.counter);
    }

    /** {@link #sample(BsonDocument, Workspace)} with that workspace's counter. */
    static int sample(final BsonDocument document, final Counter counter) {
        if (DocumentBytes.isByteBacked(document)) {
            return DocumentBytes.length(document);
        }
        return checked(counter.count(document, 0, true));
    }

    /** @return the encoded size of one element of a top-level document: type byte, key and its NUL, value */
    static int elementSize(final String key, final BsonValue value, final Counter counter) {
        return checked(2 + KeyBytes.length(key, true) + value(value, 0, counter));
    }

    /** @return the encoded size of a key: its UTF-8 bytes and the terminating NUL */
    static int keySize(final String key) {
        return checked(KeyBytes.length(key, true) + 1);
    }

    /**
     * @param depth the depth of the document or array that holds the value (0: the top level)
     * @return the encoded size of a value, without type byte and key
     */
    static int valueSize(final BsonValue value, final int depth, final Counter counter) {
        return checked(value(value, depth, counter));
    }

    private static int checked(final long size) {
        if (size > Integer.MAX_VALUE) {
            throw new BsonFormatException("document too large: size=" + size);
        }
        return (int) size;
    }

    /** @return the size of a top-level array holding its first element only */
    private static long firstElement(final BsonArray array, final Counter counter) {
        BsonBounds.checkDepth(1);
        // index key "0": one digit and its NUL, after the type byte
        return 5 + (array.isEmpty() ? 0 : 3 + value(array.get(0), 1, counter));
    }

    private static long document(final BsonDocument document, final int depth, final Counter counter) {
        BsonBounds.checkDepth(depth);
        if (DocumentBytes.isByteBacked(document)) {
            return DocumentBytes.length(document);
        }
        return counter.count(document, depth, false);
    }

    private static long array(final BsonArray array, final int depth, final Counter counter) {
        BsonBounds.checkDepth(depth);
        if (depth == 1) {
            int size = DocumentBytes.sequenceSize(array);
            if (size >= 0) {
                return size;
            }
        }
        long size = 5;
        int count = array.size();
        for (int i = 0; i < count; i++) {
            size += 2 + Bytes.digits(i) + value(array.get(i), depth, counter);
        }
        return size;
    }

    private static long value(final BsonValue value, final int depth, final Counter counter) {
        switch (value.getBsonType()) {
            case STRING:
                return string(value.asString().getValue());
            case DOCUMENT:
                return depth < RECURSION_LIMIT ? document(value.asDocument(), depth + 1, counter)
                        : nested(value, depth + 1, counter);
            case ARRAY:
                return depth < RECURSION_LIMIT ? array(value.asArray(), depth + 1, counter)
                        : nested(value, depth + 1, counter);
            case INT32:
                return 4;
            case DOUBLE:
            case DATE_TIME:
            case TIMESTAMP:
            case INT64:
                return 8;
            case BOOLEAN:
                return 1;
            case UNDEFINED:
            case NULL:
            case MIN_KEY:
            case MAX_KEY:
                return 0;
            case OBJECT_ID:
                return 12;
            case DECIMAL128:
                return 16;
            case BINARY:
                BsonBinary binary = value.asBinary();
                // the old binary subtype repeats the length inside the value
                return 5 + (binary.getType() == BsonTypes.OLD_BINARY_SUBTYPE ? 4 : 0) + binary.getData().length;
            case REGULAR_EXPRESSION:
                BsonRegularExpression regex = value.asRegularExpression();
                return cstring(regex.getPattern()) + 1 + cstring(regex.getOptions()) + 1;
            case DB_POINTER:
                return string(value.asDBPointer().getNamespace()) + 12;
            case JAVASCRIPT:
                return string(value.asJavaScript().getCode());
            case SYMBOL:
                return string(value.asSymbol().getSymbol());
            case JAVASCRIPT_WITH_SCOPE:
                if (depth >= RECURSION_LIMIT) {
                    return nested(value, depth + 1, counter);
                }
                BsonJavaScriptWithScope code = value.asJavaScriptWithScope();
                return 4 + string(code.getCode()) + document(code.getScope(), depth + 1, counter);
            default:
                throw new BsonFormatException("unsupported BSON type " + value.getBsonType());
        }
    }

    /**
     * The size of a document, array or code with scope at {@code level} (its own depth) and all it holds, in one loop: sizes
     * add up in any order, so each container still to count waits on a heap stack with its depth, and none is re-entered.
     */
    private static long nested(final BsonValue root, final int level, final Counter counter) {
        BsonValue[] pending = {root};
        int[] levels = {level};
        int count = 1;
        long size = 0;
        while (count > 0) {
            count--;
            BsonValue value = pending[count];
            int d = levels[count];
            if (value.isJavaScriptWithScope()) {
                size += 4 + string(value.asJavaScriptWithScope().getCode());
                value = value.asJavaScriptWithScope().getScope();
            }
            BsonBounds.checkDepth(d);
            if (value.isDocument() && DocumentBytes.isByteBacked(value.asDocument())) {
                size += DocumentBytes.length(value.asDocument());
                continue;
            }
            size += 5;
            int n = value.isArray() ? value.asArray().size() : value.asDocument().size();
            if (count + n > pending.length) {
                pending = Arrays.copyOf(pending, Math.max(pending.length * 2, count + n));
                levels = Arrays.copyOf(levels, pending.length);
            }
            if (value.isArray()) {
                BsonArray array = value.asArray();
                for (int i = 0; i < n; i++) {
                    BsonValue element = array.get(i);
                    size += 2 + Bytes.digits(i);
                    if (holdsValues(element)) {
                        pending[count] = element;
                        levels[count++] = d + 1;
                    } else {
                        size += value(element, d, counter);
                    }
                }
            } else {
                for (Map.Entry<String, BsonValue> entry : value.asDocument().entrySet()) {
                    BsonValue element = entry.getValue();
                    size += 2 + KeyBytes.length(entry.getKey(), false);
                    if (holdsValues(element)) {
                        pending[count] = element;
                        levels[count++] = d + 1;
                    } else {
                        size += value(element, d, counter);
                    }
                }
            }
        }
        return size;
    }

    private static boolean holdsValues(final BsonValue value) {
        return value.isDocument() || value.isArray() || value.isJavaScriptWithScope();
    }

    private static long string(final String value) {
        return 4 + utf8Length(value, false) + 1;
    }

    /** @return the UTF-8 length of a key or C string, refused when it holds a NUL (its terminator not counted) */
    private static long cstring(final String value) {
        return utf8Length(value, true);
    }

    /**
     * The length {@link PlainEncoder} writes: an unpaired surrogate takes three bytes, as in the driver's codec. One loop over the
     * characters that also refuses a NUL in a C string, as the encoder does.
     */
    static long utf8Length(final String s, final boolean cstring) {
        int length = s.length();
        long bytes = length;
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                if (c < 0x800) {
                    bytes += 1;
                } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(s.charAt(i + 1))) {
                    // two chars, four bytes
                    bytes += 2;
                    i++;
                } else {
                    bytes += 2;
                }
            } else if (c == 0 && cstring) {
                throw new BsonFormatException("key or C string holds a NUL character: length=" + length);
            }
        }
        return bytes;
    }

    /**
     * Counts the entries of plain documents as their map hands them over ({@link DocumentEntries#forEach}), one document at a
     * time: a nested document's count keeps the count of the one that holds it in a local of {@link #count}, so that nothing
     * is stored per entry. Not thread-safe: one per encoder ({@link PlainEncoder#counter}).
     */
    static final class Counter implements BiConsumer<String, BsonValue> {
        /** The size of the document being counted so far. */
        private long size;
        /** Its depth (0: the top level). */
        private int depth;
        /** Whether its arrays count their first element only (the top level of a sample). */
        private boolean sample;

        /** @return the encoded size of a plain document at {@code depth}, its arrays with their first element only if asked */
        long count(final BsonDocument document, final int depth, final boolean sample) {
            long outerSize = this.size;
            int outerDepth = this.depth;
            boolean outerSample = this.sample;
            this.size = 5;
            this.depth = depth;
            this.sample = sample;
            DocumentEntries.forEach(document, this);
            long counted = this.size;
            this.size = outerSize;
            this.depth = outerDepth;
            this.sample = outerSample;
            return counted;
        }

        @Override
        public void accept(final String key, final BsonValue value) {
            size += 2 + KeyBytes.length(key, depth == 0) + (sample && value.isArray() ? firstElement(value.asArray(), this)
                    : value(value, depth, this));
        }
    }
}
