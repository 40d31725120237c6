package io.github.mongoredact.internal.shape;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * Parses a filter into {@link MatchNode}s as the server's {@code MatchExpressionParser} does (8.0,
 * {@code src/mongo/db/matcher/expression_parser.cpp}), without the optimizer: a document becomes an {@code $and} of its
 * predicates in input order, a single predicate standing for itself; {@code {a: {$gt: 1, $lt: 5}}} adds one child per operator;
 * {@code $and}, {@code $or}, {@code $nor} keep their arrays; {@code $comment} adds nothing. Operators whose serialization the
 * engine does not reproduce ({@code $where}, {@code $text}, {@code $jsonSchema}, geo, internal ones) and values the server
 * refuses are refused ({@link Unshapeable}).
 *
 * <p>Not thread-safe: one per {@link QueryShaper}.</p>
 */
final class FilterParser {
    static final int PREDICATE_TOP = 0;
    static final int DOCUMENT_TOP = 1;
    static final int SUB_DOCUMENT = 2;

    private static final byte[] AND = Literals.ascii("$and");
    private static final byte[] OR = Literals.ascii("$or");
    private static final byte[] NOR = Literals.ascii("$nor");
    private static final byte[] EXPR = Literals.ascii("$expr");
    private static final byte[] COMMENT = Literals.ascii("$comment");
    private static final byte[] ALWAYS_TRUE = Literals.ascii("$alwaysTrue");
    private static final byte[] ALWAYS_FALSE = Literals.ascii("$alwaysFalse");
    private static final byte[] NOT = Literals.ascii("$not");
    private static final byte[] EQ = Literals.ascii("$eq");
    private static final byte[] NE = Literals.ascii("$ne");
    private static final byte[] LT = Literals.ascii("$lt");
    private static final byte[] LTE = Literals.ascii("$lte");
    private static final byte[] GT = Literals.ascii("$gt");
    private static final byte[] GTE = Literals.ascii("$gte");
    private static final byte[] IN = Literals.ascii("$in");
    private static final byte[] NIN = Literals.ascii("$nin");
    private static final byte[] ELEM_MATCH = Literals.ascii("$elemMatch");
    private static final byte[] ALL = Literals.ascii("$all");
    private static final byte[][] COMPARISONS = {EQ, LT, LTE, GT, GTE};
    /** The top-level operators a {@code $elemMatch} body may start with and still be an object {@code $elemMatch}. */
    private static final byte[][] PATHLESS = {AND, OR, NOR, EXPR, COMMENT, ALWAYS_TRUE, ALWAYS_FALSE, Literals.ascii("$where"),
        Literals.ascii("$text"), Literals.ascii("$jsonSchema"), Literals.ascii("$sampleRate"), Literals.ascii("$id"),
        Literals.ascii("$ref"), Literals.ascii("$db")};

    private final Source in;
    private final FilterOperands operands;

    FilterParser(final Source in) {
        this.in = in;
        this.operands = new FilterOperands(in);
    }

    /** Parses the filter document at {@code off}, opened at {@code depth}. */
    MatchNode parse(final int off, final int depth, final int level) {
        int end = in.open(off, depth);
        MatchNode root = new MatchNode(MatchNode.AND);
        int next = level == PREDICATE_TOP ? DOCUMENT_TOP : level;
        for (int p = off + 4; p < end;) {
            in.read(p, end);
            byte type = in.type();
            int key = in.key();
            int keyLen = in.keyLength();
            int value = in.value();
            p = in.valueEnd();
            if (keyLen > 0 && in.bytes()[key] == '$') {
                MatchNode node = topLevel(key, keyLen, type, value, depth, level);
                if (node != null) {
                    root.add(node);
                }
            } else {
                field(root, key, keyLen, type, value, depth, next);
            }
        }
        return root.children().size() == 1 ? root.children().get(0) : root;
    }

    private void field(final MatchNode root, final int key, final int keyLen, final byte type, final int value, final int depth,
                       final int level) {
        int components = 1;
        for (int i = key; i < key + keyLen; i++) {
            components += in.bytes()[i] == '.' ? 1 : 0;
        }
        if (components > Source.MAX_DEPTH) {
            throw Unshapeable.because("a field path too long");
        }
        if (isExpressionDocument(type, value, depth + 1, false)) {
            parseSub(key, keyLen, value, root, depth + 1, level);
        } else if (type == BsonTypes.REGEX) {
            root.add(operands.regexElement(key, keyLen, value));
        } else {
            int placeholder = in.placeholder(type, value);
            if (placeholder == (BsonTypes.DOCUMENT & 0xff) || placeholder == (BsonTypes.REGEX & 0xff)) {
                throw Unshapeable.because("a redacted object or regex as an implicit equality: its operators or options are unknown");
            }
            root.add(comparison(EQ, key, keyLen, type, value, depth));
        }
    }

    /** @return the node of a top-level operator, or null for {@code $comment}, which adds nothing */
    @Nullable
    private MatchNode topLevel(final int key, final int keyLen, final byte type, final int value, final int depth,
                               final int level) {
        if (in.is(key, keyLen, AND) || in.is(key, keyLen, OR) || in.is(key, keyLen, NOR)) {
            int kind = in.is(key, keyLen, AND) ? MatchNode.AND : in.is(key, keyLen, OR) ? MatchNode.OR : MatchNode.NOR;
            return tree(kind, type, value, depth, level);
        }
        if (in.is(key, keyLen, COMMENT)) {
            return null;
        }
        if (in.is(key, keyLen, EXPR)) {
            if (level == SUB_DOCUMENT) {
                throw Unshapeable.because("$expr below the top level");
            }
            MatchNode node = new MatchNode(MatchNode.EXPR);
            node.operandType = type;
            node.operand = value;
            node.operandEnd = in.valueEnd();
            return node;
        }
        if (in.is(key, keyLen, ALWAYS_TRUE) || in.is(key, keyLen, ALWAYS_FALSE)) {
            if (in.placeholder(type, value) != Literals.NUMBER_UNKNOWN && in.integral(type, value) != 1) {
                throw Unshapeable.because("$alwaysTrue/$alwaysFalse must be 1");
            }
            return new MatchNode(in.is(key, keyLen, ALWAYS_TRUE) ? MatchNode.ALWAYS_TRUE : MatchNode.ALWAYS_FALSE);
        }
        throw Unshapeable.because("unsupported top-level operator " + in.text(key, keyLen));
    }

    private MatchNode tree(final int kind, final byte type, final int value, final int depth, final int level) {
        if (type != BsonTypes.ARRAY) {
            throw Unshapeable.because("$and/$or/$nor must be an array");
        }
        MatchNode node = new MatchNode(kind);
        int end = in.open(value, depth + 1);
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            byte elementType = in.type();
            int element = in.value();
            p = in.valueEnd();
            if (elementType != BsonTypes.DOCUMENT) {
                throw Unshapeable.because("$and/$or/$nor entries must be documents");
            }
            node.add(parse(element, depth + 2, level));
        }
        if (node.children().isEmpty()) {
            throw Unshapeable.because("$and/$or/$nor must be a nonempty array");
        }
        return node;
    }

    /** Adds to {@code root} the predicates of {@code {path: {<operators>}}}, one per operator. */
    void parseSub(final int pathOff, final int pathLen, final int sub, final MatchNode root, final int depth, final int level) {
        int end = in.open(sub, depth);
        for (int p = sub + 4; p < end;) {
            in.read(p, end);
            byte type = in.type();
            int key = in.key();
            int keyLen = in.keyLength();
            int value = in.value();
            p = in.valueEnd();
            MatchNode node = operator(Span.of(pathOff, pathLen), sub, depth, Span.of(key, keyLen), type, value, level);
            if (node != null) {
                root.add(node);
            }
        }
    }

    /** One operator of {@code {path: {<operators>}}}: {@code path} and {@code name} are {@link Span}s; null for $options. */
    @Nullable
    private MatchNode operator(final long path, final int sub, final int depth, final long name, final byte type, final int value,
                               final int level) {
        int pathOff = Span.off(path);
        int pathLen = Span.len(path);
        int key = Span.off(name);
        int keyLen = Span.len(name);
        if (in.is(key, keyLen, NOT)) {
            return not(pathOff, pathLen, type, value, depth, level);
        }
        for (byte[] comparison : COMPARISONS) {
            if (in.is(key, keyLen, comparison)) {
                return comparison(comparison, pathOff, pathLen, type, value, depth);
            }
        }
        if (in.is(key, keyLen, NE)) {
            return MatchNode.not(comparison(EQ, pathOff, pathLen, type, value, depth));
        }
        if (in.is(key, keyLen, IN) || in.is(key, keyLen, NIN)) {
            MatchNode node = operands.in(pathOff, pathLen, type, value, depth + 1);
            return in.is(key, keyLen, IN) ? node : MatchNode.not(node);
        }
        if (in.is(key, keyLen, ELEM_MATCH)) {
            return elemMatch(pathOff, pathLen, type, value, depth);
        }
        if (in.is(key, keyLen, ALL)) {
            return all(pathOff, pathLen, type, value, depth);
        }
        return operands.leaf(path, sub, depth, name, type, value);
    }

    private MatchNode comparison(final byte[] operator, final int pathOff, final int pathLen, final byte type, final int value,
                                 final int depth) {
        int placeholder = in.placeholder(type, value);
        boolean regex = type == BsonTypes.REGEX || placeholder == (BsonTypes.REGEX & 0xff);
        if (regex && operator != EQ) {
            throw Unshapeable.because("a regex as the argument of a comparison other than $eq");
        }
        int code = in.literal(type, value, depth + 1);
        if (code == (BsonTypes.UNDEFINED & 0xff)) {
            throw Unshapeable.because("cannot compare to undefined");
        }
        MatchNode node = MatchNode.path(MatchNode.COMPARISON, pathOff, pathLen);
        node.operator = operator;
        node.code = code;
        return node;
    }

    private MatchNode not(final int pathOff, final int pathLen, final byte type, final int value, final int depth,
                          final int level) {
        if (in.isPlaceholder(type, value)) {
            throw Unshapeable.because("a redacted $not operand");
        }
        if (type == BsonTypes.REGEX) {
            return MatchNode.not(operands.regexElement(pathOff, pathLen, value));
        }
        if (type != BsonTypes.DOCUMENT || in.open(value, depth + 1) == value + 4) {
            throw Unshapeable.because("$not needs a regex or a nonempty document");
        }
        MatchNode and = new MatchNode(MatchNode.AND);
        parseSub(pathOff, pathLen, value, and, depth + 1, level);
        return MatchNode.not(and);
    }

    MatchNode elemMatch(final int pathOff, final int pathLen, final byte type, final int value, final int depth) {
        if (type != BsonTypes.DOCUMENT) {
            throw Unshapeable.because("$elemMatch needs a document");
        }
        if (isExpressionDocument(type, value, depth + 1, true) && !isPathless(value, depth + 1)) {
            MatchNode node = MatchNode.path(MatchNode.ELEM_MATCH_VALUE, pathOff, pathLen);
            parseSub(0, 0, value, node, depth + 1, SUB_DOCUMENT);
            return node;
        }
        MatchNode node = MatchNode.path(MatchNode.ELEM_MATCH_OBJECT, pathOff, pathLen);
        node.add(parse(value, depth + 1, SUB_DOCUMENT));
        return node;
    }

    private MatchNode all(final int pathOff, final int pathLen, final byte type, final int value, final int depth) {
        if (type != BsonTypes.ARRAY) {
            throw Unshapeable.because("$all needs an array");
        }
        MatchNode and = new MatchNode(MatchNode.AND);
        int end = in.open(value, depth + 1);
        boolean elemMatches = false;
        if (end > value + 4) {
            in.read(value + 4, end);
            elemMatches = in.type() == BsonTypes.DOCUMENT && firstKeyIs(in.value(), depth + 2, ELEM_MATCH);
        }
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            byte elementType = in.type();
            int element = in.value();
            p = in.valueEnd();
            if (elemMatches) {
                if (elementType != BsonTypes.DOCUMENT || !firstKeyIs(element, depth + 2, ELEM_MATCH)) {
                    throw Unshapeable.because("$all/$elemMatch has to be consistent");
                }
                int inner = in.open(element, depth + 2);
                in.read(element + 4, inner);
                and.add(elemMatch(pathOff, pathLen, in.type(), in.value(), depth + 2));
            } else if (elementType == BsonTypes.REGEX) {
                and.add(operands.regexElement(pathOff, pathLen, element));
            } else {
                int placeholder = in.placeholder(elementType, element);
                if (isExpressionDocument(elementType, element, depth + 2, false) || placeholder == (BsonTypes.DOCUMENT & 0xff)
                        || placeholder == (BsonTypes.REGEX & 0xff)) {
                    throw Unshapeable.because("an operator document, a redacted object or a redacted regex in $all");
                }
                and.add(comparison(EQ, pathOff, pathLen, elementType, element, depth + 1));
            }
        }
        return and.children().isEmpty() ? new MatchNode(MatchNode.ALWAYS_FALSE) : and;
    }

    /** {@code isExpressionDocument}: a nonempty document whose first key starts with '$' and that is not a DBRef. */
    boolean isExpressionDocument(final byte type, final int value, final int depth, final boolean allowIncompleteDbRef) {
        if (type != BsonTypes.DOCUMENT) {
            return false;
        }
        int end = in.open(value, depth);
        if (end == value + 4) {
            return false;
        }
        in.read(value + 4, end);
        if (in.keyLength() == 0 || in.bytes()[in.key()] != '$') {
            return false;
        }
        return !operands.isDbRef(value, end, allowIncompleteDbRef);
    }

    private boolean isPathless(final int doc, final int depth) {
        int end = in.open(doc, depth);
        in.read(doc + 4, end);
        int key = in.key();
        int keyLen = in.keyLength();
        for (byte[] name : PATHLESS) {
            if (in.is(key, keyLen, name)) {
                return true;
            }
        }
        if (keyLen > 2 && in.bytes()[key + 1] == '_') {
            throw Unshapeable.because("an internal operator");
        }
        return false;
    }

    private boolean firstKeyIs(final int doc, final int depth, final byte[] name) {
        int end = in.open(doc, depth);
        if (end == doc + 4) {
            return false;
        }
        in.read(doc + 4, end);
        return in.keyIs(name);
    }
}
