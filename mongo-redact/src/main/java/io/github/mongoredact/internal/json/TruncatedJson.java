package io.github.mongoredact.internal.json;

import org.bson.BsonDocument;
import org.bson.BsonReader;
import org.bson.BsonSerializationException;
import org.bson.BsonType;
import org.bson.RawBsonDocument;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriter;
import org.bson.json.JsonWriterSettings;

import java.io.Writer;
import java.util.Arrays;

/**
 * Renders a document as relaxed extended JSON, the way the driver's command log does (an owned raw document straight
 * from its bytes where {@link RawJson} writes every type it holds, else through the driver's reader and writer), cut at a
 * number of characters with {@code " ..."} appended, in time and memory proportional to the limit: rendering stops once
 * the output holds more than the limit, and string-like values and names larger than what is left are decoded only up to
 * what can still be shown.
 *
 * <p>As the logging specification asks, and unlike the driver's writer, only a text LONGER than the limit is cut: a text
 * of exactly the limit is shown whole, without {@code " ..."}. A cut never leaves part of a character: neither half of a
 * surrogate pair nor part of an escape such as {@code \\ud83d\\ude00}, so the text may stop up to 11 characters before the
 * limit where the driver's would show a broken character.</p>
 *
 * <p>No recursion whose depth the input decides: nested documents and arrays are walked with an explicit stack of frames
 * (the reader and the writer keep their own contexts as linked lists), so a 1000-level document renders on a small thread
 * stack. Thread-safe: each call through the writer has its own writer and output, each direct one writes into a buffer
 * borrowed from a bounded pool shared by all threads.</p>
 */
public final class TruncatedJson {
    /** What the driver appends to a cut document. */
    public static final String ELLIPSIS = " ...";
    private static final String[] NONE = new String[0];

    private TruncatedJson() {
    }

    /**
     * @param document the document
     * @param maxLength the most characters of JSON to show before {@code " ..."}; 0 for no limit, as for the driver
     * @return the JSON text
     * @throws org.bson.BSONException if the document's bytes are not valid BSON
     */
    public static String render(final BsonDocument document, final int maxLength) {
        return render(document, maxLength, NONE);
    }

    /**
     * As {@link #render(BsonDocument, int)}, without the top-level fields of the given names (OpenTelemetry's
     * {@code db.query.text} leaves out {@code lsid}, {@code $db}, {@code $clusterTime} and {@code signature}).
     *
     * @param document the document
     * @param maxLength the most characters of JSON to show before {@code " ..."}; 0 for no limit
     * @param skippedTopLevel the names of the top-level fields left out, compared exactly
     * @return the JSON text
     * @throws org.bson.BSONException if the document's bytes are not valid BSON
     */
    public static String render(final BsonDocument document, final int maxLength, final String[] skippedTopLevel) {
        if (document instanceof RawBsonDocument && RawJson.ENABLED) {
            String direct = RawJson.render((RawBsonDocument) document, maxLength, skippedTopLevel);
            if (direct != null) {
                return direct;
            }
            // a type the direct path does not write, or bytes that do not add up: the writer renders or reports them
        }
        return renderByWriter(document, maxLength, skippedTopLevel);
    }

    /** The render through the driver's reader and writer: every type, and the report of bytes that are not BSON. */
    static String renderByWriter(final BsonDocument document, final int maxLength, final String[] skippedTopLevel) {
        // One character past the limit tells a text longer than the limit from one of exactly the limit.
        int writerLimit = maxLength == 0 || maxLength == Integer.MAX_VALUE ? 0 : maxLength + 1;
        Output out = new Output(maxLength == 0 ? 64 : Math.min(maxLength, 4096) + ELLIPSIS.length() + 1);
        // No indentation is written, but each nested context would still build its own indentation string, longer at
        // each level (work and memory quadratic in the depth): empty, they stay a few bytes.
        JsonWriter writer = new JsonWriter(out, JsonWriterSettings.builder().outputMode(JsonMode.RELAXED)
                .indentCharacters("").maxLength(writerLimit).build());
        BsonReader reader;
        if (document instanceof RawBsonDocument) {
            // The document's own reader would decode it whole, recursively, through a codec: read its bytes instead.
            BoundedInput input = new BoundedInput((RawBsonDocument) document, out, writerLimit);
            reader = new BoundedReader(input, out, writerLimit);
        } else {
            reader = document.asBsonReader();
        }
        try {
            pipe(reader, writer, out, maxLength, skippedTopLevel);
            if (reader instanceof BoundedReader && ((BoundedInput) ((BoundedReader) reader).getBsonInput()).cutInside
                    && !isFull(writer, out, maxLength)) {
                // never reached: a name cut inside fills the output; reading on would read from inside that name
                throw new IllegalStateException("a cut name did not fill the output, length=" + out.length());
            }
        } finally {
            reader.close();
        }
        return finish(out, maxLength);
    }

    /** Cuts a text longer than the limit: its first {@code maxLength} characters, no partial character, {@code " ..."}. */
    private static String finish(final Output out, final int maxLength) {
        if (maxLength > 0 && out.length() > maxLength) {
            out.builder.setLength(maxLength);
            out.dropPartialCharacter();
            out.builder.append(ELLIPSIS);
        }
        return out.builder.toString();
    }

    /**
     * Copies the reader's document to the writer with an explicit stack of frames (true: an array), the same calls in the
     * same order as {@code JsonWriter.pipe} makes recursively, until the output holds more than {@code maxLength}.
     */
    private static void pipe(final BsonReader reader, final JsonWriter writer, final Output out, final int maxLength,
                             final String[] skippedTopLevel) {
        boolean[] arrays = new boolean[16];
        int depth = 0;
        reader.readStartDocument();
        writer.writeStartDocument();
        arrays[depth++] = false;
        while (depth > 0 && !isFull(writer, out, maxLength)) {
            BsonType type = reader.readBsonType();
            if (type == BsonType.END_OF_DOCUMENT) {
                if (arrays[--depth]) {
                    reader.readEndArray();
                    writer.writeEndArray();
                } else {
                    reader.readEndDocument();
                    writer.writeEndDocument();
                }
                continue;
            }
            if (!arrays[depth - 1]) {
                String name = reader.readName();
                if (depth == 1 && isSkipped(name, skippedTopLevel)) {
                    reader.skipValue();
                    continue;
                }
                writer.writeName(name);
                if (isFull(writer, out, maxLength)) {
                    return; // the name may have been cut inside: read nothing after it
                }
            }
            boolean opensArray = type == BsonType.ARRAY;
            if (type == BsonType.DOCUMENT) {
                reader.readStartDocument();
                writer.writeStartDocument();
            } else if (opensArray) {
                reader.readStartArray();
                writer.writeStartArray();
            } else if (type == BsonType.JAVASCRIPT_WITH_SCOPE) {
                writer.writeJavaScriptWithScope(reader.readJavaScriptWithScope());
                if (isFull(writer, out, maxLength)) {
                    return;
                }
                reader.readStartDocument(); // the scope, closed (with the code's object) by the writer's end of document
                writer.writeStartDocument();
            } else {
                pipeScalar(reader, writer, type);
                continue;
            }
            if (depth == arrays.length) {
                arrays = Arrays.copyOf(arrays, depth * 2);
            }
            arrays[depth++] = opensArray;
        }
    }

    private static boolean isSkipped(final String name, final String[] skipped) {
        for (String candidate : skipped) {
            if (candidate.equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** Copies one value that holds no other: the reader's and the writer's calls for its type, as the driver's pipe. */
    private static void pipeScalar(final BsonReader reader, final JsonWriter writer, final BsonType type) {
        switch (type) {
            case DOUBLE:
                writer.writeDouble(reader.readDouble());
                break;
            case STRING:
                writer.writeString(reader.readString());
                break;
            case BINARY:
                writer.writeBinaryData(reader.readBinaryData());
                break;
            case OBJECT_ID:
                writer.writeObjectId(reader.readObjectId());
                break;
            case BOOLEAN:
                writer.writeBoolean(reader.readBoolean());
                break;
            case DATE_TIME:
                writer.writeDateTime(reader.readDateTime());
                break;
            case NULL:
                reader.readNull();
                writer.writeNull();
                break;
            case REGULAR_EXPRESSION:
                writer.writeRegularExpression(reader.readRegularExpression());
                break;
            case JAVASCRIPT:
                writer.writeJavaScript(reader.readJavaScript());
                break;
            case SYMBOL:
                writer.writeSymbol(reader.readSymbol());
                break;
            case INT32:
                writer.writeInt32(reader.readInt32());
                break;
            case TIMESTAMP:
                writer.writeTimestamp(reader.readTimestamp());
                break;
            case INT64:
                writer.writeInt64(reader.readInt64());
                break;
            case DECIMAL128:
                writer.writeDecimal128(reader.readDecimal128());
                break;
            default:
                pipeLessCommon(reader, writer, type);
        }
    }

    /** The scalar types commands rarely hold, apart so that {@link #pipeScalar} stays short. */
    private static void pipeLessCommon(final BsonReader reader, final JsonWriter writer, final BsonType type) {
        switch (type) {
            case UNDEFINED:
                reader.readUndefined();
                writer.writeUndefined();
                break;
            case MIN_KEY:
                reader.readMinKey();
                writer.writeMinKey();
                break;
            case DB_POINTER:
                writer.writeDBPointer(reader.readDBPointer());
                break;
            case MAX_KEY:
                reader.readMaxKey();
                writer.writeMaxKey();
                break;
            default:
                throw new BsonSerializationException("unhandled BSON type " + type);
        }
    }

    /** @return whether the output holds what is to be shown: nothing more needs to be read */
    private static boolean isFull(final JsonWriter writer, final Output out, final int maxLength) {
        return writer.isTruncated() || (maxLength > 0 && out.length() > maxLength);
    }

    /**
     * @param text a text, such as a failure's
     * @param maxLength the most characters to show before {@code " ..."}; 0 for no limit
     * @return the text, or, when longer than {@code maxLength}, its first {@code maxLength} characters (one fewer rather than
     *         half of a surrogate pair) and {@code " ..."}
     */
    public static String cut(final String text, final int maxLength) {
        if (maxLength == 0 || text.length() <= maxLength) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(maxLength - 1)) ? maxLength - 1 : maxLength;
        return text.substring(0, end) + ELLIPSIS;
    }

    /**
     * @param text a text cut at {@code length} characters
     * @param length where it was cut
     * @return the length without what the cut left of a character: half of a surrogate pair, a partial escape
     *         ({@code \\}, {@code \\ud83}), or the first escape of an escaped surrogate pair ({@code \\ud83d} without its
     *         {@code \\ude00})
     */
    static int withoutPartialCharacter(final CharSequence text, final int length) {
        int kept = length;
        if (kept > 0 && Character.isHighSurrogate(text.charAt(kept - 1))) {
            kept--;
        }
        // a partial escape first, then what it may leave: the first half of an escaped pair
        int before;
        do {
            before = kept;
            kept = withoutLastPartialEscape(text, kept);
        } while (kept != before);
        return kept;
    }

    private static int withoutLastPartialEscape(final CharSequence b, final int length) {
        for (int start = length - 1; start >= 0 && start >= length - 6; start--) {
            if (b.charAt(start) != '\\' || !startsEscape(b, start)) {
                continue;
            }
            int escapeLength = length - start;
            if (escapeLength == 1 || (b.charAt(start + 1) == 'u' && escapeLength < 6)
                    || (escapeLength == 6 && b.charAt(start + 1) == 'u' && isHighSurrogateEscape(b, start))) {
                return start;
            }
            return length;
        }
        return length;
    }

    private static boolean isHighSurrogateEscape(final CharSequence b, final int start) {
        int value = 0;
        for (int i = start + 2; i < start + 6; i++) {
            int digit = Character.digit(b.charAt(i), 16);
            if (digit < 0) {
                return false;
            }
            value = value * 16 + digit;
        }
        return Character.isHighSurrogate((char) value);
    }

    /** @return whether the backslash at {@code index} starts an escape (is not itself escaped) */
    private static boolean startsEscape(final CharSequence b, final int index) {
        int backslashes = 0;
        for (int i = index; i >= 0 && b.charAt(i) == '\\'; i--) {
            backslashes++;
        }
        return (backslashes & 1) == 1;
    }

    /** A {@link Writer} into a {@link StringBuilder} that knows how much it holds. */
    static final class Output extends Writer {
        final StringBuilder builder;

        Output(final int capacity) {
            builder = new StringBuilder(capacity);
        }

        int length() {
            return builder.length();
        }

        /** Drops what the cut left of a character, as {@link TruncatedJson#withoutPartialCharacter} tells. */
        void dropPartialCharacter() {
            builder.setLength(withoutPartialCharacter(builder, builder.length()));
        }

        @Override
        public void write(final int c) {
            builder.append((char) c);
        }

        @Override
        public void write(final char[] chars, final int off, final int len) {
            builder.append(chars, off, len);
        }

        @Override
        public void write(final String str, final int off, final int len) {
            builder.append(str, off, off + len);
        }

        @Override
        public void write(final String str) {
            builder.append(str);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
