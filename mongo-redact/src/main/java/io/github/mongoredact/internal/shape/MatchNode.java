package io.github.mongoredact.internal.shape;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One node of a parsed filter, as the server's {@code MatchExpressionParser} builds it before any optimization: logical nodes
 * with their children in input order, and path nodes that hold what their serialization needs (the path's place in the command,
 * the operator, the literal's class). Nodes point into the command's bytes and copy no value.
 *
 * <p>Built for one command by {@link FilterParser}, written by {@link FilterWriter}, then dropped.</p>
 */
final class MatchNode {
    static final int AND = 1;
    static final int OR = 2;
    static final int NOR = 3;
    static final int NOT = 4;
    static final int ALWAYS_TRUE = 5;
    static final int ALWAYS_FALSE = 6;
    static final int EXPR = 7;
    /** The first kind with a path: the kinds from here on are the server's path match expressions. */
    static final int ELEM_MATCH_OBJECT = 10;
    static final int ELEM_MATCH_VALUE = 11;
    /** {@code $eq}, {@code $lt}, {@code $lte}, {@code $gt}, {@code $gte}: {@link #operator} names which. */
    static final int COMPARISON = 12;
    static final int REGEX = 13;
    static final int MOD = 14;
    static final int EXISTS = 15;
    static final int IN = 16;
    static final int SIZE = 17;
    static final int TYPE = 18;
    /** {@code $bitsAllSet} and its kin: {@link #operator} names which. */
    static final int BITS = 19;

    final int kind;
    /** Where the path's bytes lie in the command; length 0 for the element of a value {@code $elemMatch}. */
    int pathOff;
    int pathLen;
    /** The operator name written for {@link #COMPARISON} and {@link #BITS}. */
    byte[] operator = new byte[0];
    /** The literal's class ({@link Literals}) for {@link #COMPARISON}, {@link #IN} and {@link #BITS}. */
    int code;
    /** {@link #REGEX}: whether the regex has options. */
    boolean hasOptions;
    /** {@link #TYPE}: the types named, one bit each ({@link FilterOperands#typeBit}), and whether {@code "number"} was. */
    int types;
    boolean allNumbers;
    /** {@link #EXPR}: the {@code $expr} operand, type and value bounds. */
    byte operandType;
    int operand;
    int operandEnd;

    private List<MatchNode> children = Collections.emptyList();

    MatchNode(final int kind) {
        this.kind = kind;
    }

    static MatchNode path(final int kind, final int pathOff, final int pathLen) {
        MatchNode node = new MatchNode(kind);
        node.pathOff = pathOff;
        node.pathLen = pathLen;
        return node;
    }

    static MatchNode not(final MatchNode child) {
        MatchNode node = new MatchNode(NOT);
        node.add(child);
        return node;
    }

    void add(final MatchNode child) {
        if (children.isEmpty()) {
            children = new ArrayList<>(4);
        }
        children.add(child);
    }

    List<MatchNode> children() {
        return children;
    }

    boolean hasPath() {
        return kind >= ELEM_MATCH_OBJECT;
    }

    /** @return whether this is an {@code $and} of nothing: an empty filter, which serializes to nothing */
    boolean isEmptyAnd() {
        return kind == AND && children.isEmpty();
    }
}
