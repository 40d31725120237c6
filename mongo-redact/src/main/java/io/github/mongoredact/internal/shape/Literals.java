package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

import java.nio.charset.StandardCharsets;

/**
 * What the server writes in place of a literal, by the literal's class: in the debug shape a string naming its type
 * ({@code "?number"}, {@code "?array<?string>"}), in the representative shape a fixed value of that type ({@code 1},
 * {@code ["?"]}). The server's tables ({@code serialization_options.cpp}: {@code debugTypeString}, {@code defaultLiteralOfType},
 * the array subtype rule) are reproduced here, not the project's redaction placeholders (the server writes a symbol as
 * {@code "?string"}).
 *
 * <p>A literal's class is an int: a scalar's is its BSON type byte ({@code & 0xff}); {@link #NUMBER_UNKNOWN} is a number of no
 * known BSON type (a redacted {@code "?number"}); an array's is {@link #EMPTY_ARRAY}, {@link #MIXED_ARRAY} or
 * {@link #ARRAY_OF} plus the one type of its elements. Stateless and thread-safe.</p>
 */
final class Literals {
    /** A number whose BSON type is not known: alike for every scalar use, ambiguous as an array element next to another number. */
    static final int NUMBER_UNKNOWN = 0x101;
    static final int EMPTY_ARRAY = 0x200;
    static final int MIXED_ARRAY = 0x201;
    /** Plus the type of every element: an array of one type. */
    static final int ARRAY_OF = 0x400;

    static final int NUMBER = BsonTypes.DOUBLE;

    private static final byte[][] DEBUG = new byte[256][];
    private static final byte[][] DEBUG_ARRAY_OF = new byte[256][];
    private static final byte[] DEBUG_EMPTY_ARRAY = ascii("[]");
    private static final byte[] DEBUG_MIXED_ARRAY = ascii("?array<>");

    private static final byte[] QUESTION = ascii("?");
    private static final byte[] OR_MORE_TYPES = ascii("or more types");
    private static final byte[] EMPTY_BINARY = {0, 0, 0, 0, 0};
    private static final byte[] MAX_OBJECT_ID = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    private static final byte[] ZERO_LONG = new byte[8];
    /** Regex {@code /?/} with no options: pattern and options as C strings. */
    private static final byte[] REGEX = {'/', '?', '/', 0, 0};
    /** DBPointer {@code "?.?"}, {@code ObjectId(ff...ff)}. */
    private static final byte[] DB_POINTER = {4, 0, 0, 0, '?', '.', '?', 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    /** Code {@code "return ?;"}. */
    private static final byte[] JAVASCRIPT = concat(new byte[]{10, 0, 0, 0}, ascii("return ?;"), new byte[]{0});
    /** Code with scope {@code "return ?;"}, {@code {}}. */
    private static final byte[] CODE_WITH_SCOPE = concat(new byte[]{23, 0, 0, 0}, JAVASCRIPT, new byte[]{5, 0, 0, 0, 0});

    static {
        debug("?number", BsonTypes.DOUBLE, BsonTypes.INT32, BsonTypes.INT64, BsonTypes.DECIMAL128);
        debug("?string", BsonTypes.STRING, BsonTypes.SYMBOL);
        debug("?object", BsonTypes.DOCUMENT);
        debug("?array", BsonTypes.ARRAY);
        debug("?binData", BsonTypes.BINARY);
        debug("?undefined", BsonTypes.UNDEFINED);
        debug("?objectId", BsonTypes.OBJECT_ID);
        debug("?bool", BsonTypes.BOOLEAN);
        debug("?date", BsonTypes.DATE_TIME);
        debug("?null", BsonTypes.NULL);
        debug("?regex", BsonTypes.REGEX);
        debug("?dbPointer", BsonTypes.DB_POINTER);
        debug("?javascript", BsonTypes.JAVASCRIPT);
        debug("?javascriptWithScope", BsonTypes.CODE_WITH_SCOPE);
        debug("?timestamp", BsonTypes.TIMESTAMP);
        debug("?minKey", BsonTypes.MIN_KEY);
        debug("?maxKey", BsonTypes.MAX_KEY);
    }

    private Literals() {
    }

    private static void debug(final String placeholder, final byte... types) {
        for (byte type : types) {
            DEBUG[type & 0xff] = ascii(placeholder);
            DEBUG_ARRAY_OF[type & 0xff] = ascii("?array<" + placeholder + ">");
        }
    }

    static byte[] ascii(final String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(final byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] all = new byte[length];
        int p = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, p, part.length);
            p += part.length;
        }
        return all;
    }

    /** @return whether {@code code} is the class of a scalar literal that names a known BSON type */
    static boolean isScalar(final int code) {
        return code == NUMBER_UNKNOWN || code < 0x100 && DEBUG[code] != null && code != (BsonTypes.ARRAY & 0xff);
    }

    /** @return whether a scalar class is a number */
    static boolean isNumber(final int code) {
        return code == NUMBER_UNKNOWN || code == BsonTypes.DOUBLE || code == BsonTypes.INT32 || code == BsonTypes.INT64
                || code == BsonTypes.DECIMAL128;
    }

    /** @return the debug placeholder of a literal class */
    static byte[] debugPlaceholder(final int code) {
        if (code == NUMBER_UNKNOWN) {
            return DEBUG[NUMBER];
        }
        if (code == EMPTY_ARRAY) {
            return DEBUG_EMPTY_ARRAY;
        }
        if (code == MIXED_ARRAY) {
            return DEBUG_MIXED_ARRAY;
        }
        byte[] placeholder = (code & ARRAY_OF) != 0 ? DEBUG_ARRAY_OF[code & 0xff] : code < 0x100 ? DEBUG[code] : null;
        if (placeholder == null) {
            throw new IllegalArgumentException("not a literal class: " + code);
        }
        return placeholder;
    }

    /** Writes the representative value of a literal class under the key named in {@code out}. */
    static void writeRepresentative(final BsonBuffer out, final int code) {
        if (code == EMPTY_ARRAY) {
            out.open(BsonTypes.ARRAY);
            out.close();
        } else if (code == MIXED_ARRAY) {
            out.open(BsonTypes.ARRAY);
            out.int32(2);
            out.string(OR_MORE_TYPES);
            out.close();
        } else if ((code & ARRAY_OF) != 0) {
            out.open(BsonTypes.ARRAY);
            writeScalar(out, code & 0xff);
            out.close();
        } else {
            writeScalar(out, code == NUMBER_UNKNOWN ? NUMBER : code);
        }
    }

    private static void writeScalar(final BsonBuffer out, final int type) {
        switch ((byte) type) {
            case BsonTypes.DOUBLE:
            case BsonTypes.INT32:
            case BsonTypes.INT64:
            case BsonTypes.DECIMAL128:
                out.int32(1);
                break;
            case BsonTypes.STRING:
            case BsonTypes.SYMBOL:
                out.string(QUESTION);
                break;
            case BsonTypes.DOCUMENT:
                out.open(BsonTypes.DOCUMENT);
                out.key(QUESTION, 0, 1);
                out.string(QUESTION);
                out.close();
                break;
            case BsonTypes.ARRAY:
                out.open(BsonTypes.ARRAY);
                out.close();
                break;
            case BsonTypes.BOOLEAN:
                out.bool(true);
                break;
            default:
                writeOther(out, (byte) type);
        }
    }

    private static void writeOther(final BsonBuffer out, final byte type) {
        switch (type) {
            case BsonTypes.BINARY:
                out.value(type, EMPTY_BINARY, 0, EMPTY_BINARY.length);
                break;
            case BsonTypes.OBJECT_ID:
                out.value(type, MAX_OBJECT_ID, 0, MAX_OBJECT_ID.length);
                break;
            case BsonTypes.DATE_TIME:
            case BsonTypes.TIMESTAMP:
                out.value(type, ZERO_LONG, 0, ZERO_LONG.length);
                break;
            case BsonTypes.REGEX:
                out.value(type, REGEX, 0, REGEX.length);
                break;
            case BsonTypes.DB_POINTER:
                out.value(type, DB_POINTER, 0, DB_POINTER.length);
                break;
            case BsonTypes.JAVASCRIPT:
                out.value(type, JAVASCRIPT, 0, JAVASCRIPT.length);
                break;
            case BsonTypes.CODE_WITH_SCOPE:
                out.value(type, CODE_WITH_SCOPE, 0, CODE_WITH_SCOPE.length);
                break;
            case BsonTypes.UNDEFINED:
            case BsonTypes.NULL:
            case BsonTypes.MIN_KEY:
            case BsonTypes.MAX_KEY:
                out.value(type, ZERO_LONG, 0, 0);
                break;
            default:
                throw new IllegalArgumentException("not a literal type: " + type);
        }
    }
}
