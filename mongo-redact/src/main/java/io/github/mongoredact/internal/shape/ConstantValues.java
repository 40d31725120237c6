package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * Which parts of an aggregation expression are constants, as the server's parser makes them: a scalar (a string not starting
 * with {@code $}), {@code {}}, {@code {$literal: v}} and {@code {$const: v}} are {@code ExpressionConstant}s; an object of
 * field expressions or an array whose parts are all constant is constant as a whole ({@code selfAndChildrenAreConstant}) but is
 * not an {@code ExpressionConstant}. And the class ({@link Literals}) of a constant's value.
 *
 * <p>Not thread-safe: one per {@link ExpressionWriter}.</p>
 */
final class ConstantValues {
    private static final byte[] LITERAL = Literals.ascii("$literal");
    private static final byte[] CONST = Literals.ascii("$const");

    private final Source in;
    private final ArrayTyping typing = new ArrayTyping();

    ConstantValues(final Source in) {
        this.in = in;
    }

    /**
     * @return the class a placeholder stands for as a constant, or {@link Source#NONE} for a value that is no placeholder
     * @throws Unshapeable for {@code "?string"} (a field path or a string constant?), {@code "?object"} (an operator or an
     * object?) and {@code "?array"} (of what?)
     */
    static int constantPlaceholder(final Source in, final byte type, final int value) {
        int placeholder = in.placeholder(type, value);
        if (placeholder == (BsonTypes.STRING & 0xff) || placeholder == (BsonTypes.DOCUMENT & 0xff)
                || placeholder == (BsonTypes.ARRAY & 0xff)) {
            throw Unshapeable.because("a redacted string, object or array in an expression: what it was can not be told");
        }
        return placeholder;
    }

    /** @return whether the operand parses to an {@code ExpressionConstant} */
    boolean isConstantOperand(final byte type, final int value, final int depth) {
        if (constantPlaceholder(in, type, value) != Source.NONE) {
            return true;
        }
        switch (type) {
            case BsonTypes.STRING:
                return !in.stringStartsWith(value, '$');
            case BsonTypes.ARRAY:
                return false;
            case BsonTypes.DOCUMENT:
                return literalOperand(value, depth) >= 0 || in.open(value, depth) == value + 4;
            default:
                return true;
        }
    }

    /** @return whether the expression and all its parts are constants ({@code selfAndChildrenAreConstant}) */
    boolean isConstantTree(final byte type, final int value, final int depth) {
        if (isConstantOperand(type, value, depth)) {
            return true;
        }
        if (type != BsonTypes.DOCUMENT && type != BsonTypes.ARRAY) {
            return false;
        }
        int end = in.open(value, depth);
        if (type == BsonTypes.DOCUMENT) {
            in.read(value + 4, end);
            if (in.keyLength() > 0 && in.bytes()[in.key()] == '$') {
                // an operator other than $literal
                return false;
            }
        }
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            byte elementType = in.type();
            int element = in.value();
            p = in.valueEnd();
            if (!isConstantTree(elementType, element, depth + 1)) {
                return false;
            }
        }
        return true;
    }

    /** @return the class of a constant operand's value (an array's by its elements), for its {@code {$const: ...}} */
    int valueClass(final byte type, final int value, final int depth) {
        if (type == BsonTypes.DOCUMENT) {
            int literal = literalOperand(value, depth);
            if (literal >= 0) {
                in.read(value + 4, in.open(value, depth));
                return in.literal(in.type(), in.value(), depth + 1);
            }
        }
        return in.literal(type, value, depth);
    }

    /** @return the BSON type of a constant's value, as an array element (what {@link ArrayTyping} adds) */
    int elementClass(final byte type, final int value, final int depth) {
        if (type == BsonTypes.DOCUMENT && literalOperand(value, depth) >= 0) {
            in.read(value + 4, in.open(value, depth));
            return in.elementClass(in.type(), in.value());
        }
        return in.elementClass(type, value);
    }

    /** @return the class of an all-constant array's value: the array rule over its elements' values */
    int arrayClass(final int value, final int depth) {
        int end = in.open(value, depth);
        // the elements' classes first: elementClass reads deeper and moves the cursor
        typing.reset();
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            byte elementType = in.type();
            int element = in.value();
            p = in.valueEnd();
            typing.add(elementClass(elementType, element, depth + 1));
        }
        return typing.result();
    }

    /** @return the index of the operand of {@code {$literal: v}} or {@code {$const: v}}, or -1 for any other document */
    private int literalOperand(final int value, final int depth) {
        int end = in.open(value, depth);
        if (end == value + 4) {
            return -1;
        }
        in.read(value + 4, end);
        boolean literal = in.keyIs(LITERAL) || in.keyIs(CONST);
        return literal && in.valueEnd() == end ? value + 4 : -1;
    }
}
