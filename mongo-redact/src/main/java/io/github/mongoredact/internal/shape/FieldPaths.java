package io.github.mongoredact.internal.shape;

/**
 * Field paths and variables in aggregation expressions, kept verbatim as the server serializes them
 * ({@code ExpressionFieldPath::serialize}): {@code "$a.b"}, {@code "$$ROOT"}, {@code "$$v.x"} for a variable in scope, and
 * {@code "$$CURRENT.a"} written {@code "$a"}. Paths the server refuses (empty parts, parts starting with {@code $}) and
 * variables not defined or not known are refused. Stateless.
 */
final class FieldPaths {
    private static final byte[] CURRENT = Literals.ascii("CURRENT");
    private static final byte[][] BUILTIN = ExpressionWriter.names("ROOT", "REMOVE", "NOW", "CLUSTER_TIME");

    private FieldPaths() {
    }

    /** Writes the field path or variable string at {@code value} (it starts with {@code $}) under the key named. */
    static void write(final ShapeOut out, final Source in, final int value, final Variables variables) {
        byte[] src = in.bytes();
        int off = value + 4;
        int len = in.stringLength(value);
        if (len > 1 && src[off + 1] == '$') {
            int name = off + 2;
            int nameEnd = name;
            while (nameEnd < off + len && src[nameEnd] != '.') {
                nameEnd++;
            }
            checkPath(in, nameEnd, off + len, true);
            int nameLen = nameEnd - name;
            if (in.is(name, nameLen, CURRENT) && nameEnd < off + len) {
                // "$$CURRENT.a" is written "$a"
                out.string(rebased(src, nameEnd, off + len));
                return;
            }
            if (!isBuiltin(in, name, nameLen) && !in.is(name, nameLen, CURRENT)
                    && !(Variables.isUserName(src, name, nameLen) && variables.isDefined(in, name, nameLen))) {
                throw Unshapeable.because("a variable not defined: " + in.text(name, nameLen));
            }
        } else {
            checkPath(in, off, off + len, false);
        }
        out.string(src, off, len);
    }

    private static byte[] rebased(final byte[] src, final int dot, final int end) {
        byte[] path = new byte[end - dot];
        path[0] = '$';
        System.arraycopy(src, dot + 1, path, 1, end - dot - 1);
        return path;
    }

    private static boolean isBuiltin(final Source in, final int name, final int len) {
        for (byte[] builtin : BUILTIN) {
            if (in.is(name, len, builtin)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Checks the parts of a path {@code src[from, end)}: after a variable ({@code afterVariable}, {@code from} at the dot or the
     * end) or after the leading {@code $} ({@code from} at the {@code $}): each part nonempty, not starting with {@code $}, no NUL.
     */
    private static void checkPath(final Source in, final int from, final int end, final boolean afterVariable) {
        byte[] src = in.bytes();
        if (!afterVariable && end - from < 2) {
            throw Unshapeable.because("an empty field path");
        }
        int part = from + 1;
        if (afterVariable && from == end) {
            return;
        }
        for (int i = part; i <= end; i++) {
            if (i == end || src[i] == '.') {
                if (i == part || src[part] == '$') {
                    throw Unshapeable.because("an empty field path part, or one starting with '$'");
                }
                part = i + 1;
            } else if (src[i] == 0) {
                throw Unshapeable.because("a NUL in a field path");
            }
        }
    }

    /** Checks the name of a field an expression object computes: nonempty, no '.', not starting with '$'. */
    static void checkFieldName(final Source in, final int key, final int keyLen) {
        if (keyLen == 0 || in.bytes()[key] == '$') {
            throw Unshapeable.because("a computed field name that is empty or starts with '$'");
        }
        for (int i = key; i < key + keyLen; i++) {
            if (in.bytes()[i] == '.') {
                throw Unshapeable.because("a computed field name with a '.'");
            }
        }
    }
}
