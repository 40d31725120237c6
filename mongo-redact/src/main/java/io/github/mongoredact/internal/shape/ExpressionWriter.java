package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * Writes an aggregation expression ({@code $expr}, {@code let} values, stage arguments) into both shapes as the server parses
 * and serializes it, unoptimized ({@code src/mongo/db/pipeline/expression.cpp}, {@code expression.h}): a constant is its type
 * string in the debug shape and {@code {$const: <representative>}} in the representative one; a field path or variable is kept
 * ({@code "$$CURRENT.a"} written {@code "$a"}); an object or array whose parts are all constant is one constant; an operator is
 * {@code {$op: [<operands>]}}, except that a variadic operator of constants only is {@code {$op: "?array<...>"}} in the debug
 * shape. Only the operators listed here, whose serialization is known, are written; any other is refused.
 *
 * <p>Not thread-safe: one per {@link QueryShaper}.</p>
 */
final class ExpressionWriter {
    private static final byte[] LITERAL = Literals.ascii("$literal");
    private static final byte[] CONST = Literals.ascii("$const");
    /** {@code ExpressionVariadic}: all-constant operands are one array constant in the debug shape. */
    private static final byte[][] VARIADIC = names("$add", "$and", "$or", "$concat", "$multiply", "$max", "$min", "$sum", "$avg");
    /** {@code ExpressionFixedArity}: the operator, then its number of operands. */
    private static final byte[][] FIXED = names("$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$cmp", "$subtract", "$in", "$not");
    private static final int[] ARITY = {2, 2, 2, 2, 2, 2, 2, 2, 2, 1};

    private final ShapeOut out;
    private final Source in;
    private final ArrayTyping typing = new ArrayTyping();
    private final ConstantValues constants;
    private final SpecialExpressions special;

    ExpressionWriter(final ShapeOut out, final Source in) {
        this.out = out;
        this.in = in;
        this.constants = new ConstantValues(in);
        this.special = new SpecialExpressions(out, in, this);
    }

    static byte[][] names(final String... names) {
        byte[][] bytes = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            bytes[i] = Literals.ascii(names[i]);
        }
        return bytes;
    }

    /** Writes the expression {@code src[value, valueEnd)} of {@code type} under the key named in {@code out}. */
    void write(final byte type, final int value, final int valueEnd, final Variables variables) {
        write(type, value, valueEnd, variables, 1);
    }

    void write(final byte type, final int value, final int valueEnd, final Variables variables, final int depth) {
        int placeholder = ConstantValues.constantPlaceholder(in, type, value);
        if (placeholder != Source.NONE) {
            out.constant(placeholder);
        } else if (type == BsonTypes.STRING && in.stringStartsWith(value, '$')) {
            FieldPaths.write(out, in, value, variables);
        } else if (type == BsonTypes.DOCUMENT) {
            object(value, valueEnd, variables, depth);
        } else if (type == BsonTypes.ARRAY) {
            if (constants.isConstantTree(type, value, depth)) {
                out.constant(constants.arrayClass(value, depth));
                return;
            }
            out.openArray();
            int end = in.open(value, depth);
            for (int p = value + 4; p < end;) {
                in.read(p, end);
                byte elementType = in.type();
                int element = in.value();
                p = in.valueEnd();
                write(elementType, element, p, variables, depth + 1);
            }
            out.close();
        } else {
            out.constant(type & 0xff);
        }
    }

    private void object(final int value, final int valueEnd, final Variables variables, final int depth) {
        int end = in.open(value, depth);
        if (end == value + 4) {
            out.constant(BsonTypes.DOCUMENT);
            return;
        }
        in.read(value + 4, end);
        if (in.keyLength() > 0 && in.bytes()[in.key()] == '$') {
            if (in.valueEnd() != end) {
                throw Unshapeable.because("an expression object must have exactly one field");
            }
            operator(in.key(), in.keyLength(), in.type(), in.value(), in.valueEnd(), variables, depth);
            return;
        }
        if (constants.isConstantTree(BsonTypes.DOCUMENT, value, depth)) {
            out.constant(BsonTypes.DOCUMENT);
            return;
        }
        out.openDocument();
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            byte type = in.type();
            int key = in.key();
            int keyLen = in.keyLength();
            int element = in.value();
            p = in.valueEnd();
            FieldPaths.checkFieldName(in, key, keyLen);
            out.key(in.bytes(), key, keyLen);
            write(type, element, p, variables, depth + 1);
        }
        out.close();
    }

    private void operator(final int key, final int keyLen, final byte type, final int value, final int valueEnd,
                          final Variables variables, final int depth) {
        if (in.is(key, keyLen, LITERAL) || in.is(key, keyLen, CONST)) {
            out.constant(in.literal(type, value, depth + 1));
            return;
        }
        for (byte[] name : VARIADIC) {
            if (in.is(key, keyLen, name)) {
                variadic(name, type, value, valueEnd, variables, depth);
                return;
            }
        }
        for (int i = 0; i < FIXED.length; i++) {
            if (in.is(key, keyLen, FIXED[i])) {
                if (operandCount(type, value, depth) != ARITY[i]) {
                    throw Unshapeable.because("wrong number of arguments to " + in.text(key, keyLen));
                }
                operands(FIXED[i], type, value, valueEnd, variables, depth);
                return;
            }
        }
        special.write(key, keyLen, type, value, valueEnd, variables, depth);
    }

    /** {@code {$op: [<operands>]}}: an array's elements, or the one operand that is not an array. */
    void operands(final byte[] name, final byte type, final int value, final int valueEnd, final Variables variables,
                  final int depth) {
        out.openDocument();
        out.key(name);
        out.openArray();
        if (type == BsonTypes.ARRAY) {
            int end = in.open(value, depth + 1);
            for (int p = value + 4; p < end;) {
                in.read(p, end);
                byte elementType = in.type();
                int element = in.value();
                p = in.valueEnd();
                write(elementType, element, p, variables, depth + 2);
            }
        } else {
            write(type, value, valueEnd, variables, depth + 1);
        }
        out.close();
        out.close();
    }

    private void variadic(final byte[] name, final byte type, final int value, final int valueEnd, final Variables variables,
                          final int depth) {
        if (!allConstant(type, value, depth)) {
            operands(name, type, value, valueEnd, variables, depth);
            return;
        }
        // the debug shape: the operands' values as one array constant
        typing.reset();
        forEachOperand(type, value, depth, true);
        int arrayClass = typing.result();
        out.onlyDebug();
        out.openDocument();
        out.key(name);
        out.literal(arrayClass);
        out.close();
        // the representative shape: each operand a constant of its own
        out.onlyRepresentative();
        out.openDocument();
        out.key(name);
        out.openArray();
        forEachOperand(type, value, depth, false);
        out.close();
        out.close();
        out.both();
    }

    private boolean allConstant(final byte type, final int value, final int depth) {
        if (type != BsonTypes.ARRAY) {
            return constants.isConstantOperand(type, value, depth + 1);
        }
        int end = in.open(value, depth + 1);
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            byte elementType = in.type();
            int element = in.value();
            p = in.valueEnd();
            if (!constants.isConstantOperand(elementType, element, depth + 2)) {
                return false;
            }
        }
        return true;
    }

    /** Each (constant) operand: its value's type added to {@link #typing}, or written as a constant. */
    private void forEachOperand(final byte type, final int value, final int depth, final boolean typeOnly) {
        if (type != BsonTypes.ARRAY) {
            constantOperand(type, value, depth + 1, typeOnly);
            return;
        }
        int end = in.open(value, depth + 1);
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            byte elementType = in.type();
            int element = in.value();
            p = in.valueEnd();
            constantOperand(elementType, element, depth + 2, typeOnly);
        }
    }

    private void constantOperand(final byte type, final int value, final int depth, final boolean typeOnly) {
        if (typeOnly) {
            typing.add(constants.elementClass(type, value, depth));
        } else {
            out.constant(constants.valueClass(type, value, depth));
        }
    }

    /** @return how many operands {@code parseArguments} makes: an array's elements, else one */
    private int operandCount(final byte type, final int value, final int depth) {
        if (type != BsonTypes.ARRAY) {
            return 1;
        }
        int count = 0;
        int end = in.open(value, depth + 1);
        for (int p = value + 4; p < end; p = in.valueEnd()) {
            in.read(p, end);
            count++;
        }
        return count;
    }
}
