package io.github.mongoredact.internal;

/**
 * A document's bytes are not valid BSON: truncated, a length out of bounds, an unknown type. The message says where.
 */
final class BsonFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BsonFormatException(final String message) {
        super(message, null, false, false);
    }
}
