package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * Writes an aggregation pipeline as the server serializes the parsed pipeline, before view resolution and optimization
 * (nothing coalesced, nothing pushed down; parse-time desugaring kept: {@code $count} is a {@code $group} and a
 * {@code $project}, {@code $unwind: "$a"} is {@code {path: "$a"}}, {@code $out: "c"} is {@code {coll, db}}). The stages written:
 * {@code $match}, {@code $limit}, {@code $skip}, {@code $sort}, {@code $unwind} (path only), {@code $out}, and those of
 * {@link LookupStages} and {@link GroupStages}. Any other stage, or a form of these the engine does not reproduce, is refused.
 *
 * <p>Not thread-safe: one per {@link ShapeParts}.</p>
 */
final class PipelineWriter {
    private static final byte[] MATCH = Literals.ascii("$match");
    private static final byte[] LIMIT = Literals.ascii("$limit");
    private static final byte[] SKIP = Literals.ascii("$skip");
    private static final byte[] SORT = Literals.ascii("$sort");
    private static final byte[] UNWIND = Literals.ascii("$unwind");
    private static final byte[] OUT = Literals.ascii("$out");
    private static final byte[] PATH = Literals.ascii("path");
    private static final byte[] COLL = Literals.ascii("coll");
    private static final byte[] DB = Literals.ascii("db");

    private final ShapeParts parts;
    private final ShapeOut out;
    private final Source in;
    private final LookupStages lookups;
    private final GroupStages groups;
    private int database;
    private int databaseLen;

    PipelineWriter(final ShapeParts parts) {
        this.parts = parts;
        this.out = parts.out;
        this.in = parts.in;
        this.lookups = new LookupStages(parts, this);
        this.groups = new GroupStages(parts);
    }

    /** Notes where the command's database lies, which {@code $out: "<collection>"} names. */
    void database(final int off, final int len) {
        database = off;
        databaseLen = len;
    }

    /**
     * Writes the pipeline array at {@code value} under the key named.
     *
     * @param nested whether it is a sub-pipeline ({@code $lookup}, {@code $unionWith}), where {@code $out} is refused
     */
    void write(final byte type, final int value, final int depth, final boolean nested) {
        if (type != BsonTypes.ARRAY) {
            throw Unshapeable.because("a pipeline must be an array");
        }
        out.openArray();
        int end = in.open(value, depth);
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            byte stageType = in.type();
            int stage = in.value();
            p = in.valueEnd();
            if (stageType != BsonTypes.DOCUMENT) {
                throw Unshapeable.because("a stage must be a document");
            }
            int stageEnd = in.open(stage, depth + 1);
            if (stageEnd == stage + 4) {
                throw Unshapeable.because("an empty stage");
            }
            in.read(stage + 4, stageEnd);
            if (in.valueEnd() != stageEnd) {
                throw Unshapeable.because("a stage must have exactly one field");
            }
            stage(in.key(), in.keyLength(), in.type(), in.value(), depth + 2, nested || p < end);
        }
        out.close();
    }

    private void stage(final int name, final int nameLen, final byte type, final int value, final int depth,
                       final boolean notLast) {
        if (in.is(name, nameLen, MATCH)) {
            if (type != BsonTypes.DOCUMENT) {
                throw Unshapeable.because("$match needs a document");
            }
            MatchNode filter = parts.filters.parse(value, depth, FilterParser.PREDICATE_TOP);
            out.openDocument();
            out.key(MATCH);
            out.openDocument();
            parts.filterWriter.write(filter, parts.variables);
            out.close();
            out.close();
        } else if (in.is(name, nameLen, LIMIT) || in.is(name, nameLen, SKIP)) {
            boolean limit = in.is(name, nameLen, LIMIT);
            if (in.placeholder(type, value) != Literals.NUMBER_UNKNOWN) {
                long number = in.integral(type, value);
                if (number < (limit ? 1 : 0)) {
                    throw Unshapeable.because("$limit must be positive, $skip non-negative");
                }
            }
            out.openDocument();
            out.key(limit ? LIMIT : SKIP);
            out.literal(Literals.NUMBER);
            out.close();
        } else if (in.is(name, nameLen, SORT)) {
            sort(type, value, depth);
        } else if (in.is(name, nameLen, UNWIND)) {
            unwind(type, value, depth);
        } else if (in.is(name, nameLen, OUT)) {
            if (notLast) {
                throw Unshapeable.because("$out must be the last stage of the outer pipeline");
            }
            out(type, value, depth);
        } else if (!lookups.write(name, nameLen, type, value, depth) && !groups.write(name, nameLen, type, value, depth)) {
            throw Unshapeable.because("unsupported stage " + in.text(name, nameLen));
        }
    }

    /** {@code $sort}: field names kept, directions written as Int32 1 or -1; {@code $meta} and {@code $natural} refused. */
    private void sort(final byte type, final int value, final int depth) {
        if (type != BsonTypes.DOCUMENT || in.open(value, depth) == value + 4) {
            throw Unshapeable.because("$sort needs a nonempty document");
        }
        out.openDocument();
        out.key(SORT);
        out.openDocument();
        int end = in.open(value, depth);
        for (int p = value + 4; p < end; p = in.valueEnd()) {
            in.read(p, end);
            if (in.keyLength() == 0 || in.bytes()[in.key()] == '$') {
                throw Unshapeable.because("a $sort key that is empty or starts with '$'");
            }
            out.key(in.bytes(), in.key(), in.keyLength());
            out.int32(direction(in, in.type(), in.value()));
        }
        out.close();
        out.close();
    }

    /** @return a sort direction, 1 or -1, from a number equal to it */
    static int direction(final Source in, final byte type, final int value) {
        if (in.isPlaceholder(type, value)) {
            throw Unshapeable.because("a redacted sort direction");
        }
        long direction = type == BsonTypes.DOUBLE || type == BsonTypes.INT32 || type == BsonTypes.INT64
                ? in.integral(type, value) : 0;
        if (direction != 1 && direction != -1) {
            throw Unshapeable.because("a sort direction other than 1 or -1");
        }
        return (int) direction;
    }

    private void unwind(final byte type, final int value, final int depth) {
        int path = value;
        byte pathType = type;
        if (type == BsonTypes.DOCUMENT) {
            int end = in.open(value, depth);
            in.read(value + 4, end);
            if (end == value + 4 || !in.keyIs(PATH) || in.valueEnd() != end) {
                throw Unshapeable.because("$unwind with options the engine does not shape");
            }
            path = in.value();
            pathType = in.type();
        }
        Verbatim.string(in, pathType, path, "$unwind's path");
        if (!in.stringStartsWith(path, '$') || in.stringLength(path) > 1 && in.bytes()[path + 5] == '$') {
            throw Unshapeable.because("$unwind's path must be a field path");
        }
        out.openDocument();
        out.key(UNWIND);
        out.openDocument();
        out.key(PATH);
        out.string(in.bytes(), path + 4, in.stringLength(path));
        out.close();
        out.close();
    }

    /** {@code $out}: {@code "coll"} or {@code {db, coll}}, written {@code {coll, db}}. */
    private void out(final byte type, final int value, final int depth) {
        int db = database;
        int dbLen = databaseLen;
        int coll = value;
        if (type == BsonTypes.DOCUMENT) {
            int end = in.open(value, depth);
            int collField = -1;
            int dbField = -1;
            for (int p = value + 4; p < end; p = in.valueEnd()) {
                in.read(p, end);
                if (in.keyIs(COLL) && collField < 0) {
                    collField = Verbatim.string(in, in.type(), in.value(), "$out.coll");
                } else if (in.keyIs(DB) && dbField < 0) {
                    dbField = Verbatim.string(in, in.type(), in.value(), "$out.db");
                } else {
                    throw Unshapeable.because("$out with options the engine does not shape");
                }
            }
            if (collField < 0 || dbField < 0) {
                throw Unshapeable.because("$out needs coll and db");
            }
            coll = collField;
            db = dbField + 4;
            dbLen = in.stringLength(dbField);
        } else {
            Verbatim.string(in, type, value, "$out");
        }
        out.openDocument();
        out.key(OUT);
        out.openDocument();
        out.key(COLL);
        out.string(in.bytes(), coll + 4, in.stringLength(coll));
        out.key(DB);
        out.string(in.bytes(), db, dbLen);
        out.close();
        out.close();
    }
}
