package io.github.mongoredact;

import org.bson.BsonBinary;
import org.bson.BsonBinaryReader;
import org.bson.BsonBinarySubType;
import org.bson.BsonDocument;
import org.bson.BsonReader;
import org.bson.BsonSerializationException;
import org.bson.RawBsonDocument;
import org.bson.io.BsonInput;
import org.bson.io.ByteBufferBsonInput;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriter;
import org.bson.json.JsonWriterSettings;

import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * Renders a document as relaxed extended JSON, the way the driver's command log does, cut at a number of characters with
 * {@code " ..."} appended, in time proportional to the limit: the {@link JsonWriter} stops piping once its output is full,
 * and string-like values larger than what is left are decoded only up to what can still be shown. A cut never leaves part
 * of a character: neither half of a surrogate pair nor part of an escape such as {@code \\ud83d\\ude00}, so the text may stop
 * up to 11 characters before the limit where the driver's would show a broken character. Not thread-safe: one instance per call.
 */
final class TruncatedJson {
    /** What the driver appends to a cut document. */
    static final String ELLIPSIS = " ...";

    private TruncatedJson() {
    }

    /**
     * @param document the document
     * @param maxLength the most characters of JSON to show before {@code " ..."}; 0 for no limit, as for the driver
     * @return the JSON text
     */
    static String render(final BsonDocument document, final int maxLength) {
        Output out = new Output(maxLength == 0 ? 64 : Math.min(maxLength, 4096) + ELLIPSIS.length());
        JsonWriter writer = new JsonWriter(out, JsonWriterSettings.builder().outputMode(JsonMode.RELAXED)
                .maxLength(maxLength).build());
        BsonReader reader = document instanceof RawBsonDocument && maxLength > 0
                ? new BoundedReader(new ByteBufferBsonInput(((RawBsonDocument) document).getByteBuffer()), out, maxLength)
                : document.asBsonReader();
        try {
            writer.pipe(reader);
        } finally {
            reader.close();
        }
        if (writer.isTruncated()) {
            out.dropPartialCharacter();
            out.builder.append(ELLIPSIS);
        }
        return out.builder.toString();
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

        /**
         * Drops what the cut left of a character: half of a surrogate pair, a partial escape ({@code \\}, {@code \\ud83}),
         * or the first escape of an escaped surrogate pair ({@code \\ud83d} without its {@code \\ude00}).
         */
        void dropPartialCharacter() {
            StringBuilder b = builder;
            if (b.length() > 0 && Character.isHighSurrogate(b.charAt(b.length() - 1))) {
                b.setLength(b.length() - 1);
            }
            // a partial escape first, then what it may leave: the first half of an escaped pair
            while (dropLastPartialEscape(b)) {
                continue;
            }
        }

        private static boolean dropLastPartialEscape(final StringBuilder b) {
            int length = b.length();
            for (int start = length - 1; start >= 0 && start >= length - 6; start--) {
                if (b.charAt(start) != '\\' || !startsEscape(b, start)) {
                    continue;
                }
                int escapeLength = length - start;
                if (escapeLength == 1 || (b.charAt(start + 1) == 'u' && escapeLength < 6)
                        || (escapeLength == 6 && b.charAt(start + 1) == 'u'
                        && Character.isHighSurrogate((char) Integer.parseInt(b.substring(start + 2, start + 6), 16)))) {
                    b.setLength(start);
                    return true;
                }
                return false;
            }
            return false;
        }

        /** @return whether the backslash at {@code index} starts an escape (is not itself escaped) */
        private static boolean startsEscape(final StringBuilder b, final int index) {
            int backslashes = 0;
            for (int i = index; i >= 0 && b.charAt(i) == '\\'; i--) {
                backslashes++;
            }
            return (backslashes & 1) == 1;
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

    /**
     * A reader over the bytes of an owned document that, for strings, JavaScript, symbols and binary data, reads only as much
     * of a value as could still be shown and skips the rest. What it returns is a prefix of the real value at least as long as
     * the JSON output has room for, so the cut output is the same as with the whole value.
     */
    static final class BoundedReader extends BsonBinaryReader {
        /** Bytes of UTF-8 per UTF-16 code unit, at most. */
        private static final int MAX_BYTES_PER_UNIT = 3;
        private final Output out;
        private final int maxLength;
        private byte[] buffer = new byte[64];

        BoundedReader(final BsonInput input, final Output out, final int maxLength) {
            super(input);
            this.out = out;
            this.maxLength = maxLength;
        }

        /** @return how many more characters the output can take, plus a margin */
        private int room() {
            return Math.max(0, maxLength - out.length()) + 2;
        }

        @Override
        protected String doReadString() {
            return readBoundedString();
        }

        @Override
        protected String doReadJavaScript() {
            return readBoundedString();
        }

        @Override
        protected String doReadSymbol() {
            return readBoundedString();
        }

        private String readBoundedString() {
            BsonInput input = getBsonInput();
            int size = input.readInt32();
            if (size <= 0) {
                throw new BsonSerializationException("invalid string size " + size);
            }
            long wanted = (long) room() * MAX_BYTES_PER_UNIT;
            if (size - 1 <= wanted) {
                byte[] bytes = buffer(size);
                input.readBytes(bytes, 0, size);
                if (bytes[size - 1] != 0) {
                    throw new BsonSerializationException("string not terminated by a null byte, size " + size);
                }
                return new String(bytes, 0, size - 1, StandardCharsets.UTF_8);
            }
            int read = (int) wanted;
            byte[] bytes = buffer(read);
            input.readBytes(bytes, 0, read);
            input.skip(size - read);
            // A character cut at the end decodes as U+FFFD, past what the output can show.
            return new String(bytes, 0, read, StandardCharsets.UTF_8);
        }

        @Override
        protected BsonBinary doReadBinaryData() {
            BsonInput input = getBsonInput();
            int size = input.readInt32();
            byte type = input.readByte();
            if (type == BsonBinarySubType.OLD_BINARY.getValue()) {
                int repeated = input.readInt32();
                if (repeated != size - 4) {
                    throw new BsonSerializationException("old binary size " + repeated + " does not match " + size);
                }
                size -= 4;
            }
            // base64 shows 4 characters per 3 bytes: a multiple of 3 bytes keeps the shown prefix exact.
            long wanted = 3L * ((room() + 3) / 4 + 1);
            if (size <= wanted || size <= 64) {
                byte[] bytes = new byte[size];
                input.readBytes(bytes);
                return new BsonBinary(type, bytes);
            }
            byte[] bytes = new byte[(int) wanted];
            input.readBytes(bytes);
            input.skip(size - (int) wanted);
            return new BsonBinary(type, bytes);
        }

        private byte[] buffer(final int size) {
            if (buffer.length < size) {
                buffer = new byte[Math.max(size, buffer.length * 2)];
            }
            return buffer;
        }
    }
}
