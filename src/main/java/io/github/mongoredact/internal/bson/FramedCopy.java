package io.github.mongoredact.internal.bson;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.ByteBuf;
import org.bson.RawBsonDocument;

import java.util.function.BiConsumer;


/**
 * The verbatim copy of a command whose top level the driver built as a plain {@link BsonDocument} (insert, update, delete:
 * each document sequence appended as an array of its byte-backed documents), as BSON in one array of exactly its size.
 *
 * <p>The size first, without reading the sequence documents where their buffers tell it ({@link DocumentBytes#sequenceSize}:
 * O(1) per sequence), then one pass that copies each sequence document whole and checks its framing in the same step, while
 * its bytes are at hand. What is checked:</p>
 * <ul>
 *     <li>the top level, which sinks interpret (command name, {@code $db}): encoded from its values by {@link PlainEncoder},
 *     so it is well-formed by construction (keys without NUL, nesting at most {@link BsonBounds#MAX_DEPTH});</li>
 *     <li>each copied document: its length prefix at least 5 and within the bytes the driver holds for it (equal to them for a
 *     {@link RawBsonDocument}), and its last byte the terminating NUL.</li>
 * </ul>
 * <p>Nothing inside a copied document is read: a corruption inside a well-framed document is copied as the driver holds it,
 * so the output is the exact bytes the driver sent, and every reader of it can walk from one document to the next.</p>
 *
 * <p>Stateless and thread-safe; the {@link PlainEncoder} passed in is the caller's (its pooled workspace's). Valid only while the driver's
 * callback runs: nothing keeps a reference to the driver's buffers.</p>
 */
public final class FramedCopy {
    /** The largest array every JVM allocates. */
    static final long MAX_SIZE = Integer.MAX_VALUE - 8;

    private FramedCopy() {
    }

    /**
     * @param command a plain top level (not byte-backed), sequences appended as arrays
     * @return its BSON in an array of exactly its size
     * @throws BsonFormatException where a copied document's framing is broken, or the command is too large for one array
     */
    public static byte[] copy(final BsonDocument command, final PlainEncoder encoder) {
        TopLevel top = encoder.topLevel;
        try {
            byte[] out = new byte[checkedSize(top.size(command, true))];
            int written = top.write(command, out);
            if (written != out.length) {
                // sized from the ends of a sequence whose documents do not fill the span between them (not the driver's
                // layout): sized document by document and written again
                out = new byte[checkedSize(top.size(command, false))];
                written = top.write(command, out);
                if (written != out.length) {
                    throw new BsonFormatException("command changed while copied: size=" + out.length + " written=" + written);
                }
            }
            return out;
        } finally {
            top.clear();
        }
    }

    /**
     * @param fromEnds whether a sequence is sized from its first and last documents where their buffers tell it
     * @return the exact size of the command as BSON
     */
    static long size(final BsonDocument command, final PlainEncoder encoder, final boolean fromEnds) {
        return encoder.topLevel.size(command, fromEnds);
    }

    private static long arraySize(final BsonArray array, final PlainEncoder encoder, final boolean fromEnds) {
        if (fromEnds) {
            int size = DocumentBytes.sequenceSize(array);
            if (size >= 0) {
                return size;
            }
        }
        int n = array.size();
        long size = 4 + 1;
        for (int i = 0; i < n; i++) {
            BsonValue value = array.get(i);
            size += 2 + Bytes.digits(i) + (isCopied(value) ? DocumentBytes.length((BsonDocument) value)
                    : encoder.valueSize(value, 1));
        }
        return size;
    }

    /** @return the index after the array written at {@code index}, or -1 when it does not fit before {@code limit} */
    private static int writeArray(final BsonArray array, final PlainEncoder encoder, final byte[] dst, final int index,
                                  final int limit) {
        int n = array.size();
        int p = index + 4;
        for (int i = 0; i < n; i++) {
            BsonValue value = array.get(i);
            // type byte, decimal key, NUL
            int digits = Bytes.digits(i);
            int at = p + 2 + digits;
            if (at > limit) {
                return -1;
            }
            int written;
            if (isCopied(value)) {
                dst[p] = BsonTypes.DOCUMENT;
                written = copyDocument((BsonDocument) value, dst, at, limit);
            } else {
                dst[p] = (byte) value.getBsonType().getValue();
                written = encoder.valueSize(value, 1) > limit - at ? -1 : encoder.writeValue(value, 1, dst, at);
            }
            if (written < 0) {
                return -1;
            }
            Bytes.writeDigits(dst, p + 1, i);
            dst[at - 1] = 0;
            p = at + written;
        }
        if (p >= limit) {
            return -1;
        }
        dst[p] = 0;
        Bytes.writeInt(dst, index, p + 1 - index);
        return p + 1;
    }

    private static boolean isCopied(final BsonValue value) {
        return value instanceof BsonDocument && DocumentBytes.isByteBacked((BsonDocument) value);
    }

    /**
     * Copies a byte-backed document whole into {@code dst} at {@code index}, its framing checked.
     *
     * @return bytes written
     * @throws BsonFormatException where its framing is broken, or {@code dst} has no room for it
     */
    public static int copyDocument(final BsonDocument document, final byte[] dst, final int index) {
        int written = copyDocument(document, dst, index, dst.length);
        if (written < 0) {
            throw new BsonFormatException("document changed while copied: index=" + index + " capacity=" + dst.length);
        }
        return written;
    }

    /**
     * Copies a byte-backed document whole into {@code dst} at {@code index}, where it must end at or before {@code limit}.
     *
     * @return bytes written, or -1 when it does not fit before {@code limit} (nothing written)
     * @throws BsonFormatException where its framing is broken
     */
    static int copyDocument(final BsonDocument document, final byte[] dst, final int index, final int limit) {
        ByteBuf buf = DocumentBytes.buffer(document);
        if (buf != null) {
            int position = buf.position();
            int length = checkedLength(buf, position);
            if (length > limit - index) {
                return -1;
            }
            byte[] src = DriverApi.array(buf);
            if (src != null) {
                int start = DriverApi.arrayOffset(buf) + position;
                checkTerminated(src, start, length);
                System.arraycopy(src, start, dst, index, length);
            } else {
                buf.get(position, dst, index, length);
                checkTerminated(dst, index, length);
            }
            return length;
        }
        if (document instanceof RawBsonDocument) {
            RawBsonDocument raw = (RawBsonDocument) document;
            byte[] src = DriverApi.rawArray(raw);
            int start = DriverApi.rawOffset(raw);
            int length = checkedLength(src, start, DriverApi.rawLength(raw));
            if (length > limit - index) {
                return -1;
            }
            checkTerminated(src, start, length);
            System.arraycopy(src, start, dst, index, length);
            return length;
        }
        // the driver's document without field access: through its reader
        int length = DocumentBytes.length(document);
        if (length > limit - index) {
            return -1;
        }
        DocumentBytes.copy(document, dst, index);
        checkTerminated(dst, index, length);
        return length;
    }

    /** @return the length prefix of the document at the buffer's position, checked against the bytes the buffer holds */
    private static int checkedLength(final ByteBuf buf, final int position) {
        int available = buf.remaining();
        if (available < 5) {
            throw FramingErrors.truncated(position, "available", available);
        }
        int length = buf.getInt(position);
        if (length < 5 || length > available) {
            throw FramingErrors.lengthOutOfBounds(position, length, "available", available);
        }
        return length;
    }

    /** @return the length of a raw document, whose prefix must say exactly its bytes */
    private static int checkedLength(final byte[] src, final int start, final int length) {
        if (length < 5) {
            throw FramingErrors.truncated(start, "length", length);
        }
        int prefix = Bytes.readInt(src, start);
        if (prefix != length) {
            throw new BsonFormatException("document length prefix does not match its bytes: index=" + start + " prefix="
                    + prefix + " length=" + length);
        }
        return length;
    }

    private static void checkTerminated(final byte[] bytes, final int start, final int length) {
        if (bytes[start + length - 1] != 0) {
            throw FramingErrors.notTerminated(start, length);
        }
    }

    private static int checkedSize(final long size) {
        if (size > MAX_SIZE) {
            throw new BsonFormatException("command too large for one array: size=" + size + " max=" + MAX_SIZE);
        }
        return (int) size;
    }

    /**
     * The top level of a command, sized then written as its map hands its entries over ({@link DocumentEntries#forEach}), with
     * nothing stored per entry. Not thread-safe: one per encoder ({@link PlainEncoder#topLevel}); holds the destination only
     * while a copy runs ({@link #clear}).
     */
    static final class TopLevel implements BiConsumer<String, BsonValue> {
        private static final byte[] NO_DESTINATION = new byte[0];
        private final PlainEncoder encoder;
        /** Whether the entries are written ({@link #write}), else sized ({@link #size}). */
        private boolean writing;
        /** Whether a sequence is sized from its ends. */
        private boolean fromEnds;
        private long size;
        /** The size of the elements that are not arrays, counted by {@link #size}. */
        private long plain;
        /** What of {@link #plain} is still to write. */
        private long plainLeft;
        private byte[] dst = NO_DESTINATION;
        /** The index of the top level's terminating NUL: nothing else is written there or after it. */
        private int limit;
        /** Where the next element goes; -1 once one did not fit. */
        private int p;

        TopLevel(final PlainEncoder encoder) {
            this.encoder = encoder;
        }

        /** @return the exact size of the command as BSON */
        long size(final BsonDocument command, final boolean fromEnds) {
            this.writing = false;
            this.fromEnds = fromEnds;
            this.size = 4 + 1;
            this.plain = 0;
            DocumentEntries.forEach(command, this);
            return size;
        }

        /** @return bytes written, or -1 when the command did not fit the array exactly (a wrong size from a sequence's ends) */
        int write(final BsonDocument command, final byte[] dst) {
            this.writing = true;
            this.dst = dst;
            this.limit = dst.length - 1;
            this.plainLeft = plain;
            this.p = 4;
            DocumentEntries.forEach(command, this);
            int end = p;
            this.dst = NO_DESTINATION;
            if (end < 0) {
                return -1;
            }
            dst[end] = 0;
            Bytes.writeInt(dst, 0, end + 1);
            return end + 1;
        }

        @Override
        public void accept(final String key, final BsonValue value) {
            if (!writing) {
                if (value instanceof BsonArray) {
                    size += 1 + encoder.keySize(key) + arraySize((BsonArray) value, encoder, fromEnds);
                } else {
                    int element = encoder.elementSize(key, value);
                    size += element;
                    plain += element;
                }
            } else if (p >= 0) {
                p = writeElement(key, value);
            }
        }

        /**
         * Writes an element. Only an array can be longer than counted (sized from its ends): it must end before the room of
         * the elements still to write that are not arrays, whose sizes {@link #size} counted from the same values.
         *
         * @return the index after the element, or -1 when it does not fit
         */
        private int writeElement(final String key, final BsonValue value) {
            if (value instanceof BsonArray) {
                long arrayLimit = limit - plainLeft;
                if (1 + encoder.keySize(key) > arrayLimit - p) {
                    return -1;
                }
                dst[p] = BsonTypes.ARRAY;
                int at = p + 1 + encoder.writeKey(key, dst, p + 1);
                return writeArray((BsonArray) value, encoder, dst, at, (int) arrayLimit);
            }
            int written = encoder.writeElement(key, value, dst, p);
            plainLeft -= written;
            return p + written;
        }

        /** Forgets the destination (after a failed copy). */
        void clear() {
            dst = NO_DESTINATION;
        }
    }
}
