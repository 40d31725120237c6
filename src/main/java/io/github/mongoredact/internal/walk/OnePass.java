package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.DocumentBytes;
import io.github.mongoredact.internal.bson.PlainSize;
import io.github.mongoredact.internal.bson.SequenceViews;
import io.github.mongoredact.internal.bson.Workspace;
import org.bson.BsonDocument;

/**
 * Where a redacting walk reads and writes: the source where it lies (a heap array) or gathered into the workspace's scratch,
 * and room in the same scratch for the output, so that one pass writes and sizes it and one exact-size copy follows. A plain
 * top level is encoded into the scratch with each document sequence as an empty array, its documents left where they lie
 * (the walker's {@link SequenceViews}); where one of them is not in a heap array, the whole command is gathered.
 *
 * <p>The room is a guess (twice the input and a little more: placeholders can be longer than the values they replace); a walk
 * that needs more turns into a sizing pass ({@link RedactionWalker#overflowed()}) and the caller writes again into an array of
 * the exact size. Commands too large for a pooled scratch ({@link Workspace#MAX_ONE_PASS_BYTES}) get no room: they are sized,
 * then written, so that their memory stays what the exact output costs. Not thread-safe: one per redactor.</p>
 */
final class OnePass {
    private final RedactionWalker walker;
    @Nullable
    private byte[] scratch;
    private int inputLength;
    /** Whether the last {@link #source} left sequences where they lie. */
    private boolean placed;
    private boolean gatherSequences;

    OnePass(final RedactionWalker walker) {
        this.walker = walker;
    }

    /**
     * Points the workspace's source at the document, where it lies or gathered into the scratch, with room for the output.
     *
     * @return where the output starts in {@link #scratch()}, or -1 when there is no room for one pass
     */
    int source(final BsonDocument document, final Workspace workspace) {
        scratch = null;
        placed = false;
        if (DocumentBytes.view(document, workspace)) {
            inputLength = workspace.sourceLength();
            long room = room(inputLength);
            if (room > Workspace.MAX_ONE_PASS_BYTES) {
                return -1;
            }
            scratch = workspace.scratch((int) room);
            return 0;
        }
        SequenceViews sequences = walker.sequences();
        // a byte-backed document not in a heap array is gathered whole, its bytes copied as they are
        // the top level sized and, where it fits, written into the workspace's scratch in the same pass
        byte[] first = workspace.scratch(0);
        int top = gatherSequences || DocumentBytes.isByteBacked(document) ? -1
                : sequences.sizeAndWrite(document, workspace.encoder, first, 0);
        if (top >= 0) {
            // the top level into the scratch, each sequence as an empty array; the sequence documents stay where they lie
            // at most FramedCopy's bound: sizeAndWrite() refuses larger commands
            int length = (int) sequences.inputLength(top);
            inputLength = length;
            placed = true;
            return placed(document, workspace, first, top, top + room(length), sequences);
        }
        int length = PlainSize.asSent(document, workspace);
        inputLength = length;
        long total = length + room(length);
        boolean onePass = total <= Workspace.MAX_ONE_PASS_BYTES;
        byte[] array = workspace.scratch(onePass ? (int) total : length);
        gather(document, workspace, array, length);
        if (!onePass) {
            return -1;
        }
        scratch = array;
        return length;
    }

    /**
     * Puts the top level without its sequences' documents into the scratch: where the sizing pass wrote it into {@code first},
     * moved when the room asks for a larger array, else written now. @return as {@link #source}
     */
    private int placed(final BsonDocument document, final Workspace workspace, final byte[] first, final int top,
                       final long total, final SequenceViews sequences) {
        boolean onePass = total <= Workspace.MAX_ONE_PASS_BYTES;
        byte[] array = workspace.scratch(onePass ? (int) total : top);
        if (!sequences.written()) {
            DocumentRedactor.checkWritten(top, sequences.write(document, workspace.encoder, array, 0));
        } else if (array != first) {
            System.arraycopy(first, 0, array, 0, top);
        }
        workspace.source(array, 0, top);
        if (!onePass) {
            return -1;
        }
        scratch = array;
        return top;
    }

    /** @return the size of the document {@link #source} pointed at, as sent (its sequences whole, wherever they lie) */
    int inputLength() {
        return inputLength;
    }

    /** @return whether the last {@link #source} left a plain top level's sequences where they lie */
    boolean placed() {
        return placed;
    }

    /** @return whether the last {@link #source} wrote the top level in its sizing pass, into the array it stays in or moved */
    boolean writtenWhileSized() {
        return placed && walker.sequences().written();
    }

    /** Whether a plain top level's sequences are gathered into the scratch with it, as before they were read in place. */
    void gatherSequences(final boolean gather) {
        this.gatherSequences = gather;
    }

    /** Points the workspace's source at the document, where it lies or gathered into the scratch; no room for output. */
    static void sourceOnly(final BsonDocument document, final Workspace workspace) {
        if (!DocumentBytes.view(document, workspace)) {
            int length = PlainSize.asSent(document, workspace);
            gather(document, workspace, workspace.scratch(length), length);
        }
    }

    private static void gather(final BsonDocument document, final Workspace workspace, final byte[] array, final int length) {
        if (DocumentBytes.isByteBacked(document)) {
            DocumentRedactor.checkWritten(length, DocumentBytes.copy(document, array, 0));
        } else {
            DocumentRedactor.checkWritten(length, workspace.encoder.write(document, array, 0));
        }
        workspace.source(array, 0, length);
    }

    /** @return the output's size; the output is in {@link #scratch()} from {@code outOff} unless the walker overflowed */
    int run(final int outOff, final boolean fingerprint) {
        byte[] room = scratch;
        if (outOff < 0 || room == null) {
            return walker.analyse(fingerprint);
        }
        return walker.sizeAndWrite(room, outOff, room.length, fingerprint);
    }

    /** @return the scratch the output was written into: call only after a {@link #run} that did not overflow */
    byte[] scratch() {
        byte[] room = scratch;
        if (room == null) {
            throw new IllegalStateException("no scratch: scratch() is called only after run() wrote into it");
        }
        return room;
    }

    /** Forgets the scratch, which may be a pooled array holding the command's bytes. */
    void clear() {
        scratch = null;
    }

    private static long room(final int length) {
        return 2L * length + 1024;
    }
}
