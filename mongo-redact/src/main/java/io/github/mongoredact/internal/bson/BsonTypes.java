package io.github.mongoredact.internal.bson;

/**
 * The type bytes of BSON elements, by the names the specification gives them, for the code that reads raw bytes: a
 * {@code switch} over a type byte and a comparison name their type. Each is a compile-time constant, as the literal was.
 */
public final class BsonTypes {
    public static final byte DOUBLE = 0x01;
    public static final byte STRING = 0x02;
    public static final byte DOCUMENT = 0x03;
    public static final byte ARRAY = 0x04;
    public static final byte BINARY = 0x05;
    public static final byte UNDEFINED = 0x06;
    public static final byte OBJECT_ID = 0x07;
    public static final byte BOOLEAN = 0x08;
    public static final byte DATE_TIME = 0x09;
    public static final byte NULL = 0x0A;
    public static final byte REGEX = 0x0B;
    public static final byte DB_POINTER = 0x0C;
    public static final byte JAVASCRIPT = 0x0D;
    public static final byte SYMBOL = 0x0E;
    public static final byte CODE_WITH_SCOPE = 0x0F;
    public static final byte INT32 = 0x10;
    public static final byte TIMESTAMP = 0x11;
    public static final byte INT64 = 0x12;
    public static final byte DECIMAL128 = 0x13;
    /** Negative as a {@code byte}: an index by type takes {@code type & 0xff}. */
    public static final byte MIN_KEY = (byte) 0xFF;
    public static final byte MAX_KEY = 0x7F;
    /** The old binary subtype, whose value repeats its length inside. */
    public static final byte OLD_BINARY_SUBTYPE = 0x02;

    private BsonTypes() {
    }
}
