package io.github.mongoredact.internal.bson;

import com.mongodb.lang.Nullable;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.ByteBuf;
import org.bson.RawBsonDocument;

import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * The document sequences of a plain top level (the arrays of byte-backed documents the driver appends after {@code $db}),
 * left where they lie: each document's heap array, offset and length, its frame checked; and the top level encoded into a
 * scratch with each sequence as an empty array, whose value's index {@link #place} records, so that a walk reads the top level
 * from the scratch and the sequence documents from the driver's own arrays.
 *
 * <p>A top-level array is a sequence here when it holds at least one document and only byte-backed documents; one of them
 * not in a heap array (a direct buffer, or no field access) is copied into a scratch of the caller's, its frame checked as it
 * is copied, and read there. Not thread-safe: one per walker, reused (its arrays grow to the largest command seen).
 * {@link #clear()} forgets the driver's arrays; call it at the end of every call.</p>
 */
public final class SequenceViews {
    /** Per sequence, {@link #SEQUENCE} ints: the index of its first document, its top-level entry, where it is placed. */
    private static final int SEQUENCE = 3;
    private static final int ENTRY = 1;
    private static final int PLACE = 2;
    /** The room the top level's scratch starts with: the driver's top levels are a few dozen bytes. */
    private static final int FIRST_ROOM = 512;
    /**
     * The arrays the documents lie in, one per run of consecutive documents in the same array (the driver's sequence lies in
     * one buffer, or a few): a reference stored into this pooled, long-lived object costs the collector's write barrier, so
     * one is stored per run, not per document. A run of documents not in a heap array is null until {@link #gather}.
     */
    private byte[][] arrays = new byte[4][];
    private int runs;
    /** Per document: the run whose array holds it. */
    private int[] runOf = new int[16];
    /** Per document not in a heap array, until {@link #gather}: the document, copied there; null for the others. */
    private BsonDocument[] pending = new BsonDocument[16];
    /** The bytes of the pending documents, and whether any is pending. */
    private long pendingBytes;
    private boolean anyPending;
    /** Per document: its offset and length in its array. */
    private int[] spans = new int[2 * 16];
    private int documents;
    private int[] sequenceInts = new int[SEQUENCE * 4];
    private int sequences;
    /** What the sequences add to the top level's size beyond their empty arrays: each document with its element head. */
    private long sequenceBytes;
    private final Pass pass = new Pass();
    /** Where the top level is encoded. */
    private final Output top = new Output();

    /**
     * Encodes the top level from the start of {@code input}'s scratch (grown where it needs more room: {@link #placed()} is
     * where it ends up), each sequence as an empty array, and reaches every sequence document, its frame checked; one not in a
     * heap array is copied into {@code gathered}'s array and read there.
     *
     * @return the size of the top level so encoded
     * @throws BsonFormatException where a sequence document's frame is broken, the command is too large for one array, or as
     *                             {@link PlainEncoder} refuses
     */
    public int place(final BsonDocument command, final PlainEncoder encoder, final Workspace.Scratch input,
                     final Workspace.Scratch gathered) {
        clear();
        Output out = top;
        out.growing(input, input.array(FIRST_ROOM), 0);
        pass.begin(encoder, out);
        try {
            out.reserveInt();
            DocumentEntries.forEach(command, pass);
            out.putByte((byte) 0);
            out.patchLength(0, 0);
            int size = out.position();
            if (size + sequenceBytes > Workspace.MAX_ARRAY) {
                throw new BsonFormatException("command too large for one array: size=" + (size + sequenceBytes) + " max="
                        + Workspace.MAX_ARRAY);
            }
            if (anyPending) {
                gather(gathered);
            }
            return size;
        } finally {
            pass.end();
        }
    }

    /** @return the array {@link #place} encoded the top level into, from index 0 (a scratch's: valid until released) */
    public byte[] placed() {
        return top.array();
    }

    /** Copies the documents not in a heap array into one array of {@code gathered}, each framed, and reads them there. */
    private void gather(final Workspace.Scratch gathered) {
        if (pendingBytes > Workspace.MAX_ARRAY) {
            throw new BsonFormatException("command too large for one array: size=" + pendingBytes + " max="
                    + Workspace.MAX_ARRAY);
        }
        byte[] array = gathered.array((int) pendingBytes);
        int at = 0;
        for (int j = 0; j < documents; j++) {
            BsonDocument document = pending[j];
            if (document != null) {
                pending[j] = null;
                int length = DocumentBytes.copy(document, array, at);
                if (length != spans[2 * j + 1]) {
                    throw new BsonFormatException("document changed while copied: length=" + length + " sized="
                            + spans[2 * j + 1]);
                }
                if (array[at + length - 1] != 0) {
                    throw FramingErrors.notTerminated(at, length);
                }
                arrays[runOf[j]] = array;
                spans[2 * j] = at;
                at += length;
            }
        }
        anyPending = false;
        pendingBytes = 0;
    }

    /** @return the size of the command as sent, sequences whole, given the size {@link #place} returned */
    public long inputLength(final int topSize) {
        return topSize + sequenceBytes;
    }

    /** @return the number of sequences held */
    public int sequences() {
        return sequences;
    }

    /** @return where the empty array that holds sequence {@code s}'s place lies in the written top level (its value) */
    public int place(final int s) {
        return sequenceInts[SEQUENCE * s + PLACE];
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
        return arrays[runOf[j]];
    }

    /** @return where document {@code j} starts in its {@link #array} */
    public int offset(final int j) {
        return spans[2 * j];
    }

    /** @return the length of document {@code j} */
    public int length(final int j) {
        return spans[2 * j + 1];
    }

    /** Forgets the sequences, and with them every reference to the driver's arrays, and the scratch of the top level. */
    public void clear() {
        top.clear();
        Arrays.fill(arrays, 0, runs, null);
        runs = 0;
        if (anyPending) {
            Arrays.fill(pending, 0, documents, null);
            anyPending = false;
            pendingBytes = 0;
        }
        documents = 0;
        sequences = 0;
        sequenceBytes = 0;
    }

    /** Writes sequence {@code s}'s place: an empty array under its key, its value's index recorded. */
    private void emptyArray(final String key, final PlainEncoder encoder, final Output out, final int s) {
        out.putByte(BsonTypes.ARRAY);
        encoder.writeKey(key, out);
        sequenceInts[SEQUENCE * s + PLACE] = out.position();
        out.putInt(5);
        out.putByte((byte) 0);
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

    /** Reaches the documents of a sequence. */
    private void reach(final BsonArray array, final int entry) {
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
            reach((BsonDocument) array.get(i));
            // type byte, decimal key, NUL, the document
            sequenceBytes += 2 + Bytes.digits(i) + length(documents - 1);
        }
    }

    /**
     * Reaches one document, its frame checked: its length prefix at least 5 and within the bytes its buffer holds (exactly
     * those of a raw document), its last byte NUL. One not in a heap array waits for {@link #gather}.
     */
    private void reach(final BsonDocument document) {
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
                pend(document);
                return;
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
        add(array, start, length);
    }

    /** A document not in a heap array: its length now (checked as the copy checks it), its bytes at {@link #gather}. */
    private void pend(final BsonDocument document) {
        int length = DocumentBytes.length(document);
        add(null, -1, length);
        pending[documents - 1] = document;
        pendingBytes += length;
        anyPending = true;
    }

    private void add(@Nullable final byte[] array, final int start, final int length) {
        if (documents == runOf.length) {
            runOf = Arrays.copyOf(runOf, 2 * documents);
            pending = Arrays.copyOf(pending, 2 * documents);
            spans = Arrays.copyOf(spans, 4 * documents);
        }
        if (runs == 0 || arrays[runs - 1] != array) {
            if (runs == arrays.length) {
                arrays = Arrays.copyOf(arrays, 2 * runs);
            }
            arrays[runs++] = array;
        }
        runOf[documents] = runs - 1;
        spans[2 * documents] = start;
        spans[2 * documents + 1] = length;
        documents++;
    }

    /**
     * One pass over the top level's entries as its map hands them over ({@link DocumentEntries#forEach}): each written, a
     * sequence as its empty array with its documents reached. Uses the caller's encoder and output only during the pass.
     */
    private final class Pass implements BiConsumer<String, BsonValue> {
        @Nullable
        private PlainEncoder encoder;
        @Nullable
        private Output out;
        private int entry;
        /** Whether a pass is under way: the encoder and output, kept, are used only then. */
        private boolean passing;

        void begin(final PlainEncoder e, final Output o) {
            // the holder's encoder and output, the same from call to call: stored only when they change, since a reference
            // stored into this pooled, long-lived object costs the collector's write barrier
            if (encoder != e) {
                encoder = e;
            }
            if (out != o) {
                out = o;
            }
            entry = 0;
            passing = true;
        }

        @Override
        public void accept(final String key, final BsonValue value) {
            int i = entry++;
            PlainEncoder e = encoder;
            Output o = out;
            if (e == null || o == null || !passing) {
                throw new IllegalStateException("no encoder: a pass runs only inside place()");
            }
            BsonArray sequence = sequenceOf(value);
            if (sequence != null) {
                reach(sequence, i);
                emptyArray(key, e, o, sequences - 1);
            } else {
                e.writeElement(key, value, o);
            }
        }

        void end() {
            passing = false;
        }
    }
}
