package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * The values a shape keeps verbatim (a collation, a {@code $count} name, a {@code $lookup}'s collection): in placeholder mode a
 * redacted value there can not be what the command held, so a placeholder string anywhere in it refuses the shape. Stateless.
 */
final class Verbatim {
    private Verbatim() {
    }

    /** Refuses, in placeholder mode, a value that is or holds a placeholder string. */
    static void check(final Source in, final byte type, final int value, final int depth) {
        if (!in.placeholderMode()) {
            return;
        }
        if (type == BsonTypes.STRING && in.isPlaceholder(type, value)) {
            throw Unshapeable.because("a redacted value where the shape keeps the value itself");
        }
        if (type != BsonTypes.DOCUMENT && type != BsonTypes.ARRAY) {
            return;
        }
        int end = in.open(value, depth);
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            byte elementType = in.type();
            int element = in.value();
            p = in.valueEnd();
            check(in, elementType, element, depth + 1);
        }
    }

    /** @return the string at {@code value}, checked: a string, no placeholder, no NUL, nonempty */
    static int string(final Source in, final byte type, final int value, final String what) {
        if (type != BsonTypes.STRING || in.stringLength(value) == 0) {
            throw Unshapeable.because(what + " must be a nonempty string");
        }
        check(in, type, value, 0);
        for (int i = value + 4; i < value + 4 + in.stringLength(value); i++) {
            if (in.bytes()[i] == 0) {
                throw Unshapeable.because(what + " holds a NUL");
            }
        }
        return value;
    }
}
