package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.mask.Placeholders;
import io.github.mongoredact.internal.walk.BsonCursor;

import java.nio.charset.StandardCharsets;

/**
 * The command being shaped, read through the project's one element reader ({@link BsonCursor}, strict: keys and values checked
 * as the driver's decoder checks them), and what its values are as literals. In placeholder mode a string that is exactly one
 * of the redactor's typed placeholders ({@link Placeholders}) stands for a value of the type it names; the fixed placeholder
 * {@code "?"} names none and is refused wherever a literal's type is read.
 *
 * <p>The cursor holds the element read last only: callers copy its parts into locals before reading deeper.</p>
 *
 * <p>Not thread-safe: one per {@link QueryShaper}, bound for one command and cleared after it.</p>
 */
final class Source {
    /** {@link #placeholder}: not a placeholder (or not in placeholder mode). */
    static final int NONE = -1;
    /** The deepest nesting shaped: the server refuses deeper match expressions; the engine's recursion stays shallow. */
    static final int MAX_DEPTH = 100;

    private static final byte[] EMPTY = new byte[0];
    private static final byte[] FIXED = Placeholders.of(BsonTypes.STRING, true);
    private static final byte[] TYPES = {BsonTypes.DOUBLE, BsonTypes.STRING, BsonTypes.DOCUMENT, BsonTypes.ARRAY, BsonTypes.BINARY,
        BsonTypes.UNDEFINED, BsonTypes.OBJECT_ID, BsonTypes.BOOLEAN, BsonTypes.DATE_TIME, BsonTypes.NULL, BsonTypes.REGEX,
        BsonTypes.DB_POINTER, BsonTypes.JAVASCRIPT, BsonTypes.SYMBOL, BsonTypes.CODE_WITH_SCOPE, BsonTypes.TIMESTAMP,
        BsonTypes.MIN_KEY, BsonTypes.MAX_KEY};

    private final BsonCursor cursor = new BsonCursor();
    private final ArrayTyping typing = new ArrayTyping();
    private byte[] src = EMPTY;
    private boolean placeholders;

    void bind(final byte[] bytes, final int end, final boolean placeholderMode) {
        cursor.bind(bytes, end, true);
        this.src = bytes;
        this.placeholders = placeholderMode;
    }

    void clear() {
        cursor.clear();
        src = EMPTY;
    }

    byte[] bytes() {
        return src;
    }

    boolean placeholderMode() {
        return placeholders;
    }

    /** Checks the frame of the document at {@code off}. @return the index of its terminating NUL */
    int open(final int off, final int depth) {
        if (depth > MAX_DEPTH) {
            throw Unshapeable.because("nested deeper than " + MAX_DEPTH);
        }
        return cursor.open(off, depth);
    }

    /** Reads the element at {@code p} of the document whose NUL is at {@code end}. */
    void read(final int p, final int end) {
        cursor.read(p, end);
    }

    byte type() {
        return cursor.type();
    }

    int key() {
        return cursor.key();
    }

    int keyLength() {
        return cursor.keyLength();
    }

    int value() {
        return cursor.value();
    }

    int valueEnd() {
        return cursor.valueEnd();
    }

    boolean keyIs(final byte[] name) {
        return cursor.keyIs(name);
    }

    /** @return whether the bytes {@code src[off, off + len)} are {@code name} */
    boolean is(final int off, final int len, final byte[] name) {
        return Bytes.equal(name, src, off, len);
    }

    /** @return the length of the string value at {@code value}, without its NUL; its bytes start at {@code value + 4} */
    int stringLength(final int value) {
        return Bytes.readInt(src, value) - 1;
    }

    /** @return whether the string value at {@code value} is {@code text} */
    boolean stringIs(final int value, final byte[] text) {
        return is(value + 4, stringLength(value), text);
    }

    /** @return whether the string value at {@code value} starts with {@code c} */
    boolean stringStartsWith(final int value, final char c) {
        return stringLength(value) > 0 && src[value + 4] == c;
    }

    /**
     * @return the value of an integral number (Int32, Int64, or a Double with no fraction within the range of a long)
     * @throws Unshapeable for any other value: the server's integer parsers refuse it, or the engine does not reproduce them
     */
    long integral(final byte type, final int value) {
        switch (type) {
            case BsonTypes.INT32:
                return Bytes.readInt(src, value);
            case BsonTypes.INT64:
                return Bytes.readLong(src, value);
            case BsonTypes.DOUBLE:
                double d = Double.longBitsToDouble(Bytes.readLong(src, value));
                if (Double.isNaN(d) || Double.compare(Math.rint(d), d) != 0 || Math.abs(d) >= 0x1p63) {
                    throw Unshapeable.because("not an integral number");
                }
                return (long) d;
            default:
                throw Unshapeable.because("not an integral number");
        }
    }

    /** @return the bytes {@code src[off, off + len)} as text (UTF-8, checked by the strict reader) */
    String text(final int off, final int len) {
        return new String(src, off, len, StandardCharsets.UTF_8);
    }

    /**
     * @return the class of the value a placeholder string stands for ({@link Literals}: a BSON type byte, or
     * {@link Literals#NUMBER_UNKNOWN}), or {@link #NONE} when the value is not a placeholder or the mode is not placeholder mode
     * @throws Unshapeable for the fixed placeholder {@code "?"}, which names no type
     */
    int placeholder(final byte type, final int value) {
        if (!placeholders || type != BsonTypes.STRING) {
            return NONE;
        }
        int off = value + 4;
        int len = stringLength(value);
        if (len < 1 || src[off] != '?' || !Placeholders.isPlaceholder(src, off, len)) {
            return NONE;
        }
        if (is(off, len, FIXED)) {
            throw Unshapeable.because("a redacted value of no known type (\"?\")");
        }
        for (byte t : TYPES) {
            if (is(off, len, Placeholders.of(t, false))) {
                return t == BsonTypes.DOUBLE ? Literals.NUMBER_UNKNOWN : t & 0xff;
            }
        }
        throw Unshapeable.because("an unknown placeholder");
    }

    /** @return whether the value is a placeholder string (placeholder mode only) */
    boolean isPlaceholder(final byte type, final int value) {
        return placeholder(type, value) != NONE;
    }

    /**
     * The literal class of a value as the server types it (see {@link Literals}): a scalar's type, an array's by its elements.
     *
     * @throws Unshapeable where the copy can not tell the class: {@code "?"}; {@code "?array"} (its elements are unknown); an
     * array of several redacted numbers
     */
    int literal(final byte type, final int value, final int depth) {
        int placeholder = placeholder(type, value);
        if (placeholder == (BsonTypes.ARRAY & 0xff)) {
            throw Unshapeable.because("a redacted array: the types of its elements are unknown");
        }
        if (placeholder != NONE) {
            return placeholder;
        }
        if (type != BsonTypes.ARRAY) {
            return type & 0xff;
        }
        int end = open(value, depth);
        typing.reset();
        for (int p = value + 4; p < end; p = cursor.valueEnd()) {
            cursor.read(p, end);
            typing.add(elementClass(cursor.type(), cursor.value()));
        }
        return typing.result();
    }

    /** @return the class of an array element: its own type, or the type its placeholder names */
    int elementClass(final byte type, final int value) {
        int placeholder = placeholder(type, value);
        return placeholder != NONE ? placeholder : type & 0xff;
    }
}
