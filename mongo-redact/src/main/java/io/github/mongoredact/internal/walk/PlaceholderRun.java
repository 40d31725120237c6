package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.bson.Output;
import io.github.mongoredact.internal.bson.SequenceViews;
import io.github.mongoredact.internal.mask.IndexKeys;


/**
 * The tight loops for what no rule, cap, limit or fingerprint can reach: every scalar becomes its placeholder, keys kept. This
 * is what the documents of a sequence are under {@code defaults()}. {@link #elements} runs over the elements of such a
 * document, {@link #documents} over the documents of such an array. One read of each key byte finds its end, checks it and
 * notes whether the key may look like data ({@link io.github.mongoredact.internal.mask.DataLikeKeys#isSuspect}, for the
 * bytes up to {@code @} only); the value's end comes from its type; the output goes straight into the output's array, on a
 * local index, its room checked per element.
 * Nested documents and arrays are taken in the same loop, on a stack of its own (array keys written as positions), so that a
 * document of any shape costs one loop, as long as all it holds is the common case.
 *
 * <p>They stop, leaving the element to the walker's general path, at everything that is not the common case (for something
 * inside a nested document or array: before the element of the loop's document that holds it): more nested levels than the
 * loop holds, a type whose value needs more checks (binary, JavaScript with scope, regular expressions, ...), a key past ASCII or
 * with a control character, a key that looks like data (when keys are masked), a string that may already be a placeholder, a
 * bound that does not hold (the general path says where), or too little room (the general path grows the output). So
 * their output is the general path's for the same elements and they report no error of their own. The walker runs them only
 * where its own rule lookup would return the inherited {@code REDACT} for every key.</p>
 *
 * <p>Not thread-safe: one per walker.</p>
 */
final class PlaceholderRun {
    private final Output out;
    private final BsonCursor cursor;
    private final RuleFreeLoop loop = new RuleFreeLoop();
    /** Values replaced by the last run. */
    int redacted;
    /** Documents taken by the last {@link #documents}. */
    int documents;
    /** The depth of the documents of the array {@link #documents} runs over. */
    private int documentDepth;

    PlaceholderRun(final Output out, final BsonCursor cursor) {
        this.out = out;
        this.cursor = cursor;
    }

    void fixedPlaceholders(final boolean fixedPlaceholders) {
        loop.fixedPlaceholders(fixedPlaceholders);
    }

    /** @param mask whether keys that look like data are masked: such a key is left to the general path */
    void maskDataLikeKeys(final boolean mask) {
        loop.maskDataLikeKeys(mask);
    }

    /**
     * Replaces the scalars of the document ending at {@code end}, from the element at {@code from}, and the scalars of the
     * documents and arrays it holds.
     *
     * @param depth the depth of the document
     * @return where it stopped: {@code end}, or an element the walker's general path takes
     */
    int elements(final int from, final int end, final int depth) {
        redacted = 0;
        // while writing, the room left is checked per element on a local index; while counting, nothing to write
        int room = out.remaining();
        byte[] dst = room > 0 ? out.room(room) : null;
        if (dst == null && out.writing()) {
            return from;
        }
        int at = out.position();
        int p = loop.run(cursor.src(), from, end, dst, at, at + room, depth);
        out.advance(loop.endAt - at);
        redacted = loop.replaced;
        return p;
    }

    /**
     * Takes the documents of the array ending at {@code end}, from the element at {@code from}, as long as each is a
     * document that {@link #elements} takes whole; their keys are written as their index in the output.
     *
     * @param firstIndex the output index of the first
     * @param depth the depth of the array (the documents' depth is checked)
     * @return where it stopped: {@code end}, or an element the walker's general path takes
     */
    int documents(final int from, final int end, final int firstIndex, final int depth) {
        int room = begin(depth);
        if (room < 0) {
            return from;
        }
        byte[] src = cursor.src();
        byte[] dst = room > 0 ? out.room(room) : null;
        int at = out.position();
        int stop = at + room;
        int p = from;
        int index = firstIndex;
        int values = 0;
        while (p < end && src[p] == BsonTypes.DOCUMENT) {
            // an array element's name is a position: what it holds does not matter; as the driver writes it, it is matched
            int k = p + 1;
            int nameEnd = IndexKeys.isName(src, k, end, index) ? k + IndexKeys.digits(index) : BsonCursor.keyEnd(src, k, end);
            int v = (nameEnd < -1 ? -2 - nameEnd : nameEnd) + 1;
            int length = v > 0 && v + 5 <= end ? Bytes.readInt(src, v) : -1;
            if (length < 5 || length > end - v || src[v + length - 1] != 0) {
                break;
            }
            int after = document(src, v, length, index, dst, at, stop);
            if (after < 0) {
                break;
            }
            at = after;
            values += loop.replaced;
            index++;
            p = v + length;
        }
        finish(at, values, index - firstIndex);
        return p;
    }

    /**
     * {@link #documents(int, int, int, int)} over documents {@code from} to {@code to} of a sequence left where it lies, each
     * in its own array.
     *
     * @return where it stopped: {@code to}, or the document the walker's general path takes
     */
    int documents(final SequenceViews sequence, final int from, final int to, final int firstIndex, final int depth) {
        int room = begin(depth);
        if (room < 0) {
            return from;
        }
        byte[] dst = room > 0 ? out.room(room) : null;
        int at = out.position();
        int stop = at + room;
        int j = from;
        int values = 0;
        while (j < to) {
            int after = document(sequence.array(j), sequence.offset(j), sequence.length(j), firstIndex + j - from, dst, at,
                    stop);
            if (after < 0) {
                break;
            }
            at = after;
            values += loop.replaced;
            j++;
        }
        finish(at, values, j - from);
        return j;
    }

    /**
     * Starts a run of documents in an array at {@code depth}.
     *
     * @return the room to write into (0 while counting), or -1 where no run can start (no room, too deep)
     */
    private int begin(final int depth) {
        redacted = 0;
        documents = 0;
        documentDepth = depth + 1;
        int room = out.remaining();
        if (room <= 0 && out.writing() || depth + 1 >= BsonBounds.MAX_DEPTH) {
            return -1;
        }
        return Math.max(room, 0);
    }

    private void finish(final int at, final int values, final int taken) {
        out.advance(at - out.position());
        redacted = values;
        documents = taken;
    }

    /**
     * One document of a rule-free array, at {@code src[v]} of {@code length} bytes, framing checked, written with key
     * {@code index} at {@code at} (counted when {@code dst} is null) below {@code stop}; its values replaced are then
     * {@code loop.replaced}.
     *
     * @return the index after it in the output, or -1 where the walker's general path takes it
     */
    private int document(final byte[] src, final int v, final int length, final int index, @Nullable final byte[] dst,
                         final int at, final int stop) {
        int head = 1 + IndexKeys.digits(index) + 1;
        if (dst != null) {
            if (stop - at < head + 4) {
                return -1;
            }
            dst[at] = BsonTypes.DOCUMENT;
            IndexKeys.copy(dst, at + 1, index);
            dst[at + head - 1] = 0;
        }
        int document = at + head;
        int last = v + length - 1;
        if (loop.run(src, v + 4, last, dst, document + 4, stop, documentDepth) != last || dst != null && stop - loop.endAt < 1) {
            return -1;
        }
        int after = loop.endAt + 1;
        if (dst != null) {
            dst[after - 1] = 0;
            Bytes.writeInt(dst, document, after - document);
        }
        return after;
    }

}
