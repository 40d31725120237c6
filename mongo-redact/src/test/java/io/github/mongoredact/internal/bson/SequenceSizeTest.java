package io.github.mongoredact.internal.bson;

import io.github.mongoredact.DriverShapes;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;


import static io.github.mongoredact.internal.bson.SequenceInOneBuffer.document;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The size of a document sequence told by its first and last buffers (the driver's documents of one sequence lie back to back
 * in one message buffer) equals the size counted document by document, and nothing is told where the buffers do not say it.
 */
class SequenceSizeTest {

    @Test
    void sequenceInOneMessageBufferIsSizedFromItsFirstAndLastDocuments() {
        assumeFieldAccess();
        for (int count : new int[]{2, 9, 10, 11, 99, 100, 101, 1000}) {
            BsonArray sequence = SequenceInOneBuffer.of(count, 0);
            assertEquals(countedSize(sequence), DocumentBytes.sequenceSize(sequence), "count=" + count);
        }
    }

    @Test
    void plainEncoderCountsTheSameSizeWithTheShortcut() {
        assumeFieldAccess();
        BsonArray sequence = SequenceInOneBuffer.of(1000, 0);
        BsonDocument command = new BsonDocument("insert", new BsonString("customers")).append("$db", new BsonString("shop"))
                .append("documents", sequence);
        BsonDocument merged = new BsonDocument("insert", new BsonString("customers")).append("$db", new BsonString("shop"))
                .append("documents", copies(sequence));
        assertEquals(new RawBsonDocument(merged, new BsonDocumentCodec()).getByteBuffer().remaining(),
                new PlainEncoder().size(command));
    }

    @Test
    void documentsInSeparateBuffersOrRawDocumentsAreNotSizedFromTheEnds() {
        BsonArray separate = new BsonArray();
        BsonArray raw = new BsonArray();
        for (int i = 0; i < 3; i++) {
            separate.add(DriverShapes.Backing.BYTE_BUF_HEAP_IN_MESSAGE.apply(DriverShapes.encode(document(i))));
            raw.add(new RawBsonDocument(document(i), new BsonDocumentCodec()));
        }
        assertEquals(-1, DocumentBytes.sequenceSize(separate));
        assertEquals(-1, DocumentBytes.sequenceSize(raw));
        assertEquals(-1, DocumentBytes.sequenceSize(SequenceInOneBuffer.of(1, 0)), "one document: counted as it is");
    }

    @Test
    void decimalDigitsOfIndexesMatchTheirCount() {
        for (int n : new int[]{0, 1, 9, 10, 11, 99, 100, 101, 12345}) {
            long expected = 0;
            for (int i = 0; i < n; i++) {
                expected += Integer.toString(i).length();
            }
            assertEquals(expected, DocumentBytes.decimalDigits(n), "n=" + n);
        }
    }

    private static void assumeFieldAccess() {
        // without field access the driver's buffers are not reached: every sequence is counted document by document
        assumeTrue(DocumentBytes.fieldAccess(), "the driver's buffers are reached only with field access");
    }


    private static BsonArray copies(final BsonArray sequence) {
        BsonArray copies = new BsonArray();
        for (int i = 0; i < sequence.size(); i++) {
            copies.add(document(i));
        }
        return copies;
    }

    /** The array's size as the driver's codec encodes it: {@code {"s": array}} less its own framing. */
    private static int countedSize(final BsonArray sequence) {
        BsonDocument holder = new BsonDocument("s", copies(sequence));
        return new RawBsonDocument(holder, new BsonDocumentCodec()).getByteBuffer().remaining() - (4 + 1 + 2 + 1);
    }
}
