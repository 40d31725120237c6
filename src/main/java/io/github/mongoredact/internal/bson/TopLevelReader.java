package io.github.mongoredact.internal.bson;

/**
 * Reads the elements of one document's top level in place, hopping over their values: the one scan of a top level for the
 * readers that look at a few fields only (the reply's error fields, the command's collection). Each {@link #next()} bounds
 * the element's key within the document and leaves it in the public fields, which only this reader writes; the value's end
 * is checked when it is asked for ({@link #valueEnd()}) or when the next element is read.
 *
 * <p>Not thread-safe: one per thread, in its {@link Workspace}; {@link Workspace#release()} forgets the bytes.</p>
 */
public final class TopLevelReader {
    private static final byte[] NONE = new byte[0];
    /** The type of the element read last. */
    public byte type;
    /** Where its key starts, and the index of the NUL that ends it. */
    public int key;
    public int keyEnd;
    /** Where its value starts. */
    public int value = -1;
    private int valueEnd = -1;
    private byte[] src = NONE;
    private int next;
    private int end;

    /**
     * Starts at the first element of the document at {@code src[off]}, whose terminating NUL the caller found at
     * {@code terminator} (by its own check of the frame).
     *
     * @return this reader
     */
    public TopLevelReader start(final byte[] bytes, final int off, final int terminator) {
        this.src = bytes;
        this.next = off + 4;
        this.end = terminator;
        this.value = -1;
        return this;
    }

    /** @return whether another element was read; false at the document's end */
    public boolean next() {
        if (value >= 0) {
            next = valueEnd();
        }
        if (next >= end) {
            return false;
        }
        type = src[next];
        key = next + 1;
        keyEnd = BsonBounds.cstringEnd(src, key, end);
        value = keyEnd + 1;
        valueEnd = -1;
        return true;
    }

    /** @return the index after the value of the element read last, checked within the document */
    public int valueEnd() {
        if (valueEnd < 0) {
            valueEnd = BsonBounds.valueEnd(src, type, value, end);
        }
        return valueEnd;
    }

    /** @return whether the key of the element read last is {@code name} */
    public boolean keyIs(final byte[] name) {
        return Bytes.equal(name, src, key, keyEnd - key);
    }

    /** Forgets the bytes read. */
    void clear() {
        src = NONE;
        next = 0;
        end = 0;
        value = -1;
    }
}
