package io.github.mongoredact.internal.bson;

import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.DriverShapes.Backing;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.internal.rules.CompiledPolicies;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import io.github.mongoredact.internal.walk.DocumentRedactor;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.github.mongoredact.internal.bson.SequenceInOneBuffer.document;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The verbatim copy of a plain top level (the spec-only policy's, written by the walk that keeps every element): exactly the
 * bytes the driver's codec writes for the command with its sequences merged as arrays, in an array of exactly that size,
 * whatever the sequence's layout; each framing fault of a copied document refused with a message that says where.
 */
class VerbatimCopyTest {
    private static final CompiledPolicy SPEC_ONLY = CompiledPolicies.compile(RedactionPolicy.specOnly());

    private static BsonDocument top() {
        return new BsonDocument("insert", new BsonString("customers")).append("ordered", BsonBoolean.TRUE)
                .append("$db", new BsonString("shop"));
    }


    /** The command with the given sequence appended, and the codec's encoding of it with plain documents. */
    private static void assertCopied(final BsonArray sequence, final List<BsonValue> plain) {
        BsonDocument command = top().append("documents", sequence);
        byte[] expected = DriverShapes.encode(top().append("documents", new BsonArray(plain)));
        assertArrayEquals(expected, copy(command));
    }

    private static List<BsonValue> documents(final int count) {
        List<BsonValue> documents = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            documents.add(document(i));
        }
        return documents;
    }

    @Test
    void copiesASequenceInOneMessageBufferAsTheCodecWritesIt() {
        for (int count : new int[]{0, 1, 2, 9, 10, 11, 100, 1000}) {
            assertCopied(SequenceInOneBuffer.of(count, 0), documents(count));
        }
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void copiesDocumentsOfEveryBacking(final Backing backing) {
        BsonArray sequence = new BsonArray();
        for (int i = 0; i < 12; i++) {
            sequence.add(backing.apply(DriverShapes.encode(document(i))));
        }
        assertCopied(sequence, documents(12));
    }

    @Test
    void copiesTopLevelsWithPlainArraysAndByteBackedValuesOutsideSequences() {
        BsonDocument command = new BsonDocument("update", new BsonString("customers"))
                .append("let", Backing.BYTE_BUF_HEAP.apply(DriverShapes.encode(document(7))))
                .append("ids", new BsonArray(List.of(new BsonInt32(1), new BsonString("two"), document(3),
                        Backing.RAW.apply(DriverShapes.encode(document(4))))))
                .append("$db", new BsonString("shop"))
                .append("updates", SequenceInOneBuffer.of(3, 0));
        byte[] expected = DriverShapes.encode(new BsonDocument("update", new BsonString("customers"))
                .append("let", document(7))
                .append("ids", new BsonArray(List.of(new BsonInt32(1), new BsonString("two"), document(3), document(4))))
                .append("$db", new BsonString("shop"))
                .append("updates", new BsonArray(documents(3))));
        assertArrayEquals(expected, copy(command));
    }

    @Test
    void sequenceWhoseDocumentsDoNotFillTheSpanBetweenItsEndsIsCopiedDocumentByDocument() {
        assumeFieldAccess();
        // bytes between the documents: the size from the ends is too large
        assertCopied(SequenceInOneBuffer.of(5, 3), documents(5));
        // a document listed twice: the size from the ends is too small
        BsonArray twice = SequenceInOneBuffer.of(3, 0);
        twice.add(1, twice.get(1));
        List<BsonValue> plain = documents(3);
        plain.add(1, document(1));
        assertCopied(twice, plain);
    }

    @Test
    void sequenceWhoseEndsMisleadBeforeOtherElementsIsCopiedDocumentByDocument() {
        assumeFieldAccess();
        for (int gap : new int[]{0, 3}) {
            // a document listed twice (gap 0: the size from the ends is too small) or bytes between them (too large)
            BsonArray sequence = SequenceInOneBuffer.of(3, gap);
            sequence.add(1, sequence.get(1));
            List<BsonValue> plain = documents(3);
            plain.add(1, document(1));
            // elements after the sequence that take more room than its size from the ends misses
            BsonString comment = new BsonString("c".repeat(200));
            BsonDocument command = new BsonDocument("insert", new BsonString("customers")).append("documents", sequence)
                    .append("comment", comment).append("$db", new BsonString("shop"));
            byte[] expected = DriverShapes.encode(new BsonDocument("insert", new BsonString("customers"))
                    .append("documents", new BsonArray(plain)).append("comment", comment)
                    .append("$db", new BsonString("shop")));
            assertArrayEquals(expected, copy(command), "gap=" + gap);
        }
    }

    @Test
    void documentLengthBeyondItsBufferIsRefused() {
        assumeFieldAccess();
        byte[] bytes = DriverShapes.encode(document(1));
        writeInt(bytes, 0, bytes.length + 10);
        // the driver's buffer ends before the length says: the document would cross it
        BsonFormatException e = assertThrows(BsonFormatException.class, () -> copyOne(
                DriverShapes.byteBufDocument(ByteBuffer.wrap(bytes), 0)));
        assertMessage(e, "length out of bounds", "length=" + (bytes.length + 10), "available=" + bytes.length);
    }

    @Test
    void documentLengthBelowFiveIsRefused() {
        assumeFieldAccess();
        byte[] bytes = DriverShapes.encode(document(1));
        writeInt(bytes, 0, 4);
        BsonFormatException e = assertThrows(BsonFormatException.class, () -> copyOne(
                DriverShapes.byteBufDocument(ByteBuffer.wrap(bytes), 0)));
        assertMessage(e, "length out of bounds", "length=4");
    }

    @Test
    void bufferTooShortForADocumentIsRefused() {
        assumeFieldAccess();
        BsonFormatException e = assertThrows(BsonFormatException.class, () -> copyOne(
                DriverShapes.byteBufDocument(ByteBuffer.wrap(new byte[]{5, 0, 0, 0}), 0)));
        assertMessage(e, "available=4");
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void documentWithoutTerminatingNulIsRefusedInEveryBacking(final Backing backing) {
        byte[] bytes = DriverShapes.encode(document(1));
        bytes[bytes.length - 1] = 1;
        BsonFormatException e = assertThrows(BsonFormatException.class, () -> copyOne(backing.apply(bytes)));
        assertMessage(e, "does not end with NUL", "index=", "length=" + bytes.length);
    }

    @Test
    void rawDocumentWhosePrefixDoesNotSayItsBytesIsRefused() {
        byte[] bytes = DriverShapes.encode(document(1));
        writeInt(bytes, 0, bytes.length - 1);
        BsonFormatException e = assertThrows(BsonFormatException.class, () -> copyOne(new RawBsonDocument(bytes)));
        assertMessage(e, "length=" + (bytes.length - 1), "available=" + bytes.length);
    }

    @Test
    void corruptionInsideAWellFramedDocumentIsCopiedAsItIs() {
        byte[] bytes = DriverShapes.encode(document(1));
        // the type byte of the second element: unknown, and not read by a framed copy
        bytes[4 + 1 + 4 + 4] = 0x20;
        byte[] copy = copyOne(Backing.BYTE_BUF_HEAP_IN_MESSAGE.apply(bytes));
        byte[] head = DriverShapes.encode(top().append("documents", new BsonArray(List.of(document(1)))));
        assertEquals(head.length, copy.length);
        int at = copy.length - 2 - bytes.length;
        assertArrayEquals(bytes, Arrays.copyOfRange(copy, at, at + bytes.length));
    }

    @Test
    void commandLargerThanOneArrayIsRefusedBeforeAnyAllocation() {
        byte[] big = new byte[1 << 20];
        writeInt(big, 0, big.length);
        RawBsonDocument document = new RawBsonDocument(big);
        BsonArray sequence = new BsonArray();
        for (int i = 0; i < 2100; i++) {
            sequence.add(document);
        }
        BsonDocument command = top().append("documents", sequence);
        // the command with its sequence as an array: type byte, decimal key and NUL before each document
        long size = DriverShapes.encode(top().append("documents", new BsonArray())).length;
        for (int i = 0; i < 2100; i++) {
            size += 2 + String.valueOf(i).length() + big.length;
        }
        assertTrue(size > Integer.MAX_VALUE, "size=" + size);
        BsonFormatException e = assertThrows(BsonFormatException.class, () -> copy(command));
        assertMessage(e, "too large", "size=" + size);
    }

    private static byte[] copyOne(final BsonDocument document) {
        return copy(top().append("documents", new BsonArray(List.of(document))));
    }

    /** @return the spec-only policy's copy of the command, as the listener makes it */
    private static byte[] copy(final BsonDocument command) {
        String name = command.getFirstKey();
        byte[] bytes = new DocumentRedactor().redactCommand(command, SPEC_ONLY, SPEC_ONLY.commandRules(name), false, false);
        assertNotNull(bytes, name);
        return bytes;
    }

    private static void assertMessage(final Exception e, final String... parts) {
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), e.getMessage() + " lacks " + part);
        }
    }

    private static void writeInt(final byte[] b, final int index, final int value) {
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(index, value);
    }

    private static void assumeFieldAccess() {
        // without field access the driver's buffers are not reached: every sequence is counted document by document, and
        // the driver's documents are read through their readers, which refuse what overruns their buffer themselves
        assumeTrue(DocumentBytes.fieldAccess(), "the driver's buffers are reached only with field access");
    }
}
