package io.github.mongoredact.jmh.floor;

import org.bson.BsonValue;

/**
 * The scalar fields of the plain top level the driver builds for an insert ({@code insert}, {@code ordered}, {@code $db}),
 * written verbatim: under both policies the library keeps them for this input. Strings, booleans and 32/64-bit integers only
 * (the prototypes need not be general); anything else fails.
 */
final class TopLevel {
    private TopLevel() {
    }

    /** @return the encoded size of the element {@code key: value} */
    static int elementSize(final String key, final BsonValue value) {
        int head = 1 + key.length() + 1;
        switch (value.getBsonType()) {
            case STRING:
                return head + 4 + value.asString().getValue().length() + 1;
            case BOOLEAN:
                return head + 1;
            case INT32:
                return head + 4;
            case INT64:
                return head + 8;
            default:
                throw new IllegalArgumentException("the floor prototypes write no " + value.getBsonType() + " at the top level");
        }
    }

    /** Writes the element {@code key: value}; the output must have room for {@link #elementSize}. */
    static void write(final BsonOut out, final String key, final BsonValue value) {
        out.putByte(value.getBsonType().getValue());
        out.putAscii(key);
        switch (value.getBsonType()) {
            case STRING:
                String s = value.asString().getValue();
                out.putInt(s.length() + 1);
                out.putAscii(s);
                break;
            case BOOLEAN:
                out.putByte(value.asBoolean().getValue() ? 1 : 0);
                break;
            case INT32:
                out.putInt(value.asInt32().getValue());
                break;
            case INT64:
                long v = value.asInt64().getValue();
                out.putInt((int) v);
                out.putInt((int) (v >>> 32));
                break;
            default:
                throw new IllegalArgumentException("the floor prototypes write no " + value.getBsonType() + " at the top level");
        }
    }
}
