package io.github.mongoredact.internal.bson;

import com.mongodb.lang.Nullable;
import org.bson.BsonArray;
import org.bson.BsonBinaryReader;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.ByteBuf;
import org.bson.RawBsonDocument;
import org.bson.io.BsonInput;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Reaches the bytes of the byte-backed documents the driver hands a listener: their length, and a copy straight into a
 * destination array, or a view of their own heap array where there is one.
 *
 * <ul>
 *     <li>{@link RawBsonDocument}: its backing array, offset and length (public API), allocation-free.</li>
 *     <li>The driver's {@code ByteBufBsonDocument}: its buffer, read by absolute index, reached through a {@link VarHandle} on
 *     its private field where the runtime allows it (allocation-free); otherwise through {@code asBsonReader()} and
 *     {@link BsonInput#readBytes(byte[], int, int)}, which allocates a reader per document. The system property
 *     {@code io.github.mongoredact.noFieldAccess=true} forces the second path.</li>
 * </ul>
 *
 * <p>Valid only while the driver's callback runs: nothing here keeps a reference.</p>
 */
public final class DocumentBytes {
    private static final String BYTE_BUF_DOCUMENT = "com.mongodb.internal.connection.ByteBufBsonDocument";
    @Nullable
    private static final Class<?> BYTE_BUF_DOCUMENT_CLASS;
    @Nullable
    private static final VarHandle BYTE_BUF;

    static {
        Class<?> type = null;
        VarHandle handle = null;
        try {
            type = Class.forName(BYTE_BUF_DOCUMENT, false, BsonDocument.class.getClassLoader());
            if (!Boolean.getBoolean("io.github.mongoredact.noFieldAccess")) {
                handle = MethodHandles.privateLookupIn(type, MethodHandles.lookup())
                        .findVarHandle(type, "byteBuf", ByteBuf.class);
            }
        } catch (ClassNotFoundException | NoSuchFieldException | IllegalAccessException | RuntimeException e) {
            // another driver layout, or a module that does not open the package: the public path is used
            handle = null;
        }
        BYTE_BUF_DOCUMENT_CLASS = type;
        BYTE_BUF = handle;
    }

    private DocumentBytes() {
    }

    /** @return whether the document is backed by bytes (raw, or the driver's buffer-backed document) */
    public static boolean isByteBacked(final BsonDocument document) {
        return document instanceof RawBsonDocument || (BYTE_BUF_DOCUMENT_CLASS != null
                && document.getClass() == BYTE_BUF_DOCUMENT_CLASS);
    }

    /** @return whether the allocation-free path to the driver's buffers is in use */
    static boolean fieldAccess() {
        return BYTE_BUF != null;
    }

    /** Where {@link #view} points: a reader's source, {@code array[off, end)}, valid for the callback. */
    public interface Viewer {
        /** Takes the document's bytes, {@code array[off, end)}, in place (not a copy). */
        void source(byte[] array, int off, int end);
    }

    /**
     * Points the viewer (a workspace's source, a reader's own) at the document's own heap array, if it has one.
     *
     * @return false when the bytes are not in a heap array (copy them instead)
     */
    public static boolean view(final BsonDocument document, final Viewer workspace) {
        if (document instanceof RawBsonDocument) {
            RawBsonDocument raw = (RawBsonDocument) document;
            int offset = DriverApi.rawOffset(raw);
            workspace.source(DriverApi.rawArray(raw), offset, offset + DriverApi.rawLength(raw));
            return true;
        }
        ByteBuf buf = buffer(document);
        byte[] array = buf == null ? null : DriverApi.array(buf);
        if (array != null) {
            int start = DriverApi.arrayOffset(buf) + buf.position();
            int length = checkedLength(buf.getInt(buf.position()), buf.remaining());
            workspace.source(array, start, start + length);
            return true;
        }
        return false;
    }

    /** @return the array that holds the raw document's bytes, from {@link #offset(RawBsonDocument)} on (not a copy) */
    public static byte[] array(final RawBsonDocument raw) {
        return DriverApi.rawArray(raw);
    }

    /** @return where the raw document's bytes start in {@link #array(RawBsonDocument)} */
    public static int offset(final RawBsonDocument raw) {
        return DriverApi.rawOffset(raw);
    }

    /** @return the document's length in bytes */
    public static int length(final BsonDocument document) {
        if (document instanceof RawBsonDocument) {
            return DriverApi.rawLength((RawBsonDocument) document);
        }
        ByteBuf buf = buffer(document);
        if (buf != null) {
            return checkedLength(buf.getInt(buf.position()), buf.remaining());
        }
        try (BsonBinaryReader reader = (BsonBinaryReader) document.asBsonReader()) {
            // BsonInput tells what remains only from 5.14: the copy's readBytes checks the bounds on every line
            return checkedLength(reader.getBsonInput().readInt32(), Integer.MAX_VALUE);
        }
    }

    /**
     * Copies the document's bytes into {@code dst} at {@code index}; {@code dst} must have room for {@link #length}.
     *
     * @return bytes written
     */
    public static int copy(final BsonDocument document, final byte[] dst, final int index) {
        if (document instanceof RawBsonDocument) {
            RawBsonDocument raw = (RawBsonDocument) document;
            int length = DriverApi.rawLength(raw);
            checkRoom(dst, index, length);
            System.arraycopy(DriverApi.rawArray(raw), DriverApi.rawOffset(raw), dst, index, length);
            return length;
        }
        ByteBuf buf = buffer(document);
        if (buf != null) {
            int position = buf.position();
            int length = checkedLength(buf.getInt(position), buf.remaining());
            checkRoom(dst, index, length);
            byte[] array = DriverApi.array(buf);
            if (array != null) {
                System.arraycopy(array, DriverApi.arrayOffset(buf) + position, dst, index, length);
            } else {
                buf.get(position, dst, index, length);
            }
            return length;
        }
        try (BsonBinaryReader reader = (BsonBinaryReader) document.asBsonReader()) {
            BsonInput input = reader.getBsonInput();
            int length = checkedLength(input.readInt32(), Integer.MAX_VALUE);
            checkRoom(dst, index, length);
            Bytes.writeInt(dst, index, length);
            input.readBytes(dst, index + 4, length - 4);
            return length;
        }
    }

    /**
     * Copies a byte-backed document whole at the output's position (or counts it), its frame checked: its length prefix at
     * least 5 and within the bytes its buffer holds (exactly those of a raw document), its last byte NUL.
     *
     * @throws BsonFormatException where its frame is broken
     */
    public static void copyFramed(final BsonDocument document, final Output out) {
        int length = length(document);
        if (document instanceof RawBsonDocument) {
            RawBsonDocument raw = (RawBsonDocument) document;
            int prefix = Bytes.readInt(DriverApi.rawArray(raw), DriverApi.rawOffset(raw));
            if (prefix != length) {
                throw FramingErrors.lengthOutOfBounds(DriverApi.rawOffset(raw), prefix, "available", length);
            }
        }
        byte[] dst = out.room(length);
        if (dst != null) {
            int at = out.position();
            copy(document, dst, at);
            if (dst[at + length - 1] != 0) {
                throw FramingErrors.notTerminated(at, length);
            }
        }
        out.advance(length);
    }

    /**
     * The encoded size of a document sequence the driver appended as an array, in O(1): the driver decodes each sequence's
     * documents from one message buffer, back to back, so where the first and the last document lie in the same heap array
     * the documents between them fill the span from one to the other.
     *
     * @return the size of the array as BSON (length, elements with their decimal keys, terminator), or -1 when the buffers do
     *         not tell it (other document types, buffers that are not heap arrays or not the same one): count them one by one
     */
    static int sequenceSize(final BsonArray array) {
        int n = array.size();
        if (n < 2) {
            return -1;
        }
        BsonValue firstValue = array.get(0);
        BsonValue lastValue = array.get(n - 1);
        if (!(firstValue instanceof BsonDocument) || !(lastValue instanceof BsonDocument)) {
            return -1;
        }
        ByteBuf first = buffer((BsonDocument) firstValue);
        ByteBuf last = buffer((BsonDocument) lastValue);
        if (first == null || last == null) {
            return -1;
        }
        byte[] firstArray = DriverApi.array(first);
        if (firstArray == null || firstArray != DriverApi.array(last)) {
            return -1;
        }
        long start = (long) DriverApi.arrayOffset(first) + first.position();
        long lastStart = (long) DriverApi.arrayOffset(last) + last.position();
        long span = lastStart + checkedLength(last.getInt(last.position()), last.remaining()) - start;
        if (lastStart <= start || span < 5L * n) {
            return -1;
        }
        // each element: type byte, decimal key, NUL, then the document
        long size = 4 + 2L * n + decimalDigits(n) + span + 1;
        return size > Integer.MAX_VALUE ? -1 : (int) size;
    }

    /** @return the sum of the decimal digits of 0 ... n - 1 */
    static long decimalDigits(final int n) {
        long total = 0;
        long low = 0;
        int digits = 1;
        for (long high = 10; low < n; low = high, high *= 10, digits++) {
            total += (Math.min(high, n) - low) * digits;
        }
        return total;
    }

    /** @return the driver's buffer behind the document, positioned at its first byte, or null (other types, no field access) */
    @Nullable
    static ByteBuf buffer(final BsonDocument document) {
        if (BYTE_BUF != null && document.getClass() == BYTE_BUF_DOCUMENT_CLASS) {
            return (ByteBuf) BYTE_BUF.get(document);
        }
        return null;
    }

    private static void checkRoom(final byte[] dst, final int index, final int length) {
        if ((long) index + length > dst.length) {
            throw new BsonFormatException("document changed while copied: index=" + index + " length=" + length
                    + " capacity=" + dst.length);
        }
    }

    private static int checkedLength(final int length, final int available) {
        if (length < 5 || length > available) {
            throw FramingErrors.lengthOutOfBounds(length, available);
        }
        return length;
    }
}
