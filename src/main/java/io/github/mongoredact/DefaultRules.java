package io.github.mongoredact;

import static io.github.mongoredact.FieldAction.DROP;
import static io.github.mongoredact.FieldAction.KEEP;
import static io.github.mongoredact.FieldAction.KEEP_FLAGS;
import static io.github.mongoredact.FieldAction.PIPELINE;
import static io.github.mongoredact.FieldAction.REDACT_KEYS;
import static io.github.mongoredact.FieldAction.SCRUB;
import static io.github.mongoredact.FieldRule.Target.COMMAND;
import static io.github.mongoredact.FieldRule.Target.REPLY;

/**
 * The rules of {@link RedactionPolicy#defaults()}: what carries no user data AT THAT PLACE and may be kept. Everything else
 * is redacted. Every rule is anchored: at the command's (or reply's) top level, at a named path below it, or at the stage level
 * of a pipeline ({@code @stage.}); none matches a key of that name inside user documents, reply batches or pipeline literals.
 */
final class DefaultRules {

    /** Command fields, anchored at the top level of every command, that carry no user data. */
    private static final String[] COMMAND_KEEP = {
            "$db", "ordered", "limit", "batchSize", "singleBatch", "skip", "maxTimeMS", "maxAwaitTimeMS", "readConcern",
            "writeConcern", "$readPreference", "lsid", "txnNumber", "autocommit", "startTransaction", "collection",
            "cursor.batchSize", "key", "new", "upsert", "remove", "bypassDocumentValidation", "allowDiskUse",
            "returnKey", "showRecordId", "noCursorTimeout", "tailable", "awaitData", "allowPartialResults", "nameOnly",
            "authorizedCollections", "apiVersion", "apiStrict", "apiDeprecationErrors", "verbosity", "errorsOnly",
            "$clusterTime.clusterTime", "commitQuorum",
            // document sequences: the options of each statement are metadata, their filters and documents are not
            "updates.multi", "updates.upsert", "deletes.limit",
            "ops.insert", "ops.update", "ops.delete", "ops.multi", "ops.upsert", "nsInfo.ns",
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
     * The commands whose first field names a collection (or is a cursor id or the number 1): its value is kept. The first
     * field of every other command (user and role management, {@code logApplicationMessage}, {@code eval}...) keeps only the
     * flags -1, 0, 1, true and false ({@code {"ping": 1}}).
     */
    private static final String[] COLLECTION_COMMANDS = {
            "find", "insert", "update", "delete", "aggregate", "count", "distinct", "findAndModify", "getMore",
            "killCursors", "createIndexes", "dropIndexes", "listIndexes", "create", "drop", "collMod", "mapReduce",
            "validate", "collStats", "renameCollection", "compact", "reIndex", "convertToCapped", "cloneCollectionAsCapped",
            "createSearchIndexes", "dropSearchIndex", "updateSearchIndex", "listSearchIndexes", "analyze",
            "shardCollection", "refineCollectionShardKey", "reshardCollection",
    };

    /**
     * createIndexes: the index keys and options; index names (user-chosen text), partialFilterExpression, collation strings,
     * weights values and the text index's default language are redacted.
     */
    private static final String[] INDEX_KEEP = {
            "indexes.unique", "indexes.sparse", "indexes.expireAfterSeconds", "indexes.hidden", "indexes.background",
            "indexes.v", "indexes.2dsphereIndexVersion", "indexes.textIndexVersion", "indexes.language_override",
            "indexes.bits",
    };

    /** Stage arguments (anchored at the stage level of every pipeline) that are names, sizes or modes, not data. */
    private static final String[] STAGE_KEEP = {
            "$lookup.from", "$lookup.localField", "$lookup.foreignField", "$lookup.as", "$out", "$merge.into", "$merge.on",
            "$merge.whenNotMatched", "$limit", "$skip", "$count", "$unwind", "$sample.size", "$unionWith",
            "$graphLookup.from", "$graphLookup.connectFromField", "$graphLookup.connectToField", "$graphLookup.as",
            "$graphLookup.maxDepth", "$graphLookup.depthField", "$search.index", "$vectorSearch.index",
            "$vectorSearch.path", "$vectorSearch.limit", "$vectorSearch.numCandidates",
    };

    /** Where a pipeline lies inside a stage: its stages are walked with the same stage rules. */
    private static final String[] STAGE_PIPELINES = {
            "$lookup.pipeline", "$unionWith.pipeline", "$facet.*", "$merge.whenMatched",
    };

    /** Reply fields, anchored at the top level of every reply, that carry no user data. */
    private static final String[] REPLY_KEEP = {
            "ok", "n", "nModified", "nInserted", "nMatched", "nUpserted", "nDeleted", "nErrors", "code", "codeName",
            "errorLabels", "cursor.id", "cursor.ns", "cursor.partialResultsReturned", "writeErrors.index",
            "writeErrors.code", "writeErrors.codeName", "writeConcernError.code", "writeConcernError.codeName",
            "writeConcernError.errorLabels", "upserted.index", "lastErrorObject.n", "lastErrorObject.updatedExisting",
            "operationTime", "$clusterTime.clusterTime", "topologyVersion", "electionId", "numIndexesBefore",
            "numIndexesAfter", "createdCollectionAutomatically", "nIndexesWas", "ns",
    };

    private DefaultRules() {
    }

    static void addTo(final RedactionPolicyBuilder builder) {
        for (String path : COMMAND_KEEP) {
            builder.rule(COMMAND, null, path, KEEP);
        }
        for (String path : COMMAND_FLAGS) {
            builder.rule(COMMAND, null, path, KEEP_FLAGS);
        }
        builder.rule(COMMAND, null, "$clusterTime.signature", DROP);
        builder.rule(COMMAND, null, "let", REDACT_KEYS);
        for (String name : COLLECTION_COMMANDS) {
            builder.rule(COMMAND, name, name, KEEP);
        }
        for (String path : INDEX_KEEP) {
            builder.rule(COMMAND, "createIndexes", path, KEEP);
        }
        builder.rule(COMMAND, "createIndexes", "indexes.key.*", KEEP_FLAGS);
        builder.rule(COMMAND, "createIndexes", "indexes.wildcardProjection.*", KEEP_FLAGS);
        addPipelines(builder);
        // explain: the option of aggregate is a flag; the explained command keeps its name and collection only
        builder.rule(COMMAND, "aggregate", "explain", KEEP);
        for (String explained : new String[]{"find", "aggregate", "count", "distinct", "update", "delete", "findAndModify"}) {
            builder.rule(COMMAND, "explain", "explain." + explained, KEEP);
        }
        builder.rule(COMMAND, "explain", "explain.pipeline", PIPELINE);
        for (String path : REPLY_KEEP) {
            builder.rule(REPLY, null, path, KEEP);
        }
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
        for (String path : STAGE_KEEP) {
            builder.rule(COMMAND, null, "@stage." + path, KEEP);
        }
        for (String path : STAGE_PIPELINES) {
            builder.rule(COMMAND, null, "@stage." + path, PIPELINE);
        }
        builder.rule(COMMAND, null, "@stage.$sort.*", KEEP_FLAGS);
        builder.rule(COMMAND, null, "@stage.$project.*", KEEP_FLAGS);
        builder.rule(COMMAND, null, "@stage.$lookup.let", REDACT_KEYS);
        builder.rule(COMMAND, null, "@stage.$merge.let", REDACT_KEYS);
    }
}
