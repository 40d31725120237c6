package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

import java.util.List;

/**
 * Writes a parsed filter into both shapes as the server's match expressions serialize themselves (8.0,
 * {@code expression_tree.cpp}, {@code expression_leaf.cpp}, {@code expression_array.cpp}): an {@code $and} of nothing writes
 * nothing, an {@code $or} of nothing {@code $alwaysFalse: 1}; a path node writes {@code {path: {<operator>: <literal>}}} or,
 * below a value {@code $elemMatch}, its operator alone; a {@code $not} keeps the {@code {path: {$not: {...}}}} form over one
 * path operator and becomes {@code $nor: [...]} otherwise.
 *
 * <p>Not thread-safe: one per {@link QueryShaper}.</p>
 */
final class FilterWriter {
    private static final byte[] AND = Literals.ascii("$and");
    private static final byte[] OR = Literals.ascii("$or");
    private static final byte[] NOR = Literals.ascii("$nor");
    private static final byte[] NOT = Literals.ascii("$not");
    private static final byte[] EXPR = Literals.ascii("$expr");
    private static final byte[] ALWAYS_TRUE = Literals.ascii("$alwaysTrue");
    private static final byte[] ALWAYS_FALSE = Literals.ascii("$alwaysFalse");
    private static final byte[] ELEM_MATCH = Literals.ascii("$elemMatch");
    private static final byte[] REGEX = Literals.ascii("$regex");
    private static final byte[] OPTIONS = Literals.ascii("$options");
    private static final byte[] MOD = Literals.ascii("$mod");
    private static final byte[] EXISTS = Literals.ascii("$exists");
    private static final byte[] IN = Literals.ascii("$in");
    private static final byte[] SIZE = Literals.ascii("$size");
    private static final byte[] TYPE = Literals.ascii("$type");
    /** The representative {@code $regex}: the two characters backslash, question mark (a valid pattern, unlike "?"). */
    private static final byte[] REGEX_REPRESENTATIVE = {'\\', '?'};
    private static final byte[] OPTIONS_REPRESENTATIVE = {'i'};

    private final ShapeOut out;
    private final Source in;
    private final ExpressionWriter expressions;

    FilterWriter(final ShapeOut out, final Source in, final ExpressionWriter expressions) {
        this.out = out;
        this.in = in;
        this.expressions = expressions;
    }

    /** Writes {@code node}, with its path, into the document open in {@code out}. */
    void write(final MatchNode node, final Variables variables) {
        write(node, true, variables);
    }

    private void write(final MatchNode node, final boolean includePath, final Variables variables) {
        switch (node.kind) {
            case MatchNode.AND:
                if (!node.children().isEmpty()) {
                    list(AND, node.children(), includePath, variables);
                }
                break;
            case MatchNode.OR:
                if (node.children().isEmpty()) {
                    out.key(ALWAYS_FALSE);
                    out.int32(1);
                } else {
                    list(OR, node.children(), includePath, variables);
                }
                break;
            case MatchNode.NOR:
                list(NOR, node.children(), includePath, variables);
                break;
            case MatchNode.NOT:
                not(node, includePath, variables);
                break;
            case MatchNode.ALWAYS_TRUE:
            case MatchNode.ALWAYS_FALSE:
                out.key(node.kind == MatchNode.ALWAYS_TRUE ? ALWAYS_TRUE : ALWAYS_FALSE);
                out.literal(Literals.NUMBER);
                break;
            case MatchNode.EXPR:
                out.key(EXPR);
                expressions.write(node.operandType, node.operand, node.operandEnd, variables);
                break;
            default:
                if (includePath) {
                    out.key(in.bytes(), node.pathOff, node.pathLen);
                    out.openDocument();
                    rightHandSide(node, variables);
                    out.close();
                } else {
                    rightHandSide(node, variables);
                }
        }
    }

    private void list(final byte[] name, final List<MatchNode> children, final boolean includePath, final Variables variables) {
        out.key(name);
        out.openArray();
        for (MatchNode child : children) {
            out.openDocument();
            write(child, includePath, variables);
            out.close();
        }
        out.close();
    }

    /** {@code NotMatchExpression::serialize}. */
    private void not(final MatchNode node, final boolean includePath, final Variables variables) {
        MatchNode child = node.children().get(0);
        if (child.isEmptyAnd()) {
            out.key(ALWAYS_FALSE);
            out.literal(Literals.NUMBER);
            return;
        }
        if (!includePath) {
            out.key(NOT);
            out.openDocument();
            if (child.kind == MatchNode.AND) {
                for (MatchNode grandChild : child.children()) {
                    write(grandChild, false, variables);
                }
            } else {
                write(child, false, variables);
            }
            out.close();
            return;
        }
        MatchNode negated = child.kind == MatchNode.AND && child.children().size() == 1 ? child.children().get(0) : child;
        if (negated.hasPath() && !(negated.pathLen > 0 && in.bytes()[negated.pathOff] == '$')) {
            out.key(in.bytes(), negated.pathOff, negated.pathLen);
            out.openDocument();
            out.key(NOT);
            out.openDocument();
            rightHandSide(negated, variables);
            out.close();
            out.close();
            return;
        }
        out.key(NOR);
        out.openArray();
        out.openDocument();
        write(negated, true, variables);
        out.close();
        out.close();
    }

    /** {@code appendSerializedRightHandSide} of a path node. */
    private void rightHandSide(final MatchNode node, final Variables variables) {
        switch (node.kind) {
            case MatchNode.COMPARISON:
            case MatchNode.BITS:
                out.key(node.operator);
                out.literal(node.code);
                break;
            case MatchNode.IN:
                out.key(IN);
                out.literal(node.code);
                break;
            case MatchNode.REGEX:
                out.key(REGEX);
                out.literalString(REGEX_REPRESENTATIVE);
                if (node.hasOptions) {
                    out.key(OPTIONS);
                    out.literalString(OPTIONS_REPRESENTATIVE);
                }
                break;
            case MatchNode.MOD:
                out.key(MOD);
                out.openArray();
                out.literal(Literals.NUMBER);
                out.literal(Literals.NUMBER);
                out.close();
                break;
            case MatchNode.EXISTS:
                out.key(EXISTS);
                out.literal(BsonTypes.BOOLEAN);
                break;
            case MatchNode.SIZE:
                out.key(SIZE);
                out.literal(Literals.NUMBER);
                break;
            case MatchNode.TYPE:
                out.key(TYPE);
                TypeSets.write(out, node);
                break;
            case MatchNode.ELEM_MATCH_OBJECT:
                out.key(ELEM_MATCH);
                out.openDocument();
                write(node.children().get(0), true, variables);
                out.close();
                break;
            case MatchNode.ELEM_MATCH_VALUE:
                out.key(ELEM_MATCH);
                out.openDocument();
                for (MatchNode child : node.children()) {
                    write(child, false, variables);
                }
                out.close();
                break;
            default:
                throw new IllegalStateException("not a path node: " + node.kind);
        }
    }
}
