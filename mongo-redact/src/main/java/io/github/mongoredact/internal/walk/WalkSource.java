package io.github.mongoredact.internal.walk;

import io.github.mongoredact.internal.bson.DocumentBytes;
import io.github.mongoredact.internal.bson.SequenceViews;
import io.github.mongoredact.internal.bson.Workspace;
import org.bson.BsonDocument;

/**
 * Where a walk reads the document it redacts, pointed at in the workspace ({@link Workspace#source()}): its bytes where they
 * lie, in the heap array of a {@code RawBsonDocument} or of the driver's buffer; a byte-backed document not in a heap array,
 * copied into the workspace's input scratch; a plain top level (insert, update, delete), encoded into the input scratch with
 * each document sequence as an empty array whose documents the walk reads where they lie ({@link SequenceViews}; one not in
 * a heap array is copied, framed, into a scratch of its own). Every document is then walked the same way, by the same reader.
 *
 * <p>Not thread-safe: one per redactor. Holds nothing after a call but the sizes.</p>
 */
final class WalkSource {
    private final SequenceViews sequences;
    private int inputLength;
    /** Whether the source holds the whole document (no sequence left where it lies). */
    private boolean whole;

    /** @param sequences the walker's, where the sequences of a plain top level are left for it to read */
    WalkSource(final SequenceViews sequences) {
        this.sequences = sequences;
    }

    /** Points the workspace's source at the document. */
    void of(final BsonDocument document, final Workspace workspace) {
        whole = true;
        if (DocumentBytes.view(document, workspace)) {
            inputLength = workspace.sourceLength();
            return;
        }
        if (DocumentBytes.isByteBacked(document)) {
            // not in a heap array (a direct buffer): one copy into the scratch
            byte[] array = workspace.input.array(DocumentBytes.length(document));
            int length = DocumentBytes.copy(document, array, 0);
            workspace.source(array, 0, length);
            inputLength = length;
            return;
        }
        int top = sequences.place(document, workspace.encoder, workspace.input, workspace.gathered);
        workspace.source(sequences.placed(), 0, top);
        inputLength = (int) sequences.inputLength(top);
        whole = sequences.sequences() == 0;
    }

    /** @return whether the source {@link #of} pointed at holds the whole document, no sequence left where it lies */
    boolean isWhole() {
        return whole;
    }

    /** @return the size of the document {@link #of} pointed at, as sent (its sequences whole, wherever they lie) */
    int inputLength() {
        return inputLength;
    }
}
