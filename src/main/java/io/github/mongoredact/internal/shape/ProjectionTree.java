package io.github.mongoredact.internal.shape;

import com.mongodb.lang.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The tree a find projection parses into, as the server's projection AST has it: each path part one node, the parts of several
 * paths merged under their common prefix in the order first seen; and what the projection is: inclusion (a field included,
 * computed or positional), exclusion (a field excluded), or neither ({@code _id} only, or {@code $slice}, {@code $elemMatch},
 * {@code $meta}, which count for neither). A path named twice, or under a path already projected, is refused as the server
 * refuses it.
 *
 * <p>Not thread-safe: one per {@link ProjectionWriter}, cleared for each projection.</p>
 */
final class ProjectionTree {
    static final int PATH = 0;
    static final int FLAG = 1;
    static final int EXPRESSION = 2;
    static final int SLICE = 3;
    static final int ELEM_MATCH = 4;
    static final int POSITIONAL = 5;

    /** One path part: a path with children, or a leaf that projects it. */
    static final class Node {
        final int kind;
        final int nameOff;
        final int nameLen;
        /** {@link #FLAG}: included; {@link #SLICE}: the {@code [skip, limit]} form. */
        boolean flag;
        byte type;
        int value;
        int valueEnd;
        @Nullable
        MatchNode match;
        private List<Node> children = Collections.emptyList();

        Node(final int kind, final int nameOff, final int nameLen) {
            this.kind = kind;
            this.nameOff = nameOff;
            this.nameLen = nameLen;
        }

        /** Notes the expression this leaf computes. */
        Node element(final byte elementType, final int elementValue, final int elementEnd) {
            this.type = elementType;
            this.value = elementValue;
            this.valueEnd = elementEnd;
            return this;
        }

        List<Node> children() {
            return children;
        }
    }

    private final Source in;
    private Node root = new Node(PATH, 0, 0);
    private boolean idNamed;
    private int inclusions;
    private int exclusions;
    private int neutrals;

    ProjectionTree(final Source in) {
        this.in = in;
    }

    void clear() {
        root = new Node(PATH, 0, 0);
        idNamed = false;
        inclusions = 0;
        exclusions = 0;
        neutrals = 0;
    }

    Node root() {
        return root;
    }

    void nameId() {
        idNamed = true;
    }

    boolean idNamed() {
        return idNamed;
    }

    /** Adds a leaf under {@code parent}. */
    Node add(final Node parent, final int nameOff, final int nameLen, final int kind) {
        if (find(parent, nameOff, nameLen) != null) {
            throw Unshapeable.because("a projected path collides with another");
        }
        Node node = new Node(kind, nameOff, nameLen);
        if (parent.children.isEmpty()) {
            parent.children = new ArrayList<>(4);
        }
        parent.children.add(node);
        return node;
    }

    /** @return the path node {@code name} under {@code parent}, added if it is not there yet */
    Node path(final Node parent, final int nameOff, final int nameLen) {
        Node existing = find(parent, nameOff, nameLen);
        if (existing == null) {
            return add(parent, nameOff, nameLen, PATH);
        }
        if (existing.kind != PATH) {
            throw Unshapeable.because("a projected path collides with another");
        }
        return existing;
    }

    @Nullable
    private Node find(final Node parent, final int nameOff, final int nameLen) {
        for (Node child : parent.children) {
            if (child.nameLen == nameLen && Arrays.equals(in.bytes(), nameOff, nameOff + nameLen, in.bytes(),
                    child.nameOff, child.nameOff + nameLen)) {
                return child;
            }
        }
        return null;
    }

    /** Counts a leaf: included ({@code sign > 0}) or excluded; {@code _id} counts for neither. */
    void count(final boolean id, final int sign) {
        if (id) {
            return;
        }
        if (sign > 0) {
            inclusions++;
        } else {
            exclusions++;
        }
        if (inclusions > 0 && exclusions > 0) {
            throw Unshapeable.because("a projection cannot mix inclusion and exclusion");
        }
    }

    void neutral() {
        neutrals++;
    }

    boolean inclusion() {
        return inclusions > 0;
    }

    boolean neutralOnly() {
        return inclusions == 0 && exclusions == 0 && neutrals > 0;
    }
}
