package io.github.mongoredact.internal.shape;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;

/**
 * Writes a find command's projection as the server parses it ({@code projection_parser.cpp}) and its AST serializes itself
 * ({@code projection_ast_util.cpp}): a tree of paths in the order first seen ({@code "a.b"} and {@code {a: {b: 1}}} alike become
 * {@code {a: {b: true}}}), flags as booleans, computed fields as expressions, {@code $slice} as literals; for an inclusion that
 * names no {@code _id}, {@code _id: true} last; for an exclusion, no {@code _id: true}.
 *
 * <p>Refused where the engine is not sure of the server's form: an {@code $elemMatch} projection (the server optimizes it
 * before writing it), a positional one ({@code "a.$"}), one that only {@code $slice} makes an inclusion or an exclusion, a
 * redacted flag (1 or 0?) or string (a path or a constant?).</p>
 *
 * <p>Not thread-safe: one per {@link QueryShaper}; its tree is built and dropped for each projection.</p>
 */
final class ProjectionWriter {
    private static final byte[] ID = Literals.ascii("_id");
    private static final byte[] SLICE = Literals.ascii("$slice");
    private static final byte[] ELEM_MATCH = Literals.ascii("$elemMatch");
    private static final byte[] META = Literals.ascii("$meta");
    private static final byte[] ID_PREFIX = Literals.ascii("_id.");

    private final ShapeOut out;
    private final Source in;
    private final ExpressionWriter expressions;
    private final ProjectionTree tree;

    ProjectionWriter(final ShapeOut out, final Source in, final ExpressionWriter expressions) {
        this.out = out;
        this.in = in;
        this.expressions = expressions;
        this.tree = new ProjectionTree(in);
    }

    /** Writes the find projection at {@code doc} (nonempty) as the value of the key named. */
    void write(final int doc, final int depth, final Variables variables) {
        tree.clear();
        int end = in.open(doc, depth);
        for (int p = doc + 4; p < end;) {
            in.read(p, end);
            byte type = in.type();
            int key = in.key();
            int keyLen = in.keyLength();
            int value = in.value();
            p = in.valueEnd();
            tree.idSpecified |= in.is(key, keyLen, ID) || keyLen > ID.length && in.is(key, ID.length + 1, ID_PREFIX);
            field(tree.root(), key, keyLen, type, value, p, depth + 1);
        }
        boolean inclusion = tree.isInclusion();
        ProjectionTree.Node droppedId = inclusion ? null : tree.idIncluded();
        out.openDocument();
        writeChildren(tree.root(), droppedId, variables);
        if (inclusion && !tree.idSpecified) {
            out.key(ID);
            out.bool(true);
        }
        out.close();
    }

    private void field(final ProjectionTree.Node parent, final int key, final int keyLen, final byte type, final int value,
                       final int valueEnd, final int depth) {
        int dot = indexOf(key, keyLen, (byte) '.');
        if (keyLen == 0 || dot == 0 || dot == keyLen - 1 || in.bytes()[key] == '$' || endsWithPositional(key, keyLen)) {
            throw Unshapeable.because("a projected path that is empty, ends with '.', starts with '$' or is positional");
        }
        if (dot > 0) {
            ProjectionTree.Node child = tree.path(parent, key, dot);
            field(child, key + dot + 1, keyLen - dot - 1, type, value, valueEnd, depth);
            return;
        }
        leaf(parent, key, keyLen, type, value, valueEnd, depth);
    }

    private boolean endsWithPositional(final int key, final int keyLen) {
        for (int i = key; i < key + keyLen; i++) {
            if (in.bytes()[i] == '$' && (i == key || in.bytes()[i - 1] == '.')) {
                return true;
            }
        }
        return false;
    }

    private void leaf(final ProjectionTree.Node parent, final int key, final int keyLen, final byte type, final int value,
                      final int valueEnd, final int depth) {
        boolean topLevelId = parent == tree.root() && in.is(key, keyLen, ID);
        if (type == BsonTypes.BOOLEAN || type == BsonTypes.INT32 || type == BsonTypes.INT64 || type == BsonTypes.DOUBLE) {
            ProjectionTree.Node flag = tree.add(parent, key, keyLen, ProjectionTree.FLAG);
            flag.flag = type == BsonTypes.BOOLEAN ? in.bytes()[value] != 0 : truthy(type, value);
            tree.flag(flag, topLevelId);
        } else if (type == BsonTypes.DOCUMENT) {
            document(parent, key, keyLen, value, depth);
        } else if (in.isPlaceholder(type, value) && Literals.isNumber(in.placeholder(type, value))
                || type == BsonTypes.DECIMAL128 || in.placeholder(type, value) == (BsonTypes.BOOLEAN & 0xff)) {
            throw Unshapeable.because("a redacted or decimal projection flag: included or excluded can not be told");
        } else {
            // a literal: an expression computed (a field path, a constant); ExpressionWriter refuses "?string"
            tree.add(parent, key, keyLen, ProjectionTree.EXPRESSION).element(type, value, valueEnd);
            tree.include();
        }
    }

    private void document(final ProjectionTree.Node parent, final int key, final int keyLen, final int value, final int depth) {
        int end = in.open(value, depth);
        if (end == value + 4) {
            throw Unshapeable.because("an empty sub-projection");
        }
        in.read(value + 4, end);
        byte type = in.type();
        int operand = in.value();
        boolean single = in.valueEnd() == end;
        if (single && in.keyLength() > 0 && in.bytes()[in.key()] == '$') {
            if (in.keyIs(ELEM_MATCH)) {
                throw Unshapeable.because("an $elemMatch projection: the server optimizes it before writing it");
            }
            if (in.keyIs(SLICE)) {
                ProjectionTree.Node slice = tree.add(parent, key, keyLen, ProjectionTree.SLICE);
                slice.flag = sliceHasSkip(type, operand, depth + 1);
                tree.slice();
                return;
            }
            tree.add(parent, key, keyLen, ProjectionTree.EXPRESSION).element(BsonTypes.DOCUMENT, value, end + 1);
            if (!in.keyIs(META)) {
                tree.include();
            }
            return;
        }
        // a sub-projection: its fields under this path
        ProjectionTree.Node child = tree.path(parent, key, keyLen);
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            byte fieldType = in.type();
            int fieldKey = in.key();
            int fieldKeyLen = in.keyLength();
            int fieldValue = in.value();
            p = in.valueEnd();
            field(child, fieldKey, fieldKeyLen, fieldType, fieldValue, p, depth + 1);
        }
    }

    /** Checks a {@code $slice} operand. @return whether it is the {@code [skip, limit]} form */
    private boolean sliceHasSkip(final byte type, final int value, final int depth) {
        if (type != BsonTypes.ARRAY) {
            checkInt(type, value);
            return false;
        }
        int end = in.open(value, depth);
        int count = 0;
        for (int p = value + 4; p < end; p = in.valueEnd()) {
            in.read(p, end);
            long number = checkInt(in.type(), in.value());
            if (++count == 2 && number < 1) {
                throw Unshapeable.because("$slice limit must be positive");
            }
        }
        if (count != 2) {
            throw Unshapeable.because("$slice takes a number or [skip, limit]");
        }
        return true;
    }

    /** @return the int value of a {@code $slice} argument (1 for a redacted one, which the server took) */
    private long checkInt(final byte type, final int value) {
        if (in.placeholder(type, value) == Literals.NUMBER_UNKNOWN) {
            return 1;
        }
        long number = in.integral(type, value);
        if (number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
            throw Unshapeable.because("a $slice argument out of the range of an int");
        }
        return number;
    }

    private boolean truthy(final byte type, final int value) {
        if (type == BsonTypes.DOUBLE) {
            return Double.longBitsToDouble(Bytes.readLong(in.bytes(), value)) != 0;
        }
        return in.integral(type, value) != 0;
    }

    private int indexOf(final int off, final int len, final byte b) {
        for (int i = 0; i < len; i++) {
            if (in.bytes()[off + i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** Writes the children of {@code node} in the order first seen, all but {@code skipped}. */
    private void writeChildren(final ProjectionTree.Node node, @Nullable final ProjectionTree.Node skipped,
                               final Variables variables) {
        for (ProjectionTree.Node child : node.children()) {
            if (child == skipped) {
                continue;
            }
            out.key(in.bytes(), child.nameOff, child.nameLen);
            switch (child.kind) {
                case ProjectionTree.PATH:
                    out.openDocument();
                    writeChildren(child, null, variables);
                    out.close();
                    break;
                case ProjectionTree.FLAG:
                    out.bool(child.flag);
                    break;
                case ProjectionTree.SLICE:
                    slice(child);
                    break;
                default:
                    expressions.write(child.type, child.value, child.valueEnd, variables);
            }
        }
    }

    private void slice(final ProjectionTree.Node node) {
        out.openDocument();
        out.key(SLICE);
        if (node.flag) {
            out.openArray();
            out.literal(Literals.NUMBER);
            out.literal(Literals.NUMBER);
            out.close();
        } else {
            out.literal(Literals.NUMBER);
        }
        out.close();
    }
}
