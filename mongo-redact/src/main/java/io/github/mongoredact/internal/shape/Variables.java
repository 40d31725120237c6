package io.github.mongoredact.internal.shape;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The user variables in scope where an aggregation expression is read: the command's {@code let}, a {@code $lookup}'s
 * {@code let} for its sub-pipeline, a {@code $let}'s {@code vars} for its {@code in}. The server refuses a variable that is not
 * defined, so the engine does too. Names are checked as the server checks a user variable's name.
 *
 * <p>Not thread-safe: one per {@link QueryShaper}, emptied for each command.</p>
 */
final class Variables {
    private final List<byte[]> names = new ArrayList<>();

    void clear() {
        names.clear();
    }

    /** @return a mark to {@link #popTo} when the scope that defines the next names ends */
    int mark() {
        return names.size();
    }

    void popTo(final int mark) {
        while (names.size() > mark) {
            names.remove(names.size() - 1);
        }
    }

    /** Defines a user variable, its name checked. */
    void define(final Source in, final int off, final int len) {
        if (!isUserName(in.bytes(), off, len)) {
            throw Unshapeable.because("not a user variable name");
        }
        names.add(Arrays.copyOfRange(in.bytes(), off, off + len));
    }

    boolean isDefined(final Source in, final int off, final int len) {
        for (int i = names.size() - 1; i >= 0; i--) {
            if (in.is(off, len, names.get(i))) {
                return true;
            }
        }
        return false;
    }

    /** A user variable's name: a lower-case ASCII letter or a non-ASCII byte first, then letters, digits, '_' or non-ASCII. */
    static boolean isUserName(final byte[] src, final int off, final int len) {
        if (len == 0) {
            return false;
        }
        byte first = src[off];
        if (!(first >= 'a' && first <= 'z' || first < 0)) {
            return false;
        }
        for (int i = off + 1; i < off + len; i++) {
            byte b = src[i];
            boolean ok = b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b < 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
