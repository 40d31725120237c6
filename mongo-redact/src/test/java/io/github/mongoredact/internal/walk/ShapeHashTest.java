package io.github.mongoredact.internal.walk;

import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFormatException;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The shape of a kept subtree: keys and value categories hash, values and the elements after an array's first do not. */
class ShapeHashTest {

    private static long shape(final BsonDocument document) {
        return shape(DriverShapes.encode(document));
    }

    private static long shape(final byte[] src) {
        ShapeHash hash = new ShapeHash();
        hash.bind(src, src.length, true);
        hash.reset();
        hash.kept(0, false, 0, true);
        hash.clear();
        return hash.fingerprint();
    }

    private static BsonArray array(final BsonValue... values) {
        return new BsonArray(Arrays.asList(values));
    }

    @Test
    void sameShapeWithOtherValuesHashesAlike() {
        assertEquals(shape(new BsonDocument("a", new BsonInt32(1)).append("b", new BsonString("x"))),
                shape(new BsonDocument("a", new BsonInt64(99)).append("b", new BsonString("another"))));
    }

    @Test
    void anotherKeyOrCategoryHashesDifferently() {
        long base = shape(new BsonDocument("a", new BsonInt32(1)));
        assertNotEquals(base, shape(new BsonDocument("b", new BsonInt32(1))));
        assertNotEquals(base, shape(new BsonDocument("a", new BsonString("1"))));
        assertNotEquals(base, shape(new BsonDocument("a", new BsonDocument())));
    }

    @Test
    void onlyTheFirstElementOfAnArrayCounts() {
        assertEquals(shape(new BsonDocument("a", array(new BsonInt32(1), new BsonString("x")))),
                shape(new BsonDocument("a", array(new BsonInt32(5), new BsonDocument("y", new BsonInt32(1))))));
        assertNotEquals(shape(new BsonDocument("a", array(new BsonInt32(1)))),
                shape(new BsonDocument("a", array(new BsonString("1")))));
    }

    @Test
    void nothingIsMixedInWhenNotHashing() {
        byte[] src = DriverShapes.encode(new BsonDocument("a", new BsonInt32(1)));
        ShapeHash hash = new ShapeHash();
        hash.bind(src, src.length, true);
        hash.reset();
        long empty = hash.fingerprint();
        hash.kept(0, false, 0, false);
        assertEquals(empty, hash.fingerprint());
    }

    /** A document whose innermost document is {@code depth} levels below the top: {@code {"a": {"a": ... {}}}}. */
    /**
     * {@code {a: {a: ... {}}}} with {@code depth} documents around the innermost, written byte by byte: the driver's writer
     * refuses more than 1024 levels, and the bound is deeper than that.
     */
    private static byte[] nested(final int depth) {
        // document k starts at 7 * k: its length (5 + 8 * (depth - k)), then the element 0x03 "a" NUL that holds document
        // k + 1; the innermost is {} (5 bytes); the terminating NULs of the outer documents follow it (zeros already)
        byte[] bytes = new byte[5 + 8 * depth];
        for (int k = 0; k <= depth; k++) {
            int length = 5 + 8 * (depth - k);
            int p = 7 * k;
            bytes[p] = (byte) length;
            bytes[p + 1] = (byte) (length >>> 8);
            bytes[p + 2] = (byte) (length >>> 16);
            bytes[p + 3] = (byte) (length >>> 24);
            if (k < depth) {
                bytes[p + 4] = 0x03;
                bytes[p + 5] = 'a';
            }
        }
        return bytes;
    }

    @Test
    void nestedBytesAreWhatTheDriverWrites() {
        BsonDocument document = new BsonDocument();
        for (int i = 0; i < 100; i++) {
            document = new BsonDocument("a", document);
        }
        assertArrayEquals(DriverShapes.encode(document), nested(100));
    }

    @Test
    void keptSubtreeAsDeepAsTheBoundHashesByItsDepthOnASmallStack() throws InterruptedException {
        byte[] deepest = nested(BsonBounds.MAX_DEPTH - 1);
        byte[] shallower = nested(BsonBounds.MAX_DEPTH - 2);
        long[] shapes = new long[3];
        Throwable[] failure = new Throwable[1];
        Thread thread = new Thread(null, () -> {
            try {
                shapes[0] = shape(deepest);
                shapes[1] = shape(deepest.clone());
                shapes[2] = shape(shallower);
            } catch (Throwable e) {
                failure[0] = e;
            }
        }, "small-stack", 64 * 1024);
        thread.start();
        thread.join();
        assertNull(failure[0]);
        assertEquals(shapes[0], shapes[1]);
        assertNotEquals(shapes[0], shapes[2]);
        assertThrows(BsonFormatException.class, () -> shape(nested(BsonBounds.MAX_DEPTH)));
    }
}
