package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * Writes a shape twice in one pass: the debug shape ({@code $queryStats}' {@code key.queryShape}, literals as type strings) and
 * the representative shape (literals as fixed values of their type, what the server hashes). Structure, keys and values kept
 * verbatim go to both; a literal goes to each in its own form. The few places where the two forms differ in structure (a
 * variadic expression of constants) write to one side at a time ({@link #onlyDebug()}, {@link #onlyRepresentative()}).
 *
 * <p>Not thread-safe: one per {@link QueryShaper}, reset for each command; its buffers are kept.</p>
 */
final class ShapeOut {
    private static final byte[] CONST = Literals.ascii("$const");
    private static final byte[] NO_KEY = new byte[0];
    private static final byte[] STRING_PLACEHOLDER = Literals.debugPlaceholder(BsonTypes.STRING);

    final BsonBuffer debug = new BsonBuffer();
    final BsonBuffer representative = new BsonBuffer();
    private boolean toDebug = true;
    private boolean toRepresentative = true;

    /** Starts a new shape: both top-level documents open. */
    void reset() {
        debug.reset();
        representative.reset();
        both();
    }

    /** Forgets a key named and not written (it may point into the command's bytes). */
    void forgetKeys() {
        debug.key(NO_KEY, 0, 0);
        representative.key(NO_KEY, 0, 0);
    }

    /** Writes to the debug shape only, until {@link #both()}. */
    void onlyDebug() {
        toDebug = true;
        toRepresentative = false;
    }

    /** Writes to the representative shape only, until {@link #both()}. */
    void onlyRepresentative() {
        toDebug = false;
        toRepresentative = true;
    }

    void both() {
        toDebug = true;
        toRepresentative = true;
    }

    /** Names the key of the next element in the shapes being written (the other keeps the key it was given). */
    void key(final byte[] src, final int off, final int len) {
        if (toDebug) {
            debug.key(src, off, len);
        }
        if (toRepresentative) {
            representative.key(src, off, len);
        }
    }

    void key(final byte[] name) {
        key(name, 0, name.length);
    }

    /** @return where the document starts in the representative shape (-1 while writing the debug shape only) */
    int openDocument() {
        return open(BsonTypes.DOCUMENT);
    }

    void openArray() {
        open(BsonTypes.ARRAY);
    }

    private int open(final byte type) {
        if (toDebug) {
            debug.open(type);
        }
        return toRepresentative ? representative.open(type) : -1;
    }

    /** @return how many bytes the representative shape holds so far (where the container closed last ends) */
    int representativePosition() {
        return representative.position();
    }

    void close() {
        if (toDebug) {
            debug.close();
        }
        if (toRepresentative) {
            representative.close();
        }
    }

    void string(final byte[] src, final int off, final int len) {
        if (toDebug) {
            debug.string(src, off, len);
        }
        if (toRepresentative) {
            representative.string(src, off, len);
        }
    }

    void string(final byte[] value) {
        string(value, 0, value.length);
    }

    void int32(final int value) {
        if (toDebug) {
            debug.int32(value);
        }
        if (toRepresentative) {
            representative.int32(value);
        }
    }

    void bool(final boolean value) {
        if (toDebug) {
            debug.bool(value);
        }
        if (toRepresentative) {
            representative.bool(value);
        }
    }

    /** Writes an element kept verbatim in both shapes: its type and its value bytes {@code src[value, valueEnd)}. */
    void verbatim(final byte type, final byte[] src, final int value, final int valueEnd) {
        if (toDebug) {
            debug.value(type, src, value, valueEnd - value);
        }
        if (toRepresentative) {
            representative.value(type, src, value, valueEnd - value);
        }
    }

    /** Writes a literal of class {@code code} (see {@link Literals}): its type string, its representative value. */
    void literal(final int code) {
        if (toDebug) {
            debug.string(Literals.debugPlaceholder(code));
        }
        if (toRepresentative) {
            Literals.writeRepresentative(representative, code);
        }
    }

    /** Writes a string literal whose representative value is not {@code "?"} but {@code representative} ($regex, $options). */
    void literalString(final byte[] representativeValue) {
        if (toDebug) {
            debug.string(STRING_PLACEHOLDER);
        }
        if (toRepresentative) {
            representative.string(representativeValue);
        }
    }

    /**
     * Writes an aggregation-expression constant of class {@code code}: the bare type string in the debug shape,
     * {@code {$const: <representative>}} in the representative shape ({@code ExpressionConstant::serializeConstant}).
     */
    void constant(final int code) {
        if (toDebug) {
            debug.string(Literals.debugPlaceholder(code));
        }
        if (toRepresentative) {
            representative.open(BsonTypes.DOCUMENT);
            representative.key(CONST, 0, CONST.length);
            Literals.writeRepresentative(representative, code);
            representative.close();
        }
    }
}
