package io.github.mongoredact.internal.bson;

import com.mongodb.event.CommandListener;
import io.github.mongoredact.DriverShapes.Backing;
import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.LastEventListener;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both ways of reaching the bytes of the driver's documents: the allocation-free field access, and the public
 * {@code asBsonReader()} path used when the runtime does not allow it (run in an isolated class loader with
 * {@code io.github.mongoredact.noFieldAccess=true}).
 */
class DocumentBytesTest {
    private static final String NO_FIELD_ACCESS = "io.github.mongoredact.noFieldAccess";

    private static BsonDocument sample() {
        BsonArray tags = new BsonArray(Arrays.asList(new BsonString("a"), new BsonString("b")));
        return new BsonDocument("find", new BsonString("customers"))
                .append("filter", new BsonDocument("email", new BsonString("alice@example.com")).append("tags", tags))
                .append("limit", new BsonInt32(3)).append("$db", new BsonString("shop"));
    }

    @Test
    void fieldAccessIsInUseOnThisRuntime() {
        assertTrue(DocumentBytes.fieldAccess());
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void lengthAndCopyGiveTheDocumentBytesAtAnyIndex(final Backing backing) {
        byte[] expected = DriverShapes.encode(sample());
        BsonDocument document = backing.apply(expected);
        assertTrue(DocumentBytes.isByteBacked(document));
        assertEquals(expected.length, DocumentBytes.length(document));
        byte[] dst = new byte[expected.length + 10];
        assertEquals(expected.length, DocumentBytes.copy(document, dst, 7));
        assertArrayEquals(expected, Arrays.copyOfRange(dst, 7, 7 + expected.length));
        assertEquals(0, dst[0]);
        assertEquals(0, dst[dst.length - 1]);
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void viewPointsAtTheHeapArrayWithoutCopying(final Backing backing) {
        byte[] expected = DriverShapes.encode(sample());
        BsonDocument document = backing.apply(expected);
        Workspace workspace = new Workspace();
        boolean viewed = DocumentBytes.view(document, workspace);
        assertEquals(backing != Backing.BYTE_BUF_DIRECT, viewed, "a direct buffer has no heap array to view");
        if (viewed) {
            assertEquals(expected.length, workspace.sourceLength());
            assertArrayEquals(expected, Arrays.copyOfRange(workspace.source(), workspace.sourceOff(), workspace.sourceEnd()));
        }
    }

    @Test
    void plainDocumentIsNotByteBacked() {
        assertFalse(DocumentBytes.isByteBacked(sample()));
        assertFalse(DocumentBytes.view(sample(), new Workspace()));
    }

    @Test
    void copyRefusesTooSmallDestination() {
        byte[] bytes = DriverShapes.encode(sample());
        BsonDocument document = Backing.BYTE_BUF_DIRECT.apply(bytes);
        assertThrows(BsonFormatException.class, () -> DocumentBytes.copy(document, new byte[bytes.length - 1], 0));
    }

    @Test
    void lengthRefusesImpossibleLength() {
        byte[] bad = DriverShapes.encode(sample());
        Bytes.writeInt(bad, 0, 3);
        BsonDocument document = DriverShapes.byteBufDocument(java.nio.ByteBuffer.wrap(bad), 0);
        // any RuntimeException is turned into a marker document by the listener
        assertThrows(RuntimeException.class, () -> DocumentBytes.length(document));
    }

    // ----------------------------------------------------------------------------------------------------------------------
    // the fallback through asBsonReader()

    @ParameterizedTest
    @EnumSource(value = Backing.class, names = {"BYTE_BUF_HEAP", "BYTE_BUF_HEAP_IN_MESSAGE", "BYTE_BUF_DIRECT"})
    void fallbackPathCopiesTheDriverDocumentThroughItsReader(final Backing backing) throws Exception {
        Class<?> isolated = IsolatedLoader.loadWithProperty(DocumentBytes.class.getName(), NO_FIELD_ACCESS, "true");
        assertFalse((Boolean) method(isolated, "fieldAccess").invoke(null), "the fallback path must be in use");
        byte[] expected = DriverShapes.encode(sample());
        BsonDocument document = backing.apply(expected);
        assertTrue((Boolean) method(isolated, "isByteBacked", BsonDocument.class).invoke(null, document));
        assertEquals(expected.length, method(isolated, "length", BsonDocument.class).invoke(null, document));
        byte[] dst = new byte[expected.length + 3];
        assertEquals(expected.length, method(isolated, "copy", BsonDocument.class, byte[].class, int.class)
                .invoke(null, document, dst, 3));
        assertArrayEquals(expected, Arrays.copyOfRange(dst, 3, dst.length));
        // the document is still readable: the reader worked on a duplicate
        assertEquals(sample(), DriverShapes.deepCopy(document));
    }

    @ParameterizedTest
    @EnumSource(value = Backing.class, names = {"BYTE_BUF_HEAP_IN_MESSAGE", "BYTE_BUF_DIRECT"})
    void listenerOnTheFallbackPathForwardsByteExactCopies(final Backing backing) throws Exception {
        Class<?> listenerType = IsolatedLoader.loadWithProperty("io.github.mongoredact.RedactingCommandListener",
                NO_FIELD_ACCESS, "true");
        ClassLoader loader = listenerType.getClassLoader();
        Class<?> policyType = Class.forName("io.github.mongoredact.RedactionPolicy", true, loader);
        Class<?> documentBytes = Class.forName(DocumentBytes.class.getName(), true, loader);
        assertFalse((Boolean) method(documentBytes, "fieldAccess").invoke(null));
        for (String policyName : new String[]{"specOnly", "defaults"}) {
            Object policy = policyType.getMethod(policyName).invoke(null);
            LastEventListener last = new LastEventListener();
            Object builder = listenerType.getMethod("builder").invoke(null);
            builder.getClass().getMethod("policy", policyType).invoke(builder, policy);
            builder.getClass().getMethod("addListener", CommandListener.class).invoke(builder, last);
            CommandListener listener = (CommandListener) builder.getClass().getMethod("build").invoke(builder);

            // byte-backed top level
            listener.commandStarted(DriverShapes.started(1, "find", backing.apply(DriverShapes.encode(sample()))));
            BsonDocument expectedFind = sample();
            if (policyName.equals("defaults")) {
                expectedFind.put("filter", new BsonDocument("email", new BsonString("?string"))
                        .append("tags", new BsonArray(Arrays.asList(new BsonString("?string"), new BsonString("?string")))));
            }
            assertArrayEquals(DriverShapes.encode(expectedFind), DriverShapes.ownedBytes(last.started.getCommand()),
                    policyName);

            // plain top level with a sequence of the driver's documents
            List<BsonDocument> documents = new ArrayList<>();
            List<BsonDocument> redacted = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                documents.add(new BsonDocument("email", new BsonString("c" + i + "@example.com")).append("n", new BsonInt32(i)));
                redacted.add(new BsonDocument("email", new BsonString("?string")).append("n", new BsonString("?number")));
            }
            BsonDocument top = new BsonDocument("insert", new BsonString("customers")).append("ordered", BsonBoolean.TRUE)
                    .append("$db", new BsonString("shop"));
            listener.commandStarted(DriverShapes.started(2, "insert", DriverShapes.withSequences(top, backing, "documents",
                    documents)));
            BsonDocument expectedInsert = DriverShapes.merged(top, "documents",
                    policyName.equals("defaults") ? redacted : documents);
            assertArrayEquals(DriverShapes.encode(expectedInsert), DriverShapes.ownedBytes(last.started.getCommand()),
                    policyName);
            assertTrue(last.started.getCommand() instanceof RawBsonDocument);
        }
    }

    private static Method method(final Class<?> type, final String name, final Class<?>... parameters) throws Exception {
        Method method = type.getDeclaredMethod(name, parameters);
        method.setAccessible(true);
        return method;
    }
}
