package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * The shape and hash of a count command (8.1+, {@code count_cmd_shape.cpp}; 8.0 computes none): {@code {cmdNs, [collation],
 * command: "count", [query], [limit], [skip]}} ({@code query} only when its representative is not empty); the hash layout is
 * {@code "count"}, an int16 0 (a namespace), the namespace, the collation (or the empty document), one byte
 * {@code skip | limit << 1}, then the representative query (or the empty document).
 *
 * <p>A zero or redacted {@code limit}/{@code skip} is refused: whether the server then takes it as present is not verified.</p>
 *
 * <p>Stateless apart from its {@link ShapeParts}; not thread-safe.</p>
 */
final class CountShape {
    private static final byte[] COMMAND = Literals.ascii("command");
    private static final byte[] COUNT = Literals.ascii("count");
    private static final byte[] QUERY = Literals.ascii("query");
    private static final byte[] LIMIT = Literals.ascii("limit");
    private static final byte[] SKIP = Literals.ascii("skip");

    private final ShapeParts parts;

    CountShape(final ShapeParts parts) {
        this.parts = parts;
    }

    /** Writes the shape of the count command whose top level ends at {@code end}. @return the hash */
    String write(final byte type, final int value, final int second, final int end) {
        CommandFields fields = parts.fields;
        ShapeOut out = parts.out;
        fields.read(parts.in, second, end, CommandFields.COUNT);
        fields.requireType(CommandFields.QUERY, BsonTypes.DOCUMENT);
        boolean limit = present(CommandFields.LIMIT);
        boolean skip = present(CommandFields.SKIP);
        parts.namespace(type, value, false);
        parts.writeNamespace();
        parts.writeCollation();
        out.key(COMMAND);
        out.string(COUNT);
        int[] query = Queries.write(parts, QUERY);
        if (limit) {
            out.key(LIMIT);
            out.literal(Literals.NUMBER);
        }
        if (skip) {
            out.key(SKIP);
            out.literal(Literals.NUMBER);
        }
        ShapeHasher hasher = parts.hasher;
        hasher.start();
        hasher.bytes(COUNT);
        hasher.int16(parts.isNamespace() ? 0 : 1);
        parts.hashNamespace();
        parts.hashPart(ShapeParts.COLLATION);
        hasher.byte1((skip ? 1 : 0) | (limit ? 2 : 0));
        hasher.document(out.representative.array(), query[0], query[1]);
        return hasher.finish();
    }

    private boolean present(final int field) {
        CommandFields fields = parts.fields;
        if (!fields.has(field)) {
            return false;
        }
        Source in = parts.in;
        if (in.isPlaceholder(fields.type(field), fields.value(field))
                || in.integral(fields.type(field), fields.value(field)) == 0) {
            throw Unshapeable.because("a zero or redacted count limit/skip");
        }
        if (field == CommandFields.SKIP && in.integral(fields.type(field), fields.value(field)) < 0) {
            throw Unshapeable.because("a negative skip");
        }
        return true;
    }
}
