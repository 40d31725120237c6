package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import java.util.Arrays;

/**
 * The walk's state per open document, outermost first, in arrays instead of the stack: where the document ends and its next
 * element lies, the rule node and inherited action of its elements, what kind of document it is ({@link #flags}), where its
 * output length goes, and its counters. The walker reads and writes the arrays at {@link #depth} directly.
 *
 * <p>The arrays start at {@link #INITIAL} levels and double when a deeper document is opened, up to {@link BsonBounds#MAX_DEPTH}
 * (the cursor refuses deeper ones before they are pushed), so that a fresh walker is small.</p>
 *
 * <p>Not thread-safe: one per walker. Holds indexes and rule nodes, never bytes.</p>
 */
final class WalkFrames {
    /** An array: elements transparent for paths, keys renumbered. */
    static final int ARRAY = 1;
    /** A document sequence or reply batch under {@code maxSequenceDocuments}. */
    static final int LIMITED = 2;
    /** Keys that are data, masked ({@code REDACT_KEYS}). */
    static final int MASKED = 4;
    /** The top-level document. */
    static final int TOP = 8;
    /** Contributes to the fingerprint. */
    static final int HASHING = 16;
    /** The top level of a wrapped command ({@code explain}'s): read by that command's own rules, as if it were sent alone. */
    static final int WRAPPED = 32;
    /** The top level of a command or reply, or of a wrapped command: its first field names the command. */
    static final int COMMAND_TOP = TOP | WRAPPED;
    /**
     * A document sequence left where it lies ({@code SequenceViews}): its elements are documents each in an array of its
     * own, {@link #next} and {@link #end} count documents, and the frame has no {@link #source}.
     */
    static final int EXTERNAL = 64;
    /**
     * A reply's {@code cursor} under {@code maxSequenceDocuments}: it holds the batch the limit applies to, so no rule-free
     * run takes it whole.
     */
    static final int HOLDS_LIMITED = 128;

    /** Levels the arrays hold at first. */
    static final int INITIAL = 16;

    /** The index of the terminating NUL of the source document. */
    int[] end = new int[INITIAL];
    /** The index of the next element to read. */
    int[] next = new int[INITIAL];
    CompiledPolicy.Node[] node = new CompiledPolicy.Node[INITIAL];
    byte[] inherited = new byte[INITIAL];
    int[] flags = new int[INITIAL];
    /** Where the output's length field is. */
    int[] lengthIndex = new int[INITIAL];
    /** The number of keys on the path at this document. */
    int[] keys = new int[INITIAL];
    /** Elements read, in the source. */
    int[] index = new int[INITIAL];
    /** Elements written, in the output. */
    int[] shown = new int[INITIAL];
    /** Sequence documents left out. */
    long[] omitted = new long[INITIAL];
    /** Keys that look like data, written so far. */
    int[] dataKeys = new int[INITIAL];
    /** The array the document lies in: its frame's elements are read there (null for an {@link #EXTERNAL} sequence). */
    byte[][] source = new byte[INITIAL][];
    /** The end of {@link #source} that bounds the document. */
    int[] sourceEnd = new int[INITIAL];
    /** The open document, -1 when none. */
    int depth = -1;
    /**
     * The deepest level opened since {@link #clear()}: a closed level keeps its array until then, so that the next document
     * opened there in the same array (the next of a sequence) stores no reference afresh, as a reference stored into this
     * pooled, long-lived object costs the collector's write barrier.
     */
    private int deepest = -1;

    /** Opens a document one level deeper (its depth checked by the cursor that framed it). */
    void push(final int documentEnd, final int first, @Nullable final CompiledPolicy.Node rules, final byte action,
              final int kind, @Nullable final byte[] src, final int srcEnd) {
        int d = ++depth;
        if (d == end.length) {
            grow();
        }
        if (d > deepest) {
            deepest = d;
        }
        // each reference stored only when it changes (the write barrier, above)
        if (source[d] != src) {
            source[d] = src;
        }
        sourceEnd[d] = srcEnd;
        end[d] = documentEnd;
        next[d] = first;
        if (node[d] != rules) {
            node[d] = rules;
        }
        inherited[d] = action;
        flags[d] = kind;
        index[d] = 0;
        shown[d] = 0;
        omitted[d] = 0;
        dataKeys[d] = 0;
    }

    /** Doubles every array, up to {@link BsonBounds#MAX_DEPTH} levels. */
    private void grow() {
        int size = Math.min(BsonBounds.MAX_DEPTH, 2 * end.length);
        if (size <= end.length) {
            throw new IllegalStateException("deeper than " + BsonBounds.MAX_DEPTH + " levels: depth=" + depth);
        }
        end = Arrays.copyOf(end, size);
        next = Arrays.copyOf(next, size);
        node = Arrays.copyOf(node, size);
        inherited = Arrays.copyOf(inherited, size);
        flags = Arrays.copyOf(flags, size);
        lengthIndex = Arrays.copyOf(lengthIndex, size);
        keys = Arrays.copyOf(keys, size);
        index = Arrays.copyOf(index, size);
        shown = Arrays.copyOf(shown, size);
        omitted = Arrays.copyOf(omitted, size);
        dataKeys = Arrays.copyOf(dataKeys, size);
        source = Arrays.copyOf(source, size);
        sourceEnd = Arrays.copyOf(sourceEnd, size);
    }

    boolean is(final int d, final int flag) {
        return (flags[d] & flag) != 0;
    }

    /** How the keys of the document at {@code d} are written ({@link ElementWriter#KEYS_AS_IS} ...). */
    int keyStyle(final int d) {
        int f = flags[d];
        if ((f & MASKED) != 0) {
            return ElementWriter.KEYS_MASKED;
        }
        return (f & ARRAY) != 0 ? ElementWriter.KEYS_INDEX : ElementWriter.KEYS_AS_IS;
    }

    /** Closes the document at {@link #depth}; the array it lies in is forgotten at {@link #clear()}. */
    void pop() {
        depth--;
    }

    /**
     * Forgets the documents opened since the last clear and the arrays they lie in (the rule nodes left behind are the
     * policy's, not a command's).
     */
    void clear() {
        for (int d = deepest; d >= 0; d--) {
            source[d] = null;
        }
        deepest = -1;
        depth = -1;
    }
}
