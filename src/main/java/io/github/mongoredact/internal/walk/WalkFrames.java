package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.rules.CompiledPolicy;

/**
 * The walk's state per open document, outermost first, in arrays instead of the stack: where the document ends and its next
 * element lies, the rule node and inherited action of its elements, what kind of document it is ({@link #flags}), where its
 * output length goes, and its counters. The walker reads and writes the arrays at {@link #depth} directly.
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

    private static final int SIZE = BsonBounds.MAX_DEPTH;

    /** The index of the terminating NUL of the source document. */
    final int[] end = new int[SIZE];
    /** The index of the next element to read. */
    final int[] next = new int[SIZE];
    final CompiledPolicy.Node[] node = new CompiledPolicy.Node[SIZE];
    final byte[] inherited = new byte[SIZE];
    final int[] flags = new int[SIZE];
    /** Where the output's length field is. */
    final int[] lengthIndex = new int[SIZE];
    /** The number of keys on the path at this document. */
    final int[] keys = new int[SIZE];
    /** Elements read, in the source. */
    final int[] index = new int[SIZE];
    /** Elements written, in the output. */
    final int[] shown = new int[SIZE];
    /** Sequence documents left out. */
    final long[] omitted = new long[SIZE];
    /** Keys that look like data, written so far. */
    final int[] dataKeys = new int[SIZE];
    /** The array the document lies in: its frame's elements are read there (null for an {@link #EXTERNAL} sequence). */
    final byte[][] source = new byte[SIZE][];
    /** The end of {@link #source} that bounds the document. */
    final int[] sourceEnd = new int[SIZE];
    /** The open document, -1 when none. */
    int depth = -1;

    /** Opens a document one level deeper (its depth checked by the cursor that framed it). */
    void push(final int documentEnd, final int first, @Nullable final CompiledPolicy.Node rules, final byte action,
              final int kind, @Nullable final byte[] src, final int srcEnd) {
        int d = ++depth;
        source[d] = src;
        sourceEnd[d] = srcEnd;
        end[d] = documentEnd;
        next[d] = first;
        node[d] = rules;
        inherited[d] = action;
        flags[d] = kind;
        index[d] = 0;
        shown[d] = 0;
        omitted[d] = 0;
        dataKeys[d] = 0;
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

    /** Closes the document at {@link #depth}, forgetting the array it lies in. */
    void pop() {
        source[depth] = null;
        depth--;
    }

    /**
     * Forgets the open documents and the arrays they lie in (closed ones forgot theirs; the rule nodes left behind are the
     * policy's, not a command's).
     */
    void clear() {
        for (int d = depth; d >= 0; d--) {
            source[d] = null;
        }
        depth = -1;
    }
}
