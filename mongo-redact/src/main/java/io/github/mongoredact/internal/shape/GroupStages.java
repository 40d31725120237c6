package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * {@code $group}, {@code $count} and {@code $project}, written as the server serializes them: {@code $group} as {@code {_id,
 * <field>: {<accumulator>: <expression>}...}} ({@code _id} first, a document of fields written field by field);
 * {@code $count: "n"} as {@code {$group: {_id: null, n: {$sum: 1}}}, {$project: {n: true, _id: false}}}; {@code $project} only
 * as an inclusion of plain fields that excludes {@code _id} ({@code {a: true, ..., _id: false}}), the one form whose
 * serialization is known.
 *
 * <p>Not thread-safe: one per {@link PipelineWriter}.</p>
 */
final class GroupStages {
    private static final byte[] GROUP = Literals.ascii("$group");
    private static final byte[] COUNT = Literals.ascii("$count");
    private static final byte[] PROJECT = Literals.ascii("$project");
    private static final byte[] ID = Literals.ascii("_id");
    private static final byte[] SUM = Literals.ascii("$sum");
    /** The accumulators whose argument is one expression, written {@code {$acc: <expression>}}. */
    private static final byte[][] ACCUMULATORS = ExpressionWriter.names("$sum", "$avg", "$min", "$max", "$first", "$last",
            "$push", "$addToSet", "$stdDevPop", "$stdDevSamp", "$mergeObjects");

    private final ShapeParts parts;
    private final ShapeOut out;
    private final Source in;

    GroupStages(final ShapeParts parts) {
        this.parts = parts;
        this.out = parts.out;
        this.in = parts.in;
    }

    /** @return whether the stage is one of these (and was written) */
    boolean write(final int name, final int nameLen, final byte type, final int value, final int depth) {
        if (in.is(name, nameLen, GROUP)) {
            group(type, value, depth);
        } else if (in.is(name, nameLen, COUNT)) {
            count(type, value);
        } else if (in.is(name, nameLen, PROJECT)) {
            project(type, value, depth);
        } else {
            return false;
        }
        return true;
    }

    private void group(final byte type, final int value, final int depth) {
        if (type != BsonTypes.DOCUMENT) {
            throw Unshapeable.because("$group needs a document");
        }
        int end = in.open(value, depth);
        int id = -1;
        for (int p = value + 4; p < end; p = in.valueEnd()) {
            in.read(p, end);
            if (in.keyIs(ID)) {
                if (id >= 0) {
                    throw Unshapeable.because("$group with two _id");
                }
                id = p;
            }
        }
        if (id < 0) {
            throw Unshapeable.because("$group needs an _id");
        }
        out.openDocument();
        out.key(GROUP);
        out.openDocument();
        in.read(id, end);
        out.key(ID);
        groupId(in.type(), in.value(), in.valueEnd(), depth + 1);
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            int key = in.key();
            int keyLen = in.keyLength();
            byte fieldType = in.type();
            int field = in.value();
            p = in.valueEnd();
            if (!in.is(key, keyLen, ID)) {
                FieldPaths.checkFieldName(in, key, keyLen);
                out.key(in.bytes(), key, keyLen);
                accumulator(fieldType, field, depth + 1);
            }
        }
        out.close();
        out.close();
    }

    /** {@code _id}: an expression, or a document of fields (first key not '$') written field by field. */
    private void groupId(final byte type, final int value, final int valueEnd, final int depth) {
        if (type != BsonTypes.DOCUMENT) {
            parts.expressions.write(type, value, valueEnd, parts.variables, depth);
            return;
        }
        int end = in.open(value, depth);
        in.read(value + 4, end);
        if (end == value + 4) {
            throw Unshapeable.because("$group _id: {} is not shaped");
        }
        if (in.keyLength() > 0 && in.bytes()[in.key()] == '$') {
            parts.expressions.write(type, value, valueEnd, parts.variables, depth);
            return;
        }
        out.openDocument();
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            int key = in.key();
            int keyLen = in.keyLength();
            byte fieldType = in.type();
            int field = in.value();
            p = in.valueEnd();
            if (!isFieldExpression(fieldType, field)) {
                throw Unshapeable.because("a constant in a $group _id document: its serialization is not known");
            }
            FieldPaths.checkFieldName(in, key, keyLen);
            out.key(in.bytes(), key, keyLen);
            parts.expressions.write(fieldType, field, p, parts.variables, depth + 1);
        }
        out.close();
    }

    /** @return whether the value is a field path, a variable or an operator (not a constant, object or array) */
    private boolean isFieldExpression(final byte type, final int value) {
        if (in.isPlaceholder(type, value)) {
            return false;
        }
        if (type == BsonTypes.STRING) {
            return in.stringStartsWith(value, '$');
        }
        return false;
    }

    private void accumulator(final byte type, final int value, final int depth) {
        if (type != BsonTypes.DOCUMENT) {
            throw Unshapeable.because("a $group field must be an accumulator document");
        }
        int end = in.open(value, depth);
        in.read(value + 4, end);
        if (end == value + 4 || in.valueEnd() != end) {
            throw Unshapeable.because("an accumulator document must have exactly one field");
        }
        byte[] name = null;
        for (byte[] accumulator : ACCUMULATORS) {
            if (in.keyIs(accumulator)) {
                name = accumulator;
            }
        }
        if (name == null || in.type() == BsonTypes.ARRAY) {
            throw Unshapeable.because("an accumulator or argument the engine does not shape");
        }
        out.openDocument();
        out.key(name);
        parts.expressions.write(in.type(), in.value(), in.valueEnd(), parts.variables, depth + 1);
        out.close();
    }

    /** {@code $count: "n"}: desugared at parse time into a {@code $group} and a {@code $project}. */
    private void count(final byte type, final int value) {
        Verbatim.string(in, type, value, "$count");
        int name = value + 4;
        int nameLen = in.stringLength(value);
        FieldPaths.checkFieldName(in, name, nameLen);
        out.openDocument();
        out.key(GROUP);
        out.openDocument();
        out.key(ID);
        out.constant(BsonTypes.NULL);
        out.key(in.bytes(), name, nameLen);
        out.openDocument();
        out.key(SUM);
        out.constant(Literals.NUMBER);
        out.close();
        out.close();
        out.close();
        out.openDocument();
        out.key(PROJECT);
        out.openDocument();
        out.key(in.bytes(), name, nameLen);
        out.bool(true);
        out.key(ID);
        out.bool(false);
        out.close();
        out.close();
    }

    /** {@code $project}: plain fields included, {@code _id} excluded; written with {@code _id: false} last. */
    private void project(final byte type, final int value, final int depth) {
        if (type != BsonTypes.DOCUMENT) {
            throw Unshapeable.because("$project needs a document");
        }
        int end = in.open(value, depth);
        boolean idExcluded = false;
        for (int p = value + 4; p < end; p = in.valueEnd()) {
            in.read(p, end);
            boolean flag = flag(in.type(), in.value());
            if (in.keyIs(ID)) {
                idExcluded = !flag;
            } else {
                FieldPaths.checkFieldName(in, in.key(), in.keyLength());
                if (!flag) {
                    throw Unshapeable.because("an exclusion $project");
                }
            }
        }
        if (!idExcluded) {
            throw Unshapeable.because("a $project that does not exclude _id: where the server writes _id is not known");
        }
        out.openDocument();
        out.key(PROJECT);
        out.openDocument();
        for (int p = value + 4; p < end; p = in.valueEnd()) {
            in.read(p, end);
            if (!in.keyIs(ID)) {
                out.key(in.bytes(), in.key(), in.keyLength());
                out.bool(true);
            }
        }
        out.key(ID);
        out.bool(false);
        out.close();
        out.close();
    }

    /** @return the inclusion flag a projection value is: a boolean or a number (refused otherwise) */
    private boolean flag(final byte type, final int value) {
        if (type == BsonTypes.BOOLEAN) {
            return in.bytes()[value] != 0;
        }
        if (type == BsonTypes.INT32 || type == BsonTypes.INT64) {
            return in.integral(type, value) != 0;
        }
        throw Unshapeable.because("a $project value the engine does not shape");
    }
}
