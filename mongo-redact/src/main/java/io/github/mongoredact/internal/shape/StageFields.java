package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * The named fields of a stage's document, found in one pass: where each lies, by its index in the names the stage takes. An
 * unknown field or one given twice refuses the stage (the server refuses both, or the engine does not shape the option).
 *
 * <p>Not thread-safe: read again by each stage, nested ones included; a stage uses what it read before it writes a
 * sub-pipeline.</p>
 */
final class StageFields {
    private static final int MAX_FIELDS = 8;

    private final Source in;
    private final byte[] types = new byte[MAX_FIELDS];
    private final int[] values = new int[MAX_FIELDS];
    private final int[] valueEnds = new int[MAX_FIELDS];
    private int present;

    StageFields(final Source in) {
        this.in = in;
    }

    void read(final byte type, final int value, final int depth, final byte[]... names) {
        if (type != BsonTypes.DOCUMENT) {
            throw Unshapeable.because("a stage's argument must be a document");
        }
        present = 0;
        int end = in.open(value, depth);
        for (int p = value + 4; p < end; p = in.valueEnd()) {
            in.read(p, end);
            int field = 0;
            while (field < names.length && !in.keyIs(names[field])) {
                field++;
            }
            if (field == names.length || has(field)) {
                throw Unshapeable.because("a stage field the engine does not shape, or one given twice: "
                        + in.text(in.key(), in.keyLength()));
            }
            present |= 1 << field;
            types[field] = in.type();
            values[field] = in.value();
            valueEnds[field] = in.valueEnd();
        }
    }

    boolean has(final int field) {
        return (present & 1 << field) != 0;
    }

    byte type(final int field) {
        return types[field];
    }

    int value(final int field) {
        return values[field];
    }

    int valueEnd(final int field) {
        return valueEnds[field];
    }

    /** Writes field {@code field}, a name kept verbatim (a collection, a field path without '$'), under {@code key}. */
    void writeString(final ShapeOut out, final int field, final byte[] key) {
        int value = Verbatim.string(in, types[field], values[field], "a name a stage keeps");
        out.key(key);
        out.string(in.bytes(), value + 4, in.stringLength(value));
    }
}
