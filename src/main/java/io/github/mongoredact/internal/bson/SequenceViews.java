package io.github.mongoredact.internal.bson;

import com.mongodb.lang.Nullable;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.ByteBuf;
import org.bson.RawBsonDocument;

import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * The document sequences of a plain top level (the arrays of byte-backed documents the driver appends after {@code $db}),
 * left where they lie: each document's heap array, offset and length, framing checked as {@link FramedCopy} checks it when it
 * copies them; and the top level encoded with each sequence as an empty array, whose value's index {@link #place} records, so
 * that a walk reads the top level from a scratch and the sequence documents from the driver's own arrays.
 *
 * <p>A top-level array is a sequence here when it holds at least one document and only byte-backed documents; one of them
 * not in a heap array (a direct buffer, or no field access) makes {@link #sizeAndWrite} answer -1: the command is then gathered whole.
 * Not thread-safe: one per walker, reused (its arrays grow to the largest command seen). {@link #clear()} forgets the driver's
 * arrays; call it at the end of every call.</p>
 */
public final class SequenceViews {
    /** Per sequence, {@link #SEQUENCE} ints: the index of its first document, its top-level entry, where it is placed. */
    private static final int SEQUENCE = 3;
    private static final int ENTRY = 1;
    private static final int PLACE = 2;
    private byte[][] arrays = new byte[16][];
    /** Per document: its offset and length in its array. */
    private int[] spans = new int[2 * 16];
    private int documents;
    private int[] sequenceInts = new int[SEQUENCE * 4];
    private int sequences;
    /** What the sequences add to the top level's size beyond their empty arrays: each document with its element head. */
    private long sequenceBytes;
    private final Pass pass = new Pass();
    /** Whether the last {@link #sizeAndWrite} wrote all of the top level. */
    private boolean written;

    /**
     * Sizes the top level with each sequence as an empty array and reaches every sequence document, framing checked; in the
     * same pass over the entries, writes the top level at {@code index} of {@code dst} while it fits there ({@link #written()}
     * says whether all of it did), each element sized before it is written.
     *
     * @param dst where to write, or null to size only
     * @return the size of the top level so encoded, or -1 when a sequence document is not in a heap array (nothing held)
     * @throws BsonFormatException where a sequence document's framing is broken, or as {@link PlainEncoder} refuses
     */
    public int sizeAndWrite(final BsonDocument top, final PlainEncoder encoder, @Nullable final byte[] dst, final int index) {
        clear();
        Pass pass = begin(encoder, dst, index + 4);
        pass.sizing = true;
        pass.fits = dst != null;
        try {
            DocumentEntries.forEach(top, pass);
            if (pass.unreachable) {
                clear();
                written = false;
                return -1;
            }
            long size = 4 + 1 + pass.size;
            if (size + sequenceBytes > FramedCopy.MAX_SIZE) {
                throw new BsonFormatException("command too large for one array: size=" + (size + sequenceBytes) + " max="
                        + FramedCopy.MAX_SIZE);
            }
            if (pass.fits && dst != null) {
                // room for the terminator: the elements fit before dst.length - 1
                dst[pass.at] = 0;
                Bytes.writeInt(dst, index, (int) size);
            }
            written = pass.fits;
            return (int) size;
        } finally {
            pass.end();
        }
    }

    /** @return whether the last {@link #sizeAndWrite} wrote the whole top level (it had room and every document was reached) */
    public boolean written() {
        return written;
    }

    /**
     * Writes the top level {@link #sizeAndWrite} sized at {@code index} of {@code dst}, each sequence as an empty array.
     *
     * @return bytes written
     */
    public int write(final BsonDocument top, final PlainEncoder encoder, final byte[] dst, final int index) {
        Pass pass = begin(encoder, dst, index + 4);
        try {
            DocumentEntries.forEach(top, pass);
            int p = pass.at;
            dst[p++] = 0;
            Bytes.writeInt(dst, index, p - index);
            return p - index;
        } finally {
            pass.end();
        }
    }

    private Pass begin(final PlainEncoder encoder, @Nullable final byte[] dst, final int at) {
        pass.encoder = encoder;
        pass.dst = dst;
        pass.at = at;
        pass.entry = 0;
        pass.sequence = 0;
        pass.size = 0;
        pass.unreachable = false;
        pass.sizing = false;
        pass.fits = false;
        return pass;
    }

    /** @return the size of the command as sent, sequences whole, given the size {@link #sizeAndWrite} returned */
    public long inputLength(final int topSize) {
        return topSize + sequenceBytes;
    }

    /** @return the number of sequences held */
    public int sequences() {
        return sequences;
    }

    /** @return the sequence whose empty array's value lies at {@code valueIndex} of the written top level, or -1 */
    public int at(final int valueIndex) {
        for (int s = 0; s < sequences; s++) {
            if (sequenceInts[SEQUENCE * s + PLACE] == valueIndex) {
                return s;
            }
        }
        return -1;
    }

    /** @return the index of the first document of sequence {@code s} */
    public int first(final int s) {
        return sequenceInts[SEQUENCE * s];
    }

    /** @return the index after the last document of sequence {@code s} */
    public int end(final int s) {
        return s + 1 < sequences ? sequenceInts[SEQUENCE * (s + 1)] : documents;
    }

    /** @return the array that holds document {@code j} (a driver buffer's: read only during the callback) */
    public byte[] array(final int j) {
        return arrays[j];
    }

    /** @return where document {@code j} starts in its {@link #array} */
    public int offset(final int j) {
        return spans[2 * j];
    }

    /** @return the length of document {@code j} */
    public int length(final int j) {
        return spans[2 * j + 1];
    }

    /** Forgets the sequences, and with them every reference to the driver's arrays. */
    public void clear() {
        Arrays.fill(arrays, 0, documents, null);
        documents = 0;
        sequences = 0;
        sequenceBytes = 0;
    }

    /** Writes sequence {@code s}'s place: an empty array under its key, its value's index recorded. @return the end */
    private int emptyArray(final String key, final PlainEncoder encoder, final byte[] out, final int index, final int s) {
        int at = index;
        out[at] = BsonTypes.ARRAY;
        at += 1 + encoder.writeKey(key, out, at + 1);
        sequenceInts[SEQUENCE * s + PLACE] = at;
        Bytes.writeInt(out, at, 5);
        out[at + 4] = 0;
        return at + 5;
    }

    /**
     * @return the most bytes an element of a scalar value of fixed size or a string takes (type byte, key and NUL at 3 bytes
     *         a character at most, value), or -1 for any other value
     */
    private static long scalarBound(final String key, final BsonValue value) {
        long element = 1 + 3L * key.length() + 1;
        switch (value.getBsonType()) {
            case STRING:
                return element + 4 + 3L * ((BsonString) value).getValue().length() + 1;
            case BOOLEAN:
                return element + 1;
            case INT32:
                return element + 4;
            case INT64:
            case DOUBLE:
            case DATE_TIME:
            case TIMESTAMP:
                return element + 8;
            case NULL:
                return element;
            case OBJECT_ID:
                return element + 12;
            default:
                return -1;
        }
    }

    /** @return the value as a sequence (an array of at least one document, all byte-backed), or null when it is not one */
    @Nullable
    private static BsonArray sequenceOf(final BsonValue value) {
        if (!(value instanceof BsonArray)) {
            return null;
        }
        BsonArray array = (BsonArray) value;
        int n = array.size();
        for (int i = 0; i < n; i++) {
            BsonValue element = array.get(i);
            if (!(element instanceof BsonDocument) || !DocumentBytes.isByteBacked((BsonDocument) element)) {
                return null;
            }
        }
        return n > 0 ? array : null;
    }

    /** @return false when a document is not in a heap array */
    private boolean reach(final BsonArray array, final int entry) {
        int at = SEQUENCE * sequences;
        if (at == sequenceInts.length) {
            sequenceInts = Arrays.copyOf(sequenceInts, 2 * at);
        }
        sequenceInts[at] = documents;
        sequenceInts[at + ENTRY] = entry;
        sequenceInts[at + PLACE] = -1;
        sequences++;
        int n = array.size();
        for (int i = 0; i < n; i++) {
            if (!reach((BsonDocument) array.get(i))) {
                return false;
            }
            // type byte, decimal key, NUL, the document
            sequenceBytes += 2 + Bytes.digits(i) + length(documents - 1);
        }
        return true;
    }

    /**
     * Reaches one document, its frame checked as {@link FramedCopy} checks it: its length prefix at least 5 and within the
     * bytes its buffer holds (exactly those of a raw document), its last byte NUL.
     */
    private boolean reach(final BsonDocument document) {
        byte[] array;
        int start;
        int available;
        boolean raw = document instanceof RawBsonDocument;
        if (raw) {
            RawBsonDocument rawDocument = (RawBsonDocument) document;
            array = DriverApi.rawArray(rawDocument);
            start = DriverApi.rawOffset(rawDocument);
            available = DriverApi.rawLength(rawDocument);
        } else {
            ByteBuf buf = DocumentBytes.buffer(document);
            array = buf == null ? null : DriverApi.array(buf);
            if (array == null) {
                return false;
            }
            start = DriverApi.arrayOffset(buf) + buf.position();
            available = buf.remaining();
        }
        if (available < 5) {
            throw FramingErrors.truncated(start, "available", available);
        }
        int length = Bytes.readInt(array, start);
        if (length < 5 || length > available || raw && length != available) {
            throw FramingErrors.lengthOutOfBounds(start, length, "available", available);
        }
        if (array[start + length - 1] != 0) {
            throw FramingErrors.notTerminated(start, length);
        }
        if (documents == arrays.length) {
            arrays = Arrays.copyOf(arrays, 2 * documents);
            spans = Arrays.copyOf(spans, 4 * documents);
        }
        arrays[documents] = array;
        spans[2 * documents] = start;
        spans[2 * documents + 1] = length;
        documents++;
        return true;
    }

    /**
     * One pass over the top level's entries as its map hands them over ({@link DocumentEntries#forEach}): sizing (no
     * destination), or writing into {@code dst} from {@code at}. Holds the caller's arrays only during the pass.
     */
    private final class Pass implements BiConsumer<String, BsonValue> {
        @Nullable
        private PlainEncoder encoder;
        @Nullable
        private byte[] dst;
        private int at;
        private int entry;
        private int sequence;
        private long size;
        private boolean unreachable;
        /** Sizing, and writing while {@link #fits}; else writing what a sizing pass sized. */
        private boolean sizing;
        private boolean fits;

        @Override
        public void accept(final String key, final BsonValue value) {
            int i = entry++;
            PlainEncoder e = encoder();
            if (sizing) {
                if (!unreachable) {
                    sizeAndWrite(i, key, value, e);
                }
            } else if (sequence < sequences && sequenceInts[SEQUENCE * sequence + ENTRY] == i) {
                at = emptyArray(key, e, destination(), at, sequence++);
            } else {
                at += e.writeElement(key, value, destination(), at);
            }
        }

        /** Sizes the entry (reaching a sequence's documents) and writes it when it fits before the terminator. */
        private void sizeAndWrite(final int i, final String key, final BsonValue value, final PlainEncoder e) {
            BsonArray sequenceArray = sequenceOf(value);
            long elementSize;
            if (sequenceArray != null) {
                if (!reach(sequenceArray, i)) {
                    unreachable = true;
                    fits = false;
                    return;
                }
                elementSize = 1 + e.keySize(key) + 4 + 1;
            } else {
                byte[] out = dst;
                long bound = scalarBound(key, value);
                if (fits && out != null && bound >= 0 && at + bound < out.length) {
                    // a scalar with room for the most it can take: written, and sized by what it took
                    int written = e.writeElement(key, value, out, at);
                    size += written;
                    at += written;
                    return;
                }
                elementSize = e.elementSize(key, value);
            }
            size += elementSize;
            byte[] out = dst;
            if (!fits || out == null || at + elementSize >= out.length) {
                fits = false;
            } else if (sequenceArray != null) {
                at = emptyArray(key, e, out, at, sequences - 1);
            } else {
                at += e.writeElement(key, value, out, at);
            }
        }

        private byte[] destination() {
            byte[] out = dst;
            if (out == null) {
                throw new IllegalStateException("no destination: write() is called with one");
            }
            return out;
        }

        private PlainEncoder encoder() {
            PlainEncoder e = encoder;
            if (e == null) {
                throw new IllegalStateException("no encoder: a pass runs only inside size() or write()");
            }
            return e;
        }

        void end() {
            encoder = null;
            dst = null;
        }
    }
}
