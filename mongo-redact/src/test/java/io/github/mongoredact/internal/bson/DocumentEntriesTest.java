package io.github.mongoredact.internal.bson;

import io.github.mongoredact.DriverShapes;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both ways plain documents are read: through their map's {@code forEach} (a {@link BsonDocument} of exactly that class, on a
 * runtime that opens its field), and through {@code entrySet()} (other classes, or {@code io.github.mongoredact.noFieldAccess=true},
 * run in an isolated class loader): the same entries in the same order, so that the sizes and bytes are the codec's on both.
 */
class DocumentEntriesTest {
    private static final String NO_FIELD_ACCESS = "io.github.mongoredact.noFieldAccess";

    /** A plain document of a class of its own: read through {@code entrySet()} on every runtime. */
    private static final class OwnDocument extends BsonDocument {
        private static final long serialVersionUID = 1L;
    }

    private static BsonDocument nested(final BsonDocument into) {
        BsonDocument level = into;
        for (int i = 0; i < 3 * PlainEncoder.RECURSION_LIMIT; i++) {
            BsonDocument inner = new BsonDocument("n", new BsonInt32(i));
            level.append("d", inner);
            level = inner;
        }
        return into;
    }

    private static BsonDocument filter(final BsonDocument document) {
        return document.append("email", new BsonString("alice@example.com")).append("k\u00fcnde", new BsonString("\u20ac"));
    }

    /** The top level the driver builds for an insert, its filter-like value a document of the given class. */
    private static BsonDocument command(final BsonDocument value) {
        return new BsonDocument("insert", new BsonString("customers")).append("ordered", BsonBoolean.TRUE)
                .append("let", nested(filter(value))).append("$db", new BsonString("shop"));
    }

    private static List<String> keysHandedOver(final BsonDocument document) {
        List<String> keys = new ArrayList<>();
        DocumentEntries.forEach(document, (key, value) -> keys.add(key + "=" + value));
        return keys;
    }

    @Test
    void readsPlainDocumentsThroughTheirMapOnThisRuntime() {
        assertTrue(DocumentEntries.fieldAccess());
    }

    @Test
    void handsOverTheEntriesInOrderOnBothPaths() {
        BsonDocument plain = filter(new BsonDocument()).append("n", new BsonInt32(1));
        BsonDocument own = filter(new OwnDocument()).append("n", new BsonInt32(1));
        List<String> expected = new ArrayList<>();
        for (Map.Entry<String, BsonValue> entry : plain.entrySet()) {
            expected.add(entry.getKey() + "=" + entry.getValue());
        }
        assertEquals(expected, keysHandedOver(plain));
        assertEquals(expected, keysHandedOver(own));
    }

    @Test
    void documentsOfOtherClassesAreCountedAndWrittenAsTheCodecWritesThem() {
        BsonDocument command = command(new OwnDocument());
        byte[] expected = DriverShapes.encode(command(new BsonDocument()));
        assertEquals(expected.length, new PlainEncoder().size(command));
        assertArrayEquals(expected, PlainEncoderTest.written(command));
    }

    @Test
    void fallbackPathCountsWritesAndCopiesAsTheCodecWrites() throws Exception {
        Class<?> entries = IsolatedLoader.loadWithProperty(DocumentEntries.class.getName(), NO_FIELD_ACCESS, "true");
        assertFalse((Boolean) method(entries, "fieldAccess").invoke(null), "the fallback path must be in use");
        ClassLoader loader = entries.getClassLoader();
        Class<?> encoderType = Class.forName(PlainEncoder.class.getName(), true, loader);
        Constructor<?> constructor = encoderType.getDeclaredConstructor();
        constructor.setAccessible(true);

        BsonDocument command = command(new BsonDocument());
        byte[] expected = DriverShapes.encode(command);
        Object encoder = constructor.newInstance();
        assertEquals(expected.length, method(encoderType, "size", BsonDocument.class).invoke(encoder, command));
        assertArrayEquals(expected, written(loader, encoderType, encoder, command, expected.length));

        // a top level with a sequence of byte-backed documents, copied whole
        BsonArray sequence = new BsonArray();
        BsonArray plain = new BsonArray();
        for (int i = 0; i < 3; i++) {
            BsonDocument document = SequenceInOneBuffer.document(i);
            plain.add(document);
            sequence.add(DriverShapes.Backing.RAW.apply(DriverShapes.encode(document)));
        }
        byte[] withPlain = DriverShapes.encode(command(new BsonDocument()).append("documents", plain));
        assertArrayEquals(withPlain, written(loader, encoderType, encoder, command(new BsonDocument())
                .append("documents", sequence), withPlain.length));
    }

    /** @return the document written by the isolated loader's encoder into an exact array of {@code size} bytes */
    private static byte[] written(final ClassLoader loader, final Class<?> encoderType, final Object encoder,
                                  final BsonDocument document, final int size) throws Exception {
        Class<?> outputType = Class.forName(Output.class.getName(), true, loader);
        Constructor<?> outputConstructor = outputType.getDeclaredConstructor();
        outputConstructor.setAccessible(true);
        Object output = outputConstructor.newInstance();
        byte[] written = new byte[size];
        method(outputType, "exact", byte[].class, int.class).invoke(output, written, 0);
        method(encoderType, "write", BsonDocument.class, outputType).invoke(encoder, document, output);
        assertEquals(size, method(outputType, "position").invoke(output));
        return written;
    }

    private static Method method(final Class<?> type, final String name, final Class<?>... parameters) throws Exception {
        Method method = type.getDeclaredMethod(name, parameters);
        method.setAccessible(true);
        return method;
    }
}
