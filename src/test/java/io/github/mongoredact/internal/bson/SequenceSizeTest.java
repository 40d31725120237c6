package io.github.mongoredact.internal.bson;

import io.github.mongoredact.DriverShapes;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

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
            BsonArray sequence = inOneBuffer(count);
            assertEquals(countedSize(sequence), DocumentBytes.sequenceSize(sequence), "count=" + count);
        }
    }

    @Test
    void plainEncoderCountsTheSameSizeWithTheShortcut() {
        assumeFieldAccess();
        BsonArray sequence = inOneBuffer(1000);
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
        assertEquals(-1, DocumentBytes.sequenceSize(inOneBuffer(1)), "one document: counted as it is");
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

    private static BsonDocument document(final int i) {
        return new BsonDocument("_id", new BsonInt32(i)).append("email", new BsonString("c" + i + "@example.com"));
    }

    /** The documents back to back in one heap buffer, after and before other message bytes, as the driver decodes them. */
    private static BsonArray inOneBuffer(final int count) {
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        message.write(new byte[]{1, 0x33, 0, 0, 0, 'd', 0}, 0, 7);
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            positions.add(message.size());
            byte[] bytes = DriverShapes.encode(document(i));
            message.write(bytes, 0, bytes.length);
        }
        message.write(new byte[]{0x5A, 0x5A, 0x5A}, 0, 3);
        ByteBuffer buffer = ByteBuffer.wrap(message.toByteArray());
        BsonArray sequence = new BsonArray();
        for (int position : positions) {
            sequence.add(DriverShapes.byteBufDocument(buffer.duplicate(), position));
        }
        return sequence;
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
