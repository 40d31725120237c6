package io.github.mongoredact.internal.bson;

/**
 * Reads the elements of one document's top level in place, hopping over their values: the one scan of a top level for the
 * readers that look at a few fields only (the reply's error fields, the command's collection). It reads its
 * {@link Workspace}'s current source; each {@link #next()} bounds the element's key within the document, and the value's end
 * is checked when it is asked for ({@link #valueEnd()}) or when the next element is read.
 *
 * <p>Not thread-safe: one per thread, in its {@link Workspace}, which holds the bytes and forgets them on release.</p>
 */
public final class TopLevelReader {
    private final Workspace workspace;
    private byte type;
    private int key;
    private int keyEnd;
    private int value = -1;
    private int valueEnd = -1;
    private int next;
    private int end;

    TopLevelReader(final Workspace workspace) {
        this.workspace = workspace;
    }

    /**
     * Starts at the first element of the document at {@code off} in the workspace's source, whose terminating NUL the caller
     * found at {@code terminator} (by its own check of the frame).
     *
     * @return this reader
     */
    public TopLevelReader start(final int off, final int terminator) {
        this.next = off + 4;
        this.end = terminator;
        this.value = -1;
        return this;
    }

    /** @return whether another element was read; false at the document's end */
    public boolean next() {
        byte[] src = workspace.source();
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

    /** @return the type of the element read last */
    public byte type() {
        return type;
    }

    /** @return where the key of the element read last starts */
    public int key() {
        return key;
    }

    /** @return the length of the key of the element read last, without its NUL */
    public int keyLength() {
        return keyEnd - key;
    }

    /** @return where the value of the element read last starts */
    public int value() {
        return value;
    }

    /** @return the index after the value of the element read last, checked within the document */
    public int valueEnd() {
        if (valueEnd < 0) {
            valueEnd = BsonBounds.valueEnd(workspace.source(), type, value, end);
        }
        return valueEnd;
    }

    /** @return whether the key of the element read last is {@code name} */
    public boolean keyIs(final byte[] name) {
        return Bytes.equal(name, workspace.source(), key, keyEnd - key);
    }
}
