package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.DocumentBytes;
import io.github.mongoredact.internal.bson.PlainSize;
import io.github.mongoredact.internal.bson.Workspace;
import org.bson.BsonDocument;

/**
 * Where a redacting walk reads and writes: the source where it lies (a heap array) or gathered into the thread's scratch,
 * and room in the same scratch for the output, so that one pass writes and sizes it and one exact-size copy follows.
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
        if (DocumentBytes.view(document, workspace)) {
            long room = room(workspace.sourceLength());
            if (room > Workspace.MAX_ONE_PASS_BYTES) {
                return -1;
            }
            scratch = workspace.scratch((int) room);
            return 0;
        }
        int length = PlainSize.asSent(document);
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

    /** Points the workspace's source at the document, where it lies or gathered into the scratch; no room for output. */
    static void sourceOnly(final BsonDocument document, final Workspace workspace) {
        if (!DocumentBytes.view(document, workspace)) {
            int length = PlainSize.asSent(document);
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
