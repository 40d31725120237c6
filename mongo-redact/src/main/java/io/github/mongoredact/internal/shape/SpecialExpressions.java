package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * The aggregation operators with a form of their own: {@code $cond} (its object form written as the array
 * {@code [if, then, else]}), {@code $let} ({@code {vars: {...}, in: ...}}, its variables in scope for {@code in}), {@code $meta}
 * (its keyword kept) and {@code $regexMatch} ({@code {input, regex}}). Any other operator is refused.
 *
 * <p>Not thread-safe: one per {@link ExpressionWriter}.</p>
 */
final class SpecialExpressions {
    private static final byte[] COND = Literals.ascii("$cond");
    private static final byte[] LET = Literals.ascii("$let");
    private static final byte[] META = Literals.ascii("$meta");
    private static final byte[] REGEX_MATCH = Literals.ascii("$regexMatch");
    private static final byte[][] COND_PARTS = ExpressionWriter.names("if", "then", "else");
    private static final byte[] VARS = Literals.ascii("vars");
    private static final byte[] IN = Literals.ascii("in");
    private static final byte[] INPUT = Literals.ascii("input");
    private static final byte[] REGEX = Literals.ascii("regex");
    /** The {@code $meta} keywords of 8.0 the engine keeps. */
    private static final byte[][] META_KEYWORDS = ExpressionWriter.names("textScore", "randVal", "searchScore",
            "searchHighlights", "geoNearDistance", "geoNearPoint", "recordId", "indexKey", "sortKey", "searchScoreDetails",
            "vectorSearchScore");

    private final ShapeOut out;
    private final Source in;
    private final ExpressionWriter expressions;

    SpecialExpressions(final ShapeOut out, final Source in, final ExpressionWriter expressions) {
        this.out = out;
        this.in = in;
        this.expressions = expressions;
    }

    void write(final int key, final int keyLen, final byte type, final int value, final int valueEnd, final Variables variables,
               final int depth) {
        if (in.is(key, keyLen, COND)) {
            cond(type, value, valueEnd, variables, depth);
        } else if (in.is(key, keyLen, LET)) {
            let(type, value, variables, depth);
        } else if (in.is(key, keyLen, META)) {
            out.openDocument();
            out.key(META);
            if (type != BsonTypes.STRING || in.isPlaceholder(type, value) || !isMetaKeyword(value)) {
                throw Unshapeable.because("a $meta keyword the engine does not know");
            }
            out.string(in.bytes(), value + 4, in.stringLength(value));
            out.close();
        } else if (in.is(key, keyLen, REGEX_MATCH)) {
            regexMatch(type, value, variables, depth);
        } else {
            throw Unshapeable.because("unsupported expression operator " + in.text(key, keyLen));
        }
    }

    static boolean isMetaKeyword(final Source in, final int value) {
        for (byte[] keyword : META_KEYWORDS) {
            if (in.stringIs(value, keyword)) {
                return true;
            }
        }
        return false;
    }

    private boolean isMetaKeyword(final int value) {
        return isMetaKeyword(in, value);
    }

    private void cond(final byte type, final int value, final int valueEnd, final Variables variables, final int depth) {
        if (type == BsonTypes.ARRAY) {
            int count = 0;
            int end = in.open(value, depth + 1);
            for (int p = value + 4; p < end; p = in.valueEnd()) {
                in.read(p, end);
                count++;
            }
            if (count != 3) {
                throw Unshapeable.because("$cond takes exactly 3 arguments");
            }
            expressions.operands(COND, type, value, valueEnd, variables, depth);
            return;
        }
        if (type != BsonTypes.DOCUMENT) {
            throw Unshapeable.because("$cond needs an array or a document");
        }
        int[] parts = findParts(value, depth + 1, COND_PARTS);
        int end = in.open(value, depth + 1);
        out.openDocument();
        out.key(COND);
        out.openArray();
        for (int part : parts) {
            writeAt(part, end, variables, depth + 2);
        }
        out.close();
        out.close();
    }

    private void let(final byte type, final int value, final Variables variables, final int depth) {
        if (type != BsonTypes.DOCUMENT) {
            throw Unshapeable.because("$let needs a document");
        }
        int[] parts = findParts(value, depth + 1, VARS, IN);
        in.read(parts[0], in.open(value, depth + 1));
        if (in.type() != BsonTypes.DOCUMENT) {
            throw Unshapeable.because("$let vars must be a document");
        }
        int vars = in.value();
        int mark = variables.mark();
        out.openDocument();
        out.key(LET);
        out.openDocument();
        out.key(VARS);
        out.openDocument();
        int varsEnd = in.open(vars, depth + 2);
        for (int p = vars + 4; p < varsEnd;) {
            in.read(p, varsEnd);
            byte varType = in.type();
            int name = in.key();
            int nameLen = in.keyLength();
            int var = in.value();
            p = in.valueEnd();
            // the variables' values are read in the enclosing scope; their names are in scope for 'in' only
            out.key(in.bytes(), name, nameLen);
            expressions.write(varType, var, p, variables, depth + 3);
        }
        for (int p = vars + 4; p < varsEnd; p = in.valueEnd()) {
            in.read(p, varsEnd);
            variables.define(in, in.key(), in.keyLength());
        }
        out.close();
        out.key(IN);
        writeAt(parts[1], in.open(value, depth + 1), variables, depth + 2);
        variables.popTo(mark);
        out.close();
        out.close();
    }

    private void regexMatch(final byte type, final int value, final Variables variables, final int depth) {
        if (type != BsonTypes.DOCUMENT) {
            throw Unshapeable.because("$regexMatch needs a document");
        }
        int[] parts = findParts(value, depth + 1, INPUT, REGEX);
        int end = in.open(value, depth + 1);
        out.openDocument();
        out.key(REGEX_MATCH);
        out.openDocument();
        out.key(INPUT);
        writeAt(parts[0], end, variables, depth + 2);
        out.key(REGEX);
        writeAt(parts[1], end, variables, depth + 2);
        out.close();
        out.close();
    }

    /** Writes the expression of the element at {@code element} (in a document already framed). */
    private void writeAt(final int element, final int end, final Variables variables, final int depth) {
        in.read(element, end);
        expressions.write(in.type(), in.value(), in.valueEnd(), variables, depth);
    }

    /**
     * @return where each named field's element starts, in the order of {@code names}
     * @throws Unshapeable unless the document holds exactly these fields, once each
     */
    private int[] findParts(final int doc, final int depth, final byte[]... names) {
        int[] parts = new int[names.length];
        int end = in.open(doc, depth);
        int found = 0;
        for (int p = doc + 4; p < end; p = in.valueEnd()) {
            in.read(p, end);
            int i = 0;
            while (i < names.length && !in.keyIs(names[i])) {
                i++;
            }
            if (i == names.length || parts[i] != 0) {
                throw Unshapeable.because("an unknown or repeated argument");
            }
            parts[i] = p;
            found++;
        }
        if (found != names.length) {
            throw Unshapeable.because("a missing argument");
        }
        return parts;
    }
}
