package io.github.mongoredact.internal.json;

import java.util.Arrays;

/**
 * The open levels of the document {@link RawJson} writes (where each ends, whether it is an array) and, for each level,
 * where the source and the text of its last nested document or array lie: an array's next element of the same bytes (the
 * documents of an insert redacted to the same placeholders, say) has the same text, copied from the output rather than
 * written again. Kept with its pooled {@link JsonTextBuffer}; grown up to the walk's maximum depth. Not thread-safe.
 */
final class JsonFrames {
    private static final int LAST_SOURCE = 0;
    private static final int LAST_LENGTH = 1;
    private static final int LAST_TEXT = 2;
    private static final int LAST_TEXT_END = 3;
    private static final int LAST_TYPE = 4;
    private static final int PER_LEVEL = 5;

    /** The index of each open level's terminating NUL. */
    int[] ends = new int[16];
    /** Whether each open level is an array. */
    boolean[] arrays = new boolean[16];
    /**
     * Per level: the last nested value's offset and length in the source, its text's start and end (-1: not known), its type
     * (a document and an array of the same bytes have different texts: {@code {"0": 1}} and {@code [1]}, {@code {}} and
     * {@code []}).
     */
    private int[] last = new int[16 * PER_LEVEL];

    /** Opens a level: its end, whether it is an array, no nested value yet. */
    void open(final int depth, final int end, final boolean array) {
        if (depth == ends.length) {
            ends = Arrays.copyOf(ends, 2 * depth);
            arrays = Arrays.copyOf(arrays, 2 * depth);
            last = Arrays.copyOf(last, 2 * depth * PER_LEVEL);
        }
        ends[depth] = end;
        arrays[depth] = array;
        last[depth * PER_LEVEL + LAST_LENGTH] = -1;
    }

    /**
     * Notes that the value {@code src[from, to)} of BSON type {@code type} nested in the level opens, its text starting at
     * {@code textStart}.
     */
    void nested(final int depth, final byte type, final int from, final int to, final int textStart) {
        int at = depth * PER_LEVEL;
        last[at + LAST_TYPE] = type;
        last[at + LAST_SOURCE] = from;
        last[at + LAST_LENGTH] = to - from;
        last[at + LAST_TEXT] = textStart;
        last[at + LAST_TEXT_END] = -1;
    }

    /** Notes that the value last nested in the level was written whole, its text ending at {@code textEnd}. */
    void nestedWritten(final int depth, final int textEnd) {
        last[depth * PER_LEVEL + LAST_TEXT_END] = textEnd;
    }

    /**
     * @return the start of the text of the value last nested in the level when it was written whole and its type is
     *         {@code type} and its bytes {@code src[from, to)}'s, else -1
     */
    int sameText(final int depth, final byte type, final byte[] src, final int from, final int to) {
        int at = depth * PER_LEVEL;
        int length = last[at + LAST_LENGTH];
        if (length != to - from || last[at + LAST_TEXT_END] < 0 || last[at + LAST_TYPE] != type) {
            return -1;
        }
        int source = last[at + LAST_SOURCE];
        return Arrays.equals(src, source, source + length, src, from, to) ? last[at + LAST_TEXT] : -1;
    }

    /** @return the end of the text of the value last nested in the level, when {@link #sameText} found it */
    int sameTextEnd(final int depth) {
        return last[depth * PER_LEVEL + LAST_TEXT_END];
    }
}
