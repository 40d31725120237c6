package io.github.mongoredact.internal.bson;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;

/**
 * The open documents and arrays of a plain document that {@link PlainEncoder} writes below its recursion limit
 * ({@link PlainEncoder#RECURSION_LIMIT}): per level, what is read next and where its length goes, in arrays that grow up to
 * {@link BsonBounds#MAX_DEPTH}, instead of on the stack.
 *
 * <p>Not thread-safe: one per encoder. Holds the caller's documents only while a write runs ({@link #clear()}).</p>
 */
final class OpenLevels {
    /** The entries of an open document still to write; null for an array. */
    private Iterator<?>[] entries = new Iterator<?>[8];
    /** The open array; null for a document. */
    private BsonArray[] arrays = new BsonArray[8];
    /** The index of the array's next element. */
    private int[] next = new int[8];
    /** Where the level's length goes. */
    private int[] start = new int[8];
    /** Where the length of the code-with-scope whose scope the level is goes; -1 for other levels. */
    private int[] codeStart = new int[8];
    /** The depth of each open level (0: the top level). */
    private int[] depth = new int[8];
    /** The innermost open level, -1 when none. */
    private int top = -1;

    boolean isEmpty() {
        return top < 0;
    }

    /** Opens a document or array at {@code level} whose length goes at {@code lengthIndex}. */
    void push(final BsonValue container, final int level, final int lengthIndex, final int codeLengthIndex) {
        int t = ++top;
        if (t == start.length) {
            int n = t * 2;
            entries = Arrays.copyOf(entries, n);
            arrays = Arrays.copyOf(arrays, n);
            next = Arrays.copyOf(next, n);
            start = Arrays.copyOf(start, n);
            codeStart = Arrays.copyOf(codeStart, n);
            depth = Arrays.copyOf(depth, n);
        }
        if (container.isArray()) {
            arrays[t] = container.asArray();
            entries[t] = null;
        } else {
            entries[t] = ((BsonDocument) container).entrySet().iterator();
            arrays[t] = null;
        }
        next[t] = 0;
        start[t] = lengthIndex;
        codeStart[t] = codeLengthIndex;
        depth[t] = level;
    }

    /** @return the depth of the innermost open level */
    int depth() {
        return depth[top];
    }

    /** @return whether the innermost open level is an array */
    boolean isArray() {
        return arrays[top] != null;
    }

    /** @return whether the innermost open level has an element left */
    boolean hasNext() {
        BsonArray array = arrays[top];
        return array == null ? entries[top].hasNext() : next[top] < array.size();
    }

    /** @return the innermost open document's next entry */
    @SuppressWarnings("unchecked")
    Map.Entry<String, BsonValue> nextEntry() {
        return ((Iterator<Map.Entry<String, BsonValue>>) entries[top]).next();
    }

    /** @return the index of the innermost open array's next element, then steps past it */
    int nextIndex() {
        return next[top]++;
    }

    /** @return the innermost open array's element at {@code index} */
    BsonValue element(final int index) {
        return arrays[top].get(index);
    }

    /**
     * Closes the innermost level at the output's position: its terminating NUL, its length, and the length of the code with
     * scope it is the scope of.
     */
    void close(final Output out) {
        out.putByte((byte) 0);
        out.patchLength(start[top], start[top]);
        if (codeStart[top] >= 0) {
            out.patchLength(codeStart[top], codeStart[top]);
        }
        pop();
    }

    /** Closes the innermost level. */
    private void pop() {
        entries[top] = null;
        arrays[top] = null;
        top--;
    }

    /** Closes every level (after a failed write), forgetting the caller's documents. */
    void clear() {
        while (top >= 0) {
            pop();
        }
    }
}
