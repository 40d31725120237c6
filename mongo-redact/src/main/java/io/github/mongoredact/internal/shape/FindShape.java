package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * The shape and hash of a find command (8.0, {@code find_cmd_shape.cpp}): {@code {cmdNs, [collation], [let], command: "find",
 * filter, [projection], [max], [min], [sort], [limit], [skip], [singleBatch ... oplogReplay]}}, and the find hash layout:
 * {@code "find"}, the options word, the namespace, then the representative min, max, sort, collation, let, filter and projection
 * (each the empty document when absent).
 *
 * <p>No shape where 8.0 reports no hash or the engine is not sure of the server's: an IDHACK query ({@code {_id: <value>}} with
 * no hint, min, max, skip, tailable or showRecordId), {@code showRecordId: true} (the server adds a {@code $recordId}
 * projection the engine does not write; allowed for {@link ShapeParts#unitTestRequests}), a {@code limit} or {@code skip}
 * whose zero-ness a redacted copy hides.</p>
 *
 * <p>Stateless apart from its {@link ShapeParts}; not thread-safe.</p>
 */
final class FindShape {
    private static final byte[] COMMAND = Literals.ascii("command");
    private static final byte[] FIND = Literals.ascii("find");
    private static final byte[] FILTER = Literals.ascii("filter");
    private static final byte[] PROJECTION = Literals.ascii("projection");
    private static final byte[] MAX = Literals.ascii("max");
    private static final byte[] MIN = Literals.ascii("min");
    private static final byte[] SORT = Literals.ascii("sort");
    private static final byte[] LIMIT = Literals.ascii("limit");
    private static final byte[] SKIP = Literals.ascii("skip");
    private static final byte[] ID = Literals.ascii("_id");
    private static final byte[] NATURAL = Literals.ascii("$natural");
    private static final byte[] META = Literals.ascii("$meta");
    private static final byte[] COMPUTED = Literals.ascii("$computed");
    private static final int[] DOCUMENTS = {CommandFields.FILTER, CommandFields.PROJECTION, CommandFields.SORT,
        CommandFields.MIN, CommandFields.MAX};
    private static final byte[][] SORT_META = ExpressionWriter.names("textScore", "randVal");
    private static final byte[][] FLAGS = ExpressionWriter.names("singleBatch", "allowDiskUse", "returnKey", "showRecordId",
            "tailable", "awaitData", "mirrored", "oplogReplay");

    private final ShapeParts parts;
    private final ShapeOut out;
    private final Source in;
    private final CommandFields fields;

    FindShape(final ShapeParts parts) {
        this.parts = parts;
        this.out = parts.out;
        this.in = parts.in;
        this.fields = parts.fields;
    }

    /** Writes the shape of the find command whose top level ends at {@code end}. @return the hash */
    String write(final byte type, final int value, final int second, final int end) {
        fields.read(in, second, end, CommandFields.FIND);
        for (int field : DOCUMENTS) {
            fields.requireType(field, BsonTypes.DOCUMENT);
        }
        for (int flag = CommandFields.SINGLE_BATCH; flag <= CommandFields.OPLOG_REPLAY; flag++) {
            fields.requireType(flag, BsonTypes.BOOLEAN);
        }
        boolean limit = count(CommandFields.LIMIT);
        boolean skip = count(CommandFields.SKIP);
        if (flag(CommandFields.SHOW_RECORD_ID) && !parts.unitTestRequests) {
            throw Unshapeable.because("showRecordId: the server adds a $recordId projection the engine does not write");
        }
        parts.namespace(type, value, false);
        if (isIdHack(skip)) {
            throw Unshapeable.because("an IDHACK query: 8.0 computes no hash");
        }
        parts.writeNamespace();
        parts.writeCollation();
        parts.writeLet();
        out.key(COMMAND);
        out.string(FIND);
        writeFilter();
        writeProjection();
        writeFlat(CommandFields.MAX, MAX, ShapeParts.MAX);
        writeFlat(CommandFields.MIN, MIN, ShapeParts.MIN);
        writeSort();
        if (limit) {
            out.key(LIMIT);
            out.literal(Literals.NUMBER);
        }
        if (skip) {
            out.key(SKIP);
            out.literal(Literals.NUMBER);
        }
        int options = 0;
        for (int flag = CommandFields.SINGLE_BATCH; flag <= CommandFields.OPLOG_REPLAY; flag++) {
            if (fields.has(flag)) {
                out.key(FLAGS[flag - CommandFields.SINGLE_BATCH]);
                out.bool(flag(flag));
                options |= flag(flag) ? 0b11 : 0b10;
            }
            options <<= 2;
        }
        options |= (skip ? 1 : 0) | (limit ? 1 : 0) << 1;
        return hash(options);
    }

    /**
     * @return whether {@code limit} or {@code skip} is present once the server has read it: a zero is no limit, no skip
     * @throws Unshapeable for a negative value, a non-integral one, or a redacted one (zero or not?)
     */
    private boolean count(final int field) {
        if (!fields.has(field)) {
            return false;
        }
        if (in.isPlaceholder(fields.type(field), fields.value(field))) {
            throw Unshapeable.because("a redacted limit or skip: whether it is zero (absent) can not be told");
        }
        long number = in.integral(fields.type(field), fields.value(field));
        if (number < 0) {
            throw Unshapeable.because("a negative limit or skip");
        }
        return number != 0;
    }

    private boolean flag(final int field) {
        return fields.has(field) && in.bytes()[fields.value(field)] != 0;
    }

    /** {@code isIdHackEligibleQueryWithoutCollator}: no hint, min, max, skip, tailable, showRecordId; a simple _id filter. */
    private boolean isIdHack(final boolean skip) {
        if (skip || flag(CommandFields.TAILABLE) || flag(CommandFields.SHOW_RECORD_ID) || !isEmpty(CommandFields.HINT)
                || !isEmpty(CommandFields.MIN) || !isEmpty(CommandFields.MAX) || !fields.has(CommandFields.FILTER)) {
            return false;
        }
        int filter = fields.value(CommandFields.FILTER);
        int end = in.open(filter, 1);
        if (end == filter + 4) {
            return false;
        }
        for (int p = filter + 4; p < end;) {
            in.read(p, end);
            p = in.valueEnd();
            if (!in.keyIs(ID)) {
                return false;
            }
            byte type = in.type();
            // an operator document is not simple; an array or a regex generates no exact bounds; anything else is taken as
            // simple (when unsure, no shape is the safe answer)
            if (type == BsonTypes.ARRAY || type == BsonTypes.REGEX || type == BsonTypes.DOCUMENT && startsWithOperator(in.value())) {
                return false;
            }
        }
        return true;
    }

    private boolean startsWithOperator(final int document) {
        int end = in.open(document, 2);
        if (end == document + 4) {
            return false;
        }
        in.read(document + 4, end);
        return in.keyLength() > 0 && in.bytes()[in.key()] == '$';
    }

    /** @return whether the field is absent or an empty document (a hint given by name is not empty) */
    private boolean isEmpty(final int field) {
        return !fields.has(field)
                || fields.type(field) == BsonTypes.DOCUMENT && in.open(fields.value(field), 1) == fields.value(field) + 4;
    }

    private void writeFilter() {
        out.key(FILTER);
        parts.open(ShapeParts.FILTER);
        if (fields.has(CommandFields.FILTER)) {
            MatchNode filter = parts.filters.parse(fields.value(CommandFields.FILTER), 1, FilterParser.PREDICATE_TOP);
            parts.filterWriter.write(filter, parts.variables);
        }
        parts.close(ShapeParts.FILTER);
    }

    private void writeProjection() {
        if (isEmpty(CommandFields.PROJECTION)) {
            return;
        }
        out.key(PROJECTION);
        int start = out.representativePosition();
        parts.projections.write(fields.value(CommandFields.PROJECTION), 1, parts.variables);
        parts.mark(ShapeParts.PROJECTION, start + 1 + PROJECTION.length + 1, out.representativePosition());
    }

    /** {@code min} and {@code max}: each top-level value a literal. */
    private void writeFlat(final int field, final byte[] name, final int part) {
        if (isEmpty(field)) {
            return;
        }
        out.key(name);
        parts.open(part);
        int value = fields.value(field);
        int end = in.open(value, 1);
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            byte type = in.type();
            int key = in.key();
            int keyLen = in.keyLength();
            int element = in.value();
            p = in.valueEnd();
            int code = in.literal(type, element, 2);
            out.key(in.bytes(), key, keyLen);
            out.literal(code);
        }
        parts.close(part);
    }

    /** {@code sort}: directions as Int32 1 or -1, a {@code $meta} part renamed {@code $computed<i>}; {@code $natural} none. */
    private void writeSort() {
        if (isEmpty(CommandFields.SORT)) {
            return;
        }
        int value = fields.value(CommandFields.SORT);
        int end = in.open(value, 1);
        in.read(value + 4, end);
        if (in.keyIs(NATURAL)) {
            if (in.valueEnd() != end) {
                throw Unshapeable.because("$natural with other sort keys");
            }
            PipelineWriter.direction(in, in.type(), in.value());
            return;
        }
        out.key(SORT);
        parts.open(ShapeParts.SORT);
        int index = 0;
        for (int p = value + 4; p < end; index++) {
            in.read(p, end);
            int key = in.key();
            int keyLen = in.keyLength();
            byte type = in.type();
            int element = in.value();
            p = in.valueEnd();
            if (keyLen == 0 || in.bytes()[key] == '$') {
                throw Unshapeable.because("a sort key that is empty or starts with '$'");
            }
            if (type == BsonTypes.DOCUMENT) {
                metaSort(index, element);
            } else {
                out.key(in.bytes(), key, keyLen);
                out.int32(PipelineWriter.direction(in, type, element));
            }
        }
        parts.close(ShapeParts.SORT);
    }

    /** A sort part {@code {$meta: "textScore"}} (or randVal), at position {@code index}: written as {@code $computed<index>}. */
    private void metaSort(final int index, final int meta) {
        int end = in.open(meta, 2);
        in.read(meta + 4, end);
        boolean known = false;
        if (in.keyIs(META) && in.valueEnd() == end && in.type() == BsonTypes.STRING && !in.isPlaceholder(in.type(), in.value())) {
            for (byte[] keyword : SORT_META) {
                known |= in.stringIs(in.value(), keyword);
            }
        }
        if (!known) {
            throw Unshapeable.because("a sort part the engine does not shape");
        }
        out.key(Literals.ascii("$computed" + index));
        out.verbatim(BsonTypes.DOCUMENT, in.bytes(), meta, end + 1);
    }

    private String hash(final int options) {
        ShapeHasher hasher = parts.hasher;
        hasher.start();
        hasher.bytes(FIND);
        hasher.uint32(options << 1 | (parts.isNamespace() ? 1 : 0));
        parts.hashNamespace();
        parts.hashPart(ShapeParts.MIN);
        parts.hashPart(ShapeParts.MAX);
        parts.hashPart(ShapeParts.SORT);
        parts.hashPart(ShapeParts.COLLATION);
        parts.hashPart(ShapeParts.LET);
        parts.hashPart(ShapeParts.FILTER);
        parts.hashPart(ShapeParts.PROJECTION);
        return hasher.finish();
    }
}
