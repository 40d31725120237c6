package io.github.mongoredact.internal.bson;

/**
 * The errors of broken framing, each worded once, with the values that locate the fault ({@code index=}, the length read,
 * the bound it broke). Every check of a document's frame, in the walk, the verbatim check and the copies, throws these.
 */
final class FramingErrors {

    private FramingErrors() {
    }

    /** The same for a plain document, which has no index. */
    static BsonFormatException tooDeep() {
        return new BsonFormatException("document nested deeper than " + BsonBounds.MAX_DEPTH + " levels");
    }

    static BsonFormatException tooDeep(final int index) {
        return new BsonFormatException("document nested deeper than " + BsonBounds.MAX_DEPTH + " levels at index=" + index);
    }

    /** @param bound the name of what the document does not fit in ({@code end}, {@code available}, {@code length}) */
    static BsonFormatException truncated(final int index, final String bound, final long value) {
        return new BsonFormatException("document truncated: index=" + index + " " + bound + "=" + value);
    }

    /** @param bound the name of what the length must fit in ({@code end}, {@code available}) */
    static BsonFormatException lengthOutOfBounds(final int index, final int length, final String bound, final long value) {
        return new BsonFormatException("document length out of bounds: index=" + index + " length=" + length + " " + bound
                + "=" + value);
    }

    /** The same, for a document whose place is not known (a buffer's). */
    static BsonFormatException lengthOutOfBounds(final int length, final int available) {
        return new BsonFormatException("document length out of bounds: length=" + length + " available=" + available);
    }

    static BsonFormatException notTerminated(final int index, final int length) {
        return new BsonFormatException("document does not end with NUL: index=" + index + " length=" + length);
    }

    static BsonFormatException scopeMismatch(final int index, final int end) {
        return new BsonFormatException("JavaScript scope length does not match: index=" + index + " end=" + end);
    }
}
