package io.github.mongoredact;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.rules.CollectionCommands;
import org.bson.BsonType;

import static io.github.mongoredact.FieldAction.DROP;
import static io.github.mongoredact.FieldAction.KEEP_FLAGS;
import static io.github.mongoredact.FieldAction.PIPELINE;
import static io.github.mongoredact.FieldAction.REDACT_KEYS;
import static io.github.mongoredact.FieldAction.SCRUB;
import static io.github.mongoredact.FieldRule.Target.COMMAND;
import static io.github.mongoredact.FieldRule.Target.REPLY;

/**
 * The rules of {@link RedactionPolicy#defaults()}: what carries no user data AT THAT PLACE and may be kept, with the types the
 * server accepts there. Everything else is redacted. Every rule is anchored: at the command's (or reply's) top level, at a
 * named path below it, or at the stage level of a pipeline ({@code @stage.}); none matches a key of that name inside user
 * documents, reply batches or pipeline literals.
 */
final class DefaultRules {
    private static final BsonType[] STRING = {BsonType.STRING};
    private static final BsonType[] NUMBER = {BsonType.INT32, BsonType.INT64, BsonType.DOUBLE, BsonType.DECIMAL128};
    private static final BsonType[] BOOLEAN = {BsonType.BOOLEAN};
    private static final BsonType[] TIMESTAMP = {BsonType.TIMESTAMP};
    private static final BsonType[] STRING_OR_NUMBER = {BsonType.STRING, BsonType.INT32, BsonType.INT64, BsonType.DOUBLE,
            BsonType.DECIMAL128};

    /**
     * Command fields, anchored at the top level of every command, that carry no user data, by the types the server accepts
     * there; a value of another type is redacted.
     */
    private static final Object[][] COMMAND_KEEP = {
            {STRING, "$db", "collection", "key", "apiVersion", "verbosity", "readConcern.level", "$readPreference.mode",
                    "$readPreference.tags.*", "nsInfo.ns"},
            {NUMBER, "limit", "batchSize", "skip", "maxTimeMS", "maxAwaitTimeMS", "cursor.batchSize", "txnNumber",
                    "writeConcern.wtimeout", "$readPreference.maxStalenessSeconds", "deletes.limit", "ops.insert",
                    "ops.update", "ops.delete"},
            {BOOLEAN, "ordered", "singleBatch", "autocommit", "startTransaction", "new", "upsert", "remove",
                    "bypassDocumentValidation", "allowDiskUse", "returnKey", "showRecordId", "noCursorTimeout", "tailable",
                    "awaitData", "allowPartialResults", "nameOnly", "authorizedCollections", "apiStrict",
                    "apiDeprecationErrors", "errorsOnly", "writeConcern.j", "writeConcern.fsync", "$readPreference.hedge.enabled",
                    // document sequences: the options of each statement are metadata, their filters and documents are not
                    "updates.multi", "updates.upsert", "ops.multi", "ops.upsert"},
            {TIMESTAMP, "readConcern.afterClusterTime", "readConcern.atClusterTime", "$clusterTime.clusterTime"},
            {STRING_OR_NUMBER, "writeConcern.w", "commitQuorum"},
            {new BsonType[]{BsonType.BINARY}, "lsid.id", "lsid.uid"},
    };

    /**
     * Command fields whose values are index keys, sort orders or projections: flags kept, other values redacted. A hint or an
     * index given by name is a user-chosen name, and redacted; given as a key pattern, its field names and flags stay.
     */
    private static final String[] COMMAND_FLAGS = {
            "sort.*", "hint.*", "index.*", "projection.*", "fields.*", "updates.hint.*", "updates.sort.*", "deletes.hint.*",
            "ops.hint.*", "ops.sort.*",
    };

    /**
     * createIndexes: the index keys and options; index names (user-chosen text), partialFilterExpression, collation strings,
     * weights values and the text index's default language are redacted.
     */
    private static final Object[][] INDEX_KEEP = {
            {BOOLEAN, "indexes.unique", "indexes.sparse", "indexes.hidden", "indexes.background"},
            {NUMBER, "indexes.expireAfterSeconds", "indexes.v", "indexes.2dsphereIndexVersion", "indexes.textIndexVersion",
                    "indexes.bits"},
            {STRING, "indexes.language_override"},
    };

    /**
     * Stage arguments (anchored at the stage level of every pipeline) that are names, sizes or modes, not data; a stage that
     * takes a name or a document ({@code $out}, {@code $unwind}, {@code $unionWith}...) keeps the name, or the document's
     * named fields.
     */
    private static final Object[][] STAGE_KEEP = {
            {STRING, "$lookup.from", "$lookup.from.db", "$lookup.from.coll", "$lookup.localField", "$lookup.foreignField",
                    "$lookup.as", "$out", "$out.db", "$out.coll", "$merge.into", "$merge.into.db", "$merge.into.coll",
                    "$merge.on", "$merge.whenNotMatched", "$count", "$unwind", "$unwind.path", "$unwind.includeArrayIndex",
                    "$unionWith", "$unionWith.coll", "$graphLookup.from", "$graphLookup.connectFromField",
                    "$graphLookup.connectToField", "$graphLookup.as", "$graphLookup.depthField", "$search.index",
                    "$vectorSearch.index", "$vectorSearch.path"},
            {NUMBER, "$limit", "$skip", "$sample.size", "$graphLookup.maxDepth", "$vectorSearch.limit",
                    "$vectorSearch.numCandidates"},
            {BOOLEAN, "$unwind.preserveNullAndEmptyArrays"},
    };

    /** Where a pipeline lies inside a stage: its stages are walked with the same stage rules. */
    private static final String[] STAGE_PIPELINES = {
            "$lookup.pipeline", "$unionWith.pipeline", "$facet.*", "$merge.whenMatched",
    };

    /** Reply fields, anchored at the top level of every reply, that carry no user data, by their types. */
    private static final Object[][] REPLY_KEEP = {
            {NUMBER, "n", "nModified", "nInserted", "nMatched", "nUpserted", "nDeleted", "nErrors", "code", "cursor.id",
                    "writeErrors.index", "writeErrors.code", "writeConcernError.code", "upserted.index", "lastErrorObject.n",
                    "topologyVersion.counter", "numIndexesBefore", "numIndexesAfter", "nIndexesWas"},
            {STRING, "codeName", "errorLabels", "cursor.ns", "writeErrors.codeName", "writeConcernError.codeName",
                    "writeConcernError.errorLabels", "ns"},
            {BOOLEAN, "cursor.partialResultsReturned", "lastErrorObject.updatedExisting", "createdCollectionAutomatically"},
            {TIMESTAMP, "operationTime", "$clusterTime.clusterTime"},
            {new BsonType[]{BsonType.OBJECT_ID}, "topologyVersion.processId", "electionId"},
            {new BsonType[]{BsonType.INT32, BsonType.INT64, BsonType.DOUBLE, BsonType.DECIMAL128, BsonType.BOOLEAN}, "ok"},
    };

    private DefaultRules() {
    }

    static void addTo(final RedactionPolicyBuilder builder) {
        keep(builder, COMMAND, null, COMMAND_KEEP);
        for (String path : COMMAND_FLAGS) {
            builder.rule(COMMAND, null, path, KEEP_FLAGS);
        }
        builder.rule(COMMAND, null, "$clusterTime.signature", DROP);
        builder.rule(COMMAND, null, "let", REDACT_KEYS);
        // the first field of the commands that name a collection there: the name (getMore: the cursor id)
        for (String name : CollectionCommands.names()) {
            BsonType[] types = name.equals("getMore") ? NUMBER : STRING;
            builder.keep(COMMAND, name, name, types[0], rest(types));
        }
        keep(builder, COMMAND, "createIndexes", INDEX_KEEP);
        builder.rule(COMMAND, "createIndexes", "indexes.key.*", KEEP_FLAGS);
        builder.rule(COMMAND, "createIndexes", "indexes.wildcardProjection.*", KEEP_FLAGS);
        addPipelines(builder);
        // the explain option of aggregate is a flag (the explain command reads its inner command by that command's rules)
        builder.keep(COMMAND, "aggregate", "explain", BsonType.BOOLEAN);
        keep(builder, REPLY, null, REPLY_KEEP);
        // index key patterns of duplicate-key errors, at the top level (findAndModify) and in each write error
        builder.rule(REPLY, null, "keyPattern.*", KEEP_FLAGS);
        builder.rule(REPLY, null, "writeErrors.keyPattern.*", KEEP_FLAGS);
        builder.rule(REPLY, null, "$clusterTime.signature", DROP);
        for (String path : new String[]{"errmsg", "$err", "writeErrors.errmsg", "writeConcernError.errmsg"}) {
            builder.rule(REPLY, null, path, SCRUB);
        }
    }

    private static void addPipelines(final RedactionPolicyBuilder builder) {
        // the command's own pipeline: aggregate, and the views of create and collMod
        builder.rule(COMMAND, null, "pipeline", PIPELINE);
        for (Object[] typed : STAGE_KEEP) {
            BsonType[] types = (BsonType[]) typed[0];
            for (int i = 1; i < typed.length; i++) {
                builder.keep(COMMAND, null, "@stage." + typed[i], types[0], rest(types));
            }
        }
        for (String path : STAGE_PIPELINES) {
            builder.rule(COMMAND, null, "@stage." + path, PIPELINE);
        }
        builder.rule(COMMAND, null, "@stage.$sort.*", KEEP_FLAGS);
        builder.rule(COMMAND, null, "@stage.$project.*", KEEP_FLAGS);
        builder.rule(COMMAND, null, "@stage.$lookup.let", REDACT_KEYS);
        builder.rule(COMMAND, null, "@stage.$merge.let", REDACT_KEYS);
    }

    /** Adds each row of typed paths: its types first, then its paths. */
    private static void keep(final RedactionPolicyBuilder builder, final FieldRule.Target target,
                             @Nullable final String commandName, final Object[][] table) {
        for (Object[] typed : table) {
            BsonType[] types = (BsonType[]) typed[0];
            for (int i = 1; i < typed.length; i++) {
                builder.keep(target, commandName, (String) typed[i], types[0], rest(types));
            }
        }
    }

    private static BsonType[] rest(final BsonType[] types) {
        return java.util.Arrays.copyOfRange(types, 1, types.length);
    }
}
