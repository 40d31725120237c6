package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;

/**
 * The stages that read another collection, written as the server serializes them (collection and field names kept, sub-pipelines
 * shaped, views not resolved): {@code $lookup} as {@code {from, as, [localField, foreignField], [let, pipeline]}} (the pipeline
 * form always with {@code let}, {@code {}} when absent); {@code $graphLookup} as {@code {from, as, connectToField,
 * connectFromField, startWith, [depthField], [maxDepth], [restrictSearchWithMatch]}}; {@code $unionWith} as {@code {coll,
 * pipeline}} ({@code []} when absent). Options the engine does not know are refused.
 *
 * <p>Not thread-safe: one per {@link PipelineWriter}. Its {@link StageFields} serve nested stages too: a stage reads its own
 * fields before it writes its sub-pipeline, never after.</p>
 */
final class LookupStages {
    private static final byte[] LOOKUP = Literals.ascii("$lookup");
    private static final byte[] GRAPH_LOOKUP = Literals.ascii("$graphLookup");
    private static final byte[] UNION_WITH = Literals.ascii("$unionWith");
    private static final byte[] PIPELINE = Literals.ascii("pipeline");
    private static final byte[] LET = Literals.ascii("let");
    private static final byte[] COLL = Literals.ascii("coll");
    /** $lookup's fields, in the order written: from, as, localField, foreignField, let, pipeline. */
    private static final byte[][] LOOKUP_FIELDS = ExpressionWriter.names("from", "as", "localField", "foreignField", "let",
            "pipeline");
    /** $graphLookup's fields, in the order written. */
    private static final byte[][] GRAPH_FIELDS = ExpressionWriter.names("from", "as", "connectToField", "connectFromField",
            "startWith", "depthField", "maxDepth", "restrictSearchWithMatch");
    private static final int FROM = 0;
    private static final int AS = 1;
    private static final int LOCAL_FIELD = 2;
    private static final int FOREIGN_FIELD = 3;
    private static final int LOOKUP_LET = 4;
    private static final int LOOKUP_PIPELINE = 5;
    private static final int CONNECT_FROM = 3;
    private static final int START_WITH = 4;
    private static final int DEPTH_FIELD = 5;
    private static final int MAX_DEPTH = 6;
    private static final int RESTRICT = 7;

    private final ShapeParts parts;
    private final ShapeOut out;
    private final Source in;
    private final PipelineWriter pipelines;
    private final StageFields stageFields;

    LookupStages(final ShapeParts parts, final PipelineWriter pipelines) {
        this.parts = parts;
        this.out = parts.out;
        this.in = parts.in;
        this.pipelines = pipelines;
        this.stageFields = new StageFields(in);
    }

    /** @return whether the stage is one of these (and was written) */
    boolean write(final int name, final int nameLen, final byte type, final int value, final int depth) {
        if (in.is(name, nameLen, LOOKUP)) {
            lookup(type, value, depth);
        } else if (in.is(name, nameLen, GRAPH_LOOKUP)) {
            graphLookup(type, value, depth);
        } else if (in.is(name, nameLen, UNION_WITH)) {
            unionWith(type, value, depth);
        } else {
            return false;
        }
        return true;
    }

    private void lookup(final byte type, final int value, final int depth) {
        stageFields.read(type, value, depth, LOOKUP_FIELDS);
        boolean local = stageFields.has(LOCAL_FIELD);
        boolean pipeline = stageFields.has(LOOKUP_PIPELINE);
        if (!stageFields.has(FROM) || !stageFields.has(AS) || local != stageFields.has(FOREIGN_FIELD) || !local && !pipeline
                || stageFields.has(LOOKUP_LET) && !pipeline) {
            throw Unshapeable.because("a $lookup the server refuses or the engine does not shape");
        }
        out.openDocument();
        out.key(LOOKUP);
        out.openDocument();
        for (int field = FROM; field <= FOREIGN_FIELD; field++) {
            if (stageFields.has(field)) {
                stageFields.writeString(out, field, LOOKUP_FIELDS[field]);
            }
        }
        // DocumentSourceLookUp::serialize: let and pipeline unless a local/foreign join has an empty pipeline
        if (pipeline && !(local && isEmptyArray(stageFields.type(LOOKUP_PIPELINE), stageFields.value(LOOKUP_PIPELINE), depth))) {
            int mark = parts.variables.mark();
            out.key(LET);
            out.openDocument();
            if (stageFields.has(LOOKUP_LET)) {
                letVariables(stageFields.type(LOOKUP_LET), stageFields.value(LOOKUP_LET), depth + 1);
            }
            out.close();
            out.key(PIPELINE);
            pipelines.write(stageFields.type(LOOKUP_PIPELINE), stageFields.value(LOOKUP_PIPELINE), depth + 1, true);
            parts.variables.popTo(mark);
        }
        out.close();
        out.close();
    }

    private boolean isEmptyArray(final byte type, final int value, final int depth) {
        return type == BsonTypes.ARRAY && in.open(value, depth + 1) == value + 4;
    }

    /** Writes a {@code $lookup}'s {@code let} variables (read in the enclosing scope) and defines them for its pipeline. */
    private void letVariables(final byte type, final int value, final int depth) {
        if (type != BsonTypes.DOCUMENT) {
            throw Unshapeable.because("$lookup's let must be a document");
        }
        int end = in.open(value, depth);
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            byte variableType = in.type();
            int name = in.key();
            int nameLen = in.keyLength();
            int variable = in.value();
            p = in.valueEnd();
            out.key(in.bytes(), name, nameLen);
            parts.expressions.write(variableType, variable, p, parts.variables, depth + 1);
        }
        for (int p = value + 4; p < end; p = in.valueEnd()) {
            in.read(p, end);
            parts.variables.define(in, in.key(), in.keyLength());
        }
    }

    private void graphLookup(final byte type, final int value, final int depth) {
        stageFields.read(type, value, depth, GRAPH_FIELDS);
        for (int field = FROM; field <= START_WITH; field++) {
            if (!stageFields.has(field)) {
                throw Unshapeable.because("$graphLookup lacks a required field");
            }
        }
        out.openDocument();
        out.key(GRAPH_LOOKUP);
        out.openDocument();
        for (int field = FROM; field <= CONNECT_FROM; field++) {
            stageFields.writeString(out, field, GRAPH_FIELDS[field]);
        }
        out.key(GRAPH_FIELDS[START_WITH]);
        parts.expressions.write(stageFields.type(START_WITH), stageFields.value(START_WITH), stageFields.valueEnd(START_WITH),
                parts.variables, depth + 1);
        if (stageFields.has(DEPTH_FIELD)) {
            stageFields.writeString(out, DEPTH_FIELD, GRAPH_FIELDS[DEPTH_FIELD]);
        }
        if (stageFields.has(MAX_DEPTH)) {
            int maxDepth = stageFields.value(MAX_DEPTH);
            if (in.placeholder(stageFields.type(MAX_DEPTH), maxDepth) != Literals.NUMBER_UNKNOWN
                    && in.integral(stageFields.type(MAX_DEPTH), maxDepth) < 0) {
                throw Unshapeable.because("maxDepth must be non-negative");
            }
            out.key(GRAPH_FIELDS[MAX_DEPTH]);
            out.literal(Literals.NUMBER);
        }
        if (stageFields.has(RESTRICT)) {
            if (stageFields.type(RESTRICT) != BsonTypes.DOCUMENT) {
                throw Unshapeable.because("restrictSearchWithMatch must be a document");
            }
            MatchNode filter = parts.filters.parse(stageFields.value(RESTRICT), depth + 1, FilterParser.SUB_DOCUMENT);
            out.key(GRAPH_FIELDS[RESTRICT]);
            out.openDocument();
            parts.filterWriter.write(filter, parts.variables);
            out.close();
        }
        out.close();
        out.close();
    }

    private void unionWith(final byte type, final int value, final int depth) {
        int coll = value;
        byte pipelineType = BsonTypes.ARRAY;
        int pipeline = -1;
        if (type == BsonTypes.DOCUMENT) {
            stageFields.read(type, value, depth, COLL, PIPELINE);
            if (!stageFields.has(0)) {
                throw Unshapeable.because("$unionWith without coll");
            }
            coll = stageFields.value(0);
            if (stageFields.has(1)) {
                pipelineType = stageFields.type(1);
                pipeline = stageFields.value(1);
            }
            Verbatim.string(in, stageFields.type(0), coll, "$unionWith's coll");
        } else {
            Verbatim.string(in, type, value, "$unionWith");
        }
        out.openDocument();
        out.key(UNION_WITH);
        out.openDocument();
        out.key(COLL);
        out.string(in.bytes(), coll + 4, in.stringLength(coll));
        out.key(PIPELINE);
        if (pipeline < 0) {
            out.openArray();
            out.close();
        } else {
            pipelines.write(pipelineType, pipeline, depth + 1, true);
        }
        out.close();
        out.close();
    }
}
