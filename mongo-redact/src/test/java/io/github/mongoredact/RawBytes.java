package io.github.mongoredact;

import org.bson.RawBsonDocument;

import java.lang.reflect.Field;

/**
 * The bytes behind a {@link RawBsonDocument} on every supported driver line: the public accessors arrived in 5.8, the
 * private fields they read exist on all lines. Tests only.
 */
public final class RawBytes {
    private static final Field BYTES = field("bytes");
    private static final Field OFFSET = field("offset");
    private static final Field LENGTH = field("length");

    private RawBytes() {
    }

    /** @return the array behind the document */
    public static byte[] array(final RawBsonDocument document) {
        return (byte[]) get(BYTES, document);
    }

    /** @return the index of the document's first byte in its array */
    public static int offset(final RawBsonDocument document) {
        return (Integer) get(OFFSET, document);
    }

    /** @return the document's length in bytes */
    public static int length(final RawBsonDocument document) {
        return (Integer) get(LENGTH, document);
    }

    private static Object get(final Field field, final RawBsonDocument document) {
        try {
            return field.get(document);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    private static Field field(final String name) {
        try {
            Field field = RawBsonDocument.class.getDeclaredField(name);
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException e) {
            throw new AssertionError(e);
        }
    }
}
