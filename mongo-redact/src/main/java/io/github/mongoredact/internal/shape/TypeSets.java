package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * The operand of {@code $type}, as the server's {@code MatcherTypeSet} reads and writes it: type codes and aliases, alone or in
 * an array, become a set written back as {@code ["number", <codes in ascending order>]}, the same in both shapes (types are not
 * literals). A redacted operand is refused: the types it named are gone.
 *
 * <p>Not thread-safe: one per {@link FilterOperands}.</p>
 */
final class TypeSets {
    private static final byte[] NUMBER = Literals.ascii("number");
    /** Alias, code: the server's type aliases. */
    private static final Object[][] ALIASES = {{"double", 1}, {"string", 2}, {"object", 3}, {"array", 4}, {"binData", 5},
        {"undefined", 6}, {"objectId", 7}, {"bool", 8}, {"date", 9}, {"null", 10}, {"regex", 11}, {"dbPointer", 12},
        {"javascript", 13}, {"symbol", 14}, {"javascriptWithScope", 15}, {"int", 16}, {"timestamp", 17}, {"long", 18},
        {"decimal", 19}, {"minKey", -1}, {"maxKey", 127}};
    private static final byte[][] ALIAS_NAMES = new byte[ALIASES.length][];

    static {
        for (int i = 0; i < ALIASES.length; i++) {
            ALIAS_NAMES[i] = Literals.ascii((String) ALIASES[i][0]);
        }
    }

    private final Source in;

    TypeSets(final Source in) {
        this.in = in;
    }

    /** Reads a {@code $type} operand into {@code node}'s type set. */
    void parse(final MatchNode node, final byte type, final int value, final int depth) {
        if (in.isPlaceholder(type, value)) {
            throw Unshapeable.because("a redacted $type operand");
        }
        if (type != BsonTypes.ARRAY) {
            add(node, type, value);
            return;
        }
        int end = in.open(value, depth);
        for (int p = value + 4; p < end; p = in.valueEnd()) {
            in.read(p, end);
            if (in.isPlaceholder(in.type(), in.value())) {
                throw Unshapeable.because("a redacted $type operand");
            }
            add(node, in.type(), in.value());
        }
        if (node.types == 0 && !node.allNumbers) {
            throw Unshapeable.because("$type must match at least one type");
        }
    }

    private void add(final MatchNode node, final byte type, final int value) {
        if (type == BsonTypes.STRING) {
            int off = value + 4;
            int len = in.stringLength(value);
            if (in.is(off, len, NUMBER)) {
                node.allNumbers = true;
                return;
            }
            for (int i = 0; i < ALIASES.length; i++) {
                if (in.is(off, len, ALIAS_NAMES[i])) {
                    node.types |= 1 << bit((Integer) ALIASES[i][1]);
                    return;
                }
            }
            throw Unshapeable.because("unknown type alias");
        }
        long code = in.integral(type, value);
        if (!(code == -1 || code >= 1 && code <= 19 || code == 127)) {
            throw Unshapeable.because("invalid numerical type code");
        }
        node.types |= 1 << bit((int) code);
    }

    /** The bit of a type code, in the server's order of type codes: MinKey (-1) first, MaxKey (127) last. */
    private static int bit(final int code) {
        return code == -1 ? 0 : code == 127 ? 20 : code;
    }

    /** Writes the set: {@code "number"} first if named, then the codes in ascending order (Int32). */
    static void write(final ShapeOut out, final MatchNode node) {
        out.openArray();
        if (node.allNumbers) {
            out.string(NUMBER);
        }
        for (int bit = 0; bit <= 20; bit++) {
            if ((node.types & 1 << bit) != 0) {
                out.int32(bit == 0 ? -1 : bit == 20 ? 127 : bit);
            }
        }
        out.close();
    }
}
