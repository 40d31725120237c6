package io.github.mongoredact.internal.bson;

/**
 * A document's bytes are not valid BSON: truncated, a length out of bounds, an unknown type. The message says where.
 */
public final class BsonFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BsonFormatException(final String message) {
        super(message, null, false, false);
    }
}
