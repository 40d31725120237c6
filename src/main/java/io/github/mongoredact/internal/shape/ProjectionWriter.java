package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;


/**
 * Writes a find command's projection as the server's projection AST serializes itself ({@code projection_ast_util.cpp}): a tree
 * of paths ({@code "a.b"} and {@code {a: {b: 1}}} alike become {@code {a: {b: true}}}), flags as booleans, computed fields as
 * expressions, {@code $slice} as literals, {@code $elemMatch} as a match expression, {@code "a.$"} as {@code true}; and, for an
 * inclusion projection that does not name {@code _id}, {@code _id: true} last.
 *
 * <p>Refused where the engine is not sure of the server's form: an {@code _id} named anywhere but last, a projection of
 * {@code $slice}, {@code $elemMatch} or {@code $meta} alone (inclusion or exclusion decides the implicit {@code _id}), a redacted
 * flag (1 or 0?) or string (a path or a constant?).</p>
 *
 * <p>Not thread-safe: one per {@link QueryShaper}; its tree is built and dropped for each projection.</p>
 */
final class ProjectionWriter {
    private static final byte[] ID = Literals.ascii("_id");
    private static final byte[] SLICE = Literals.ascii("$slice");
    private static final byte[] ELEM_MATCH = Literals.ascii("$elemMatch");
    private static final byte[] META = Literals.ascii("$meta");
    private static final byte[] POSITIONAL = Literals.ascii(".$");

    private final ShapeOut out;
    private final Source in;
    private final ExpressionWriter expressions;
    private final FilterParser filters;
    private final FilterWriter filterWriter;
    private final ProjectionTree tree;

    ProjectionWriter(final ShapeOut out, final Source in, final ExpressionWriter expressions, final FilterParser filters,
                     final FilterWriter filterWriter) {
        this.out = out;
        this.in = in;
        this.expressions = expressions;
        this.filters = filters;
        this.filterWriter = filterWriter;
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
            if (tree.idNamed()) {
                throw Unshapeable.because("_id named before another projected field: where the server writes it is not known");
            }
            if (in.is(key, keyLen, ID)) {
                tree.nameId();
            }
            field(tree.root(), key, keyLen, type, value, p, depth + 1);
        }
        if (tree.neutralOnly()) {
            throw Unshapeable.because("a projection of $slice/$elemMatch/$meta only: inclusion or exclusion is not known");
        }
        out.openDocument();
        writeChildren(tree.root(), variables);
        if (tree.inclusion() && !tree.idNamed()) {
            out.key(ID);
            out.bool(true);
        }
        out.close();
    }

    private void field(final ProjectionTree.Node parent, final int key, final int keyLen, final byte type, final int value,
                       final int valueEnd, final int depth) {
        boolean top = parent == tree.root();
        int dot = indexOf(key, keyLen, (byte) '.');
        if (top && keyLen > 2 && in.is(key + keyLen - 2, 2, POSITIONAL) && dot == keyLen - 2) {
            // "a.$": inclusion of the matched element
            tree.add(parent, key, keyLen, ProjectionTree.POSITIONAL);
            tree.count(false, 1);
            return;
        }
        if (dot == 0 || dot == keyLen - 1 || keyLen == 0 || in.bytes()[key] == '$') {
            throw Unshapeable.because("a projected path that is empty, ends with '.' or starts with '$'");
        }
        if (dot > 0) {
            if (top && in.is(key, dot, ID)) {
                throw Unshapeable.because("a projection of a path inside _id");
            }
            ProjectionTree.Node child = tree.path(parent, key, dot);
            field(child, key + dot + 1, keyLen - dot - 1, type, value, valueEnd, depth);
            return;
        }
        leaf(parent, key, keyLen, type, value, valueEnd, depth);
    }

    private void leaf(final ProjectionTree.Node parent, final int key, final int keyLen, final byte type, final int value,
                      final int valueEnd, final int depth) {
        boolean id = parent == tree.root() && in.is(key, keyLen, ID);
        if (in.isPlaceholder(type, value)) {
            throw Unshapeable.because("a redacted projection value: a flag, a path or a constant can not be told");
        }
        switch (type) {
            case BsonTypes.BOOLEAN:
            case BsonTypes.INT32:
            case BsonTypes.INT64:
            case BsonTypes.DOUBLE:
                boolean included = type == BsonTypes.BOOLEAN ? in.bytes()[value] != 0 : truthy(type, value);
                ProjectionTree.Node flag = tree.add(parent, key, keyLen, ProjectionTree.FLAG);
                flag.flag = included;
                tree.count(id, included ? 1 : -1);
                return;
            case BsonTypes.STRING:
                tree.add(parent, key, keyLen, ProjectionTree.EXPRESSION).element(type, value, valueEnd);
                tree.count(id, 1);
                return;
            case BsonTypes.DOCUMENT:
                document(parent, key, keyLen, value, depth, id);
                return;
            default:
                throw Unshapeable.because("a projection value of a type the engine does not shape");
        }
    }

    private void document(final ProjectionTree.Node parent, final int key, final int keyLen, final int value, final int depth,
                          final boolean id) {
        int end = in.open(value, depth);
        if (end == value + 4) {
            throw Unshapeable.because("an empty sub-projection");
        }
        in.read(value + 4, end);
        byte type = in.type();
        int operand = in.value();
        boolean single = in.valueEnd() == end;
        if (in.keyLength() == 0 || in.bytes()[in.key()] != '$') {
            if (id) {
                throw Unshapeable.because("a projection of paths inside _id");
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
            return;
        }
        if (in.keyIs(SLICE) && single && !id) {
            ProjectionTree.Node slice = tree.add(parent, key, keyLen, ProjectionTree.SLICE);
            slice.flag = sliceHasSkip(type, operand, depth + 1);
            tree.neutral();
        } else if (in.keyIs(ELEM_MATCH) && single && !id && parent == tree.root()) {
            ProjectionTree.Node elemMatch = tree.add(parent, key, keyLen, ProjectionTree.ELEM_MATCH);
            elemMatch.match = filters.elemMatch(key, keyLen, type, operand, depth);
            tree.neutral();
        } else if (in.keyIs(META) && single && !id) {
            tree.add(parent, key, keyLen, ProjectionTree.EXPRESSION).element(BsonTypes.DOCUMENT, value, end + 1);
            tree.neutral();
        } else {
            tree.add(parent, key, keyLen, ProjectionTree.EXPRESSION).element(BsonTypes.DOCUMENT, value, end + 1);
            tree.count(id, 1);
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
            checkInt(in.type(), in.value());
            count++;
        }
        if (count != 2) {
            throw Unshapeable.because("$slice takes a number or [skip, limit]");
        }
        return true;
    }

    private void checkInt(final byte type, final int value) {
        if (in.placeholder(type, value) != Literals.NUMBER_UNKNOWN) {
            long number = in.integral(type, value);
            if (number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
                throw Unshapeable.because("a $slice argument out of the range of an int");
            }
        }
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

    private void writeChildren(final ProjectionTree.Node node, final Variables variables) {
        for (ProjectionTree.Node child : node.children()) {
            MatchNode match = child.match;
            if (match != null) {
                filterWriter.write(match, variables);
                continue;
            }
            out.key(in.bytes(), child.nameOff, child.nameLen);
            switch (child.kind) {
                case ProjectionTree.PATH:
                    out.openDocument();
                    writeChildren(child, variables);
                    out.close();
                    break;
                case ProjectionTree.FLAG:
                case ProjectionTree.POSITIONAL:
                    out.bool(child.kind == ProjectionTree.POSITIONAL || child.flag);
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
