package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * The shape and hash of a distinct command (8.0, {@code distinct_cmd_shape.cpp}): {@code {cmdNs, [collation], command:
 * "distinct", key, [query]}} ({@code key} kept, {@code query} only when its representative is not empty); the hash layout is
 * {@code "distinct"}, an int16 0 (a namespace), the namespace, a NUL, the key, a NUL, the collation (or the empty document),
 * then the representative query (or the empty document).
 *
 * <p>Stateless apart from its {@link ShapeParts}; not thread-safe.</p>
 */
final class DistinctShape {
    private static final byte[] COMMAND = Literals.ascii("command");
    private static final byte[] DISTINCT = Literals.ascii("distinct");
    private static final byte[] KEY = Literals.ascii("key");
    private static final byte[] QUERY = Literals.ascii("query");

    private final ShapeParts parts;

    DistinctShape(final ShapeParts parts) {
        this.parts = parts;
    }

    /** Writes the shape of the distinct command whose top level ends at {@code end}. @return the hash */
    String write(final byte type, final int value, final int second, final int end) {
        CommandFields fields = parts.fields;
        ShapeOut out = parts.out;
        Source in = parts.in;
        fields.read(in, second, end, CommandFields.DISTINCT);
        fields.requireType(CommandFields.QUERY, BsonTypes.DOCUMENT);
        if (!fields.has(CommandFields.KEY)) {
            throw Unshapeable.because("distinct needs a key");
        }
        int key = Verbatim.string(in, fields.type(CommandFields.KEY), fields.value(CommandFields.KEY), "distinct's key");
        parts.namespace(type, value, false);
        parts.writeNamespace();
        parts.writeCollation();
        out.key(COMMAND);
        out.string(DISTINCT);
        out.key(KEY);
        out.string(in.bytes(), key + 4, in.stringLength(key));
        int[] query = Queries.write(parts, QUERY);
        ShapeHasher hasher = parts.hasher;
        hasher.start();
        hasher.bytes(DISTINCT);
        hasher.int16(parts.isNamespace() ? 0 : 1);
        parts.hashNamespace();
        hasher.byte1(0);
        hasher.bytes(in.bytes(), key + 4, in.stringLength(key));
        hasher.byte1(0);
        parts.hashPart(ShapeParts.COLLATION);
        hasher.document(out.representative.array(), query[0], query[1]);
        return hasher.finish();
    }
}
