package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Output;

import java.util.Arrays;

/**
 * One BSON document written front to back through the project's one writer ({@link Output}, growing): a top level, documents
 * and arrays opened and closed (their length written when they close), and elements whose key was named just before by
 * {@link #key}. Inside an array the key named is ignored and the element's index is written instead, as BSON requires.
 *
 * <p>Not thread-safe: one per {@link ShapeOut}, reset for each shape. The array grows by doubling and is kept for the next
 * shape, so that a shaper writes its shapes without allocating once it has seen its largest.</p>
 */
final class BsonBuffer implements Output.Growth {
    private static final byte[] NO_KEY = new byte[0];

    private byte[] buf = new byte[512];
    private final Output out = new Output();
    /** Where each open document or array starts; for an array also the index of its next element, else -1. */
    private int[] starts = new int[16];
    private int[] nextIndex = new int[16];
    private int depth;

    // the key named for the next element
    private byte[] keySrc = NO_KEY;
    private int keyOff;
    private int keyLen;

    /** Forgets what was written and opens a new top-level document. */
    void reset() {
        out.growing(this, buf, 0);
        depth = 0;
        keySrc = NO_KEY;
        push(-1);
    }

    @Override
    public byte[] grow(final byte[] current, final int used, final int needed) {
        buf = Arrays.copyOf(current, Math.max(current.length * 2, needed));
        return buf;
    }

    /** @return the number of bytes written so far */
    int position() {
        return out.position();
    }

    /** @return the array written into, valid up to {@link #position()} until the next write */
    byte[] array() {
        return buf;
    }

    /** Closes the top-level document. @return a copy of the document's bytes */
    byte[] finish() {
        return Arrays.copyOf(buf, end());
    }

    /** Closes the top-level document. @return its length: it lies in {@link #array()} from index 0 */
    int end() {
        close();
        if (depth != 0) {
            throw new IllegalStateException("unbalanced shape: " + depth + " open documents");
        }
        return out.position();
    }

    /** Names the key of the next element (ignored inside an array): {@code src[off, off + len)}, which is not copied. */
    void key(final byte[] src, final int off, final int len) {
        keySrc = src;
        keyOff = off;
        keyLen = len;
    }

    /**
     * Opens a document ({@link BsonTypes#DOCUMENT}) or an array ({@link BsonTypes#ARRAY}) under the key named.
     *
     * @return where the opened document starts (its length prefix)
     */
    int open(final byte type) {
        header(type);
        push(type == BsonTypes.ARRAY ? 0 : -1);
        return starts[depth - 1];
    }

    /** Closes the innermost open document or array: its terminating NUL and its length. */
    void close() {
        out.putByte((byte) 0);
        depth--;
        int start = starts[depth];
        out.patchLength(start, start);
    }

    /** Writes a string element. */
    void string(final byte[] src, final int off, final int len) {
        header(BsonTypes.STRING);
        out.putInt(len + 1);
        out.putBytes(src, off, len);
        out.putByte((byte) 0);
    }

    void string(final byte[] value) {
        string(value, 0, value.length);
    }

    void int32(final int value) {
        header(BsonTypes.INT32);
        out.putInt(value);
    }

    void bool(final boolean value) {
        header(BsonTypes.BOOLEAN);
        out.putByte((byte) (value ? 1 : 0));
    }

    /** Writes an element of {@code type} whose value is {@code src[off, off + len)} verbatim (empty for null, min/max keys). */
    void value(final byte type, final byte[] src, final int off, final int len) {
        header(type);
        out.putBytes(src, off, len);
    }

    private void header(final byte type) {
        out.putByte(type);
        int index = nextIndex[depth - 1];
        if (index >= 0) {
            nextIndex[depth - 1] = index + 1;
            out.putDigits(index);
        } else {
            out.putBytes(keySrc, keyOff, keyLen);
        }
        out.putByte((byte) 0);
        keySrc = NO_KEY;
        keyLen = 0;
    }

    private void push(final int index) {
        if (depth == starts.length) {
            starts = Arrays.copyOf(starts, depth * 2);
            nextIndex = Arrays.copyOf(nextIndex, depth * 2);
        }
        starts[depth] = out.reserveInt();
        nextIndex[depth] = index;
        depth++;
    }
}
