package io.github.mongoredact.jmh.support;

import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InputsTest {

    @Test
    void documentsHaveTheAdvertisedSizes() {
        for (int i = 0; i < 1000; i += 97) {
            int small = DriverDocuments.bytesOf(Inputs.document(Inputs.DocSize.SMALL, i)).length;
            assertTrue(small >= 55 && small <= 70, "small=" + small);
            assertEquals(1024, DriverDocuments.bytesOf(Inputs.document(Inputs.DocSize.KIB, i)).length);
        }
    }

    @Test
    void byteBackedShapeIsTheDriversOwnDocument() {
        BsonDocument command = Inputs.insert(Inputs.Shape.BYTEBUF, Inputs.DocSize.SMALL, 5);
        assertEquals(DriverDocuments.byteBackedClassName(), command.getClass().getName());
        assertEquals(5, command.getArray("documents").size());
        assertEquals(Inputs.document(Inputs.DocSize.SMALL, 3), command.getArray("documents").get(3).asDocument());
    }

    @Test
    void plainShapeAppendsTheSequenceAfterDbAsByteBackedDocuments() {
        BsonDocument command = Inputs.insert(Inputs.Shape.PLAIN, Inputs.DocSize.KIB, 3);
        assertEquals(BsonDocument.class, command.getClass());
        assertEquals(List.of("insert", "ordered", "$db", "documents"), new ArrayList<>(command.keySet()));
        for (int i = 0; i < 3; i++) {
            BsonDocument element = command.getArray("documents").get(i).asDocument();
            assertEquals(DriverDocuments.byteBackedClassName(), element.getClass().getName());
            assertEquals(Inputs.document(Inputs.DocSize.KIB, i), element);
        }
        // both shapes carry the same command
        assertEquals(Inputs.insert(Inputs.Shape.BYTEBUF, Inputs.DocSize.KIB, 3), command);
    }

    @Test
    void replyIsAHeapRawDocumentWithTheBatch() {
        RawBsonDocument reply = Inputs.findReply(Inputs.DocSize.SMALL, 10);
        assertEquals(10, reply.getDocument("cursor").getArray("firstBatch").size());
        assertTrue(reply.getByteBuffer().isBackedByArray());
    }
}
