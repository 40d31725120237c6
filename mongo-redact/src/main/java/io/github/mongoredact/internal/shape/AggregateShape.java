package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * The shape and hash of an aggregate command (8.0, {@code agg_cmd_shape.cpp}): {@code {cmdNs, [collation], [let], command:
 * "aggregate", pipeline, [allowDiskUse]}}; its hash is SHA-256 of the whole representative shape's BSON. {@code cursor},
 * {@code hint}, {@code maxTimeMS}, {@code bypassDocumentValidation} and the generic fields are not part of it.
 *
 * <p>Stateless apart from its {@link ShapeParts}; not thread-safe.</p>
 */
final class AggregateShape {
    private static final byte[] COMMAND = Literals.ascii("command");
    private static final byte[] AGGREGATE = Literals.ascii("aggregate");
    private static final byte[] PIPELINE = Literals.ascii("pipeline");
    private static final byte[] ALLOW_DISK_USE = Literals.ascii("allowDiskUse");

    private final ShapeParts parts;

    AggregateShape(final ShapeParts parts) {
        this.parts = parts;
    }

    /** Writes the shape of the aggregate command whose top level ends at {@code end}. */
    void write(final byte type, final int value, final int second, final int end) {
        CommandFields fields = parts.fields;
        ShapeOut out = parts.out;
        fields.read(parts.in, second, end, CommandFields.AGGREGATE);
        if (!fields.has(CommandFields.PIPELINE) || !fields.has(CommandFields.CURSOR)) {
            throw Unshapeable.because("an aggregate needs a pipeline and a cursor");
        }
        fields.requireType(CommandFields.CURSOR, BsonTypes.DOCUMENT);
        fields.requireType(CommandFields.ALLOW_DISK_USE, BsonTypes.BOOLEAN);
        parts.namespace(type, value, true);
        parts.pipelines.database(fields.value(CommandFields.DB) + 4, parts.in.stringLength(fields.value(CommandFields.DB)));
        parts.writeNamespace();
        parts.writeCollation();
        parts.writeLet();
        out.key(COMMAND);
        out.string(AGGREGATE);
        out.key(PIPELINE);
        parts.pipelines.write(fields.type(CommandFields.PIPELINE), fields.value(CommandFields.PIPELINE), 1, false);
        if (fields.has(CommandFields.ALLOW_DISK_USE)) {
            out.key(ALLOW_DISK_USE);
            out.bool(parts.in.bytes()[fields.value(CommandFields.ALLOW_DISK_USE)] != 0);
        }
    }

    /** @return the hash of the finished representative shape */
    String hash(final byte[] representative) {
        parts.hasher.start();
        parts.hasher.bytes(representative);
        return parts.hasher.finish();
    }
}
