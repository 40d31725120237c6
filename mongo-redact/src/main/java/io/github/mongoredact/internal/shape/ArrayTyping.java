package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * The class of an array literal from the types of its elements, by the server's rule: empty; all of one exact BSON type (an
 * Int32 and a Double are two types, so are a string and a symbol); or mixed. Only the elements' own types count: an array of
 * arrays is an array of {@code ?array} whatever they hold.
 *
 * <p>A number of no known type ({@link Literals#NUMBER_UNKNOWN}, a redacted {@code "?number"}) cannot tell "one type" from
 * "mixed" when another number is beside it: the array's class is then refused, never guessed.</p>
 *
 * <p>Not thread-safe: one per {@link Source}, reset for each array (array literals are typed one level deep, so one is enough).</p>
 */
final class ArrayTyping {
    private int count;
    private int first;
    private boolean mixed;
    /** The exact number types seen, one bit each. */
    private int numberTypes;
    private boolean unknownNumber;

    void reset() {
        count = 0;
        first = -1;
        mixed = false;
        numberTypes = 0;
        unknownNumber = false;
    }

    /** Adds an element of class {@code code}: a BSON type byte ({@code & 0xff}) or {@link Literals#NUMBER_UNKNOWN}. */
    void add(final int code) {
        count++;
        int category = Literals.isNumber(code) ? Literals.NUMBER : code;
        if (Literals.isNumber(code)) {
            if (code == Literals.NUMBER_UNKNOWN) {
                unknownNumber = true;
            } else {
                numberTypes |= 1 << (code & 0x1f);
            }
        }
        if (first < 0) {
            first = category;
        } else if (first != category) {
            mixed = true;
        }
    }

    /**
     * @return the array's literal class
     * @throws Unshapeable when a number of unknown type sits beside another number
     */
    int result() {
        if (count == 0) {
            return Literals.EMPTY_ARRAY;
        }
        if (mixed) {
            return Literals.MIXED_ARRAY;
        }
        if (first == Literals.NUMBER) {
            if (unknownNumber && count > 1) {
                throw Unshapeable.because("an array of redacted numbers: one number type or several can not be told");
            }
            return Integer.bitCount(numberTypes) > 1 ? Literals.MIXED_ARRAY : Literals.ARRAY_OF | Literals.NUMBER;
        }
        return Literals.ARRAY_OF | (first == (BsonTypes.SYMBOL & 0xff) ? BsonTypes.STRING : first);
    }
}
