package io.github.mongoredact.internal.shape;

import com.mongodb.lang.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The tree a find projection parses into, as the server's projection AST has it ({@code projection_parser.cpp}): each path part
 * one node, the parts of several paths merged under their common prefix in the order first seen; and what the projection is.
 * A field included, an expression computed (even for {@code _id}) make it an inclusion; a field excluded, an exclusion;
 * {@code _id: 1} or {@code _id: 0} alone, {@code $slice} and {@code $meta} decide only where nothing else did. A path named twice,
 * or under a path already projected, is refused as the server refuses it.
 *
 * <p>Not thread-safe: one per {@link ProjectionWriter}, cleared for each projection.</p>
 */
final class ProjectionTree {
    static final int PATH = 0;
    static final int FLAG = 1;
    static final int EXPRESSION = 2;
    static final int SLICE = 3;

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
    /** A top-level {@code _id} or {@code _id.*} path is named: no implicit {@code _id}. */
    boolean idSpecified;
    /** The top-level {@code _id: <truthy>} flag, if any (an exclusion projection drops it). */
    @Nullable
    private Node idIncluded;
    private boolean idExcluded;
    private boolean inclusion;
    private boolean exclusion;
    private boolean slice;

    ProjectionTree(final Source in) {
        this.in = in;
    }

    void clear() {
        root = new Node(PATH, 0, 0);
        idSpecified = false;
        idIncluded = null;
        idExcluded = false;
        inclusion = false;
        exclusion = false;
        slice = false;
    }

    Node root() {
        return root;
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

    /** Counts a flag: the top-level {@code _id}'s decides nothing yet; any other's makes an inclusion or an exclusion. */
    void flag(final Node flag, final boolean topLevelId) {
        if (topLevelId) {
            idIncluded = flag.flag ? flag : null;
            idExcluded = !flag.flag;
        } else if (flag.flag) {
            include();
        } else {
            exclusion = true;
            check();
        }
    }

    /** Counts an inclusion: a field, or a computed expression (other than $meta), {@code _id}'s too. */
    void include() {
        inclusion = true;
        check();
    }

    void slice() {
        slice = true;
    }

    private void check() {
        if (inclusion && exclusion) {
            throw Unshapeable.because("a projection cannot mix inclusion and exclusion");
        }
    }

    /**
     * @return whether the projection is an inclusion ({@code computeProjectionType} where the fields did not decide)
     * @throws Unshapeable where only {@code $slice} could decide: that branch is not reproduced
     */
    boolean isInclusion() {
        if (inclusion || exclusion) {
            return inclusion;
        }
        if (slice) {
            throw Unshapeable.because("a projection that only $slice decides: inclusion or exclusion is not known");
        }
        // with $meta or without ($meta decides nothing more): {_id: 0, ...} is an exclusion, {_id: 1, ...} an inclusion,
        // the rest exclusions
        return !idExcluded && idIncluded != null;
    }

    /** @return the top-level {@code _id: <truthy>} flag, which an exclusion projection leaves out */
    @Nullable
    Node idIncluded() {
        return idIncluded;
    }
}
