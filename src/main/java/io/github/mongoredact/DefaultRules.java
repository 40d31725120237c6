package io.github.mongoredact;

import static io.github.mongoredact.FieldAction.DROP;
import static io.github.mongoredact.FieldAction.KEEP;
import static io.github.mongoredact.FieldAction.KEEP_FLAGS;
import static io.github.mongoredact.FieldAction.REDACT;
import static io.github.mongoredact.FieldAction.REDACT_KEYS;
import static io.github.mongoredact.FieldAction.SCRUB;
import static io.github.mongoredact.FieldRule.Target.COMMAND;
import static io.github.mongoredact.FieldRule.Target.REPLY;

/**
 * The rules of {@link RedactionPolicy#defaults()}: what carries no user data and may be kept. Everything else is redacted.
 */
final class DefaultRules {

    /** Command fields, for all commands, that carry no user data. */
    private static final String[] COMMAND_KEEP = {
            "$db", "ordered", "limit", "batchSize", "singleBatch", "skip", "maxTimeMS", "maxAwaitTimeMS", "readConcern",
            "writeConcern", "$readPreference", "lsid", "txnNumber", "autocommit", "startTransaction", "collection", "cursor",
            "sort", "hint", "indexes", "index", "key", "collation", "new", "upsert", "remove",
            "bypassDocumentValidation", "allowDiskUse", "returnKey", "showRecordId", "noCursorTimeout", "tailable",
            "awaitData", "allowPartialResults", "nameOnly", "authorizedCollections", "apiVersion", "apiStrict",
            "apiDeprecationErrors", "verbosity", "errorsOnly", "$clusterTime.clusterTime",
            // document sequences: the options of each statement are metadata, their filters and documents are not
            "updates.multi", "updates.upsert", "updates.hint", "updates.collation", "updates.sort",
            "deletes.limit", "deletes.hint", "deletes.collation",
            "ops.insert", "ops.update", "ops.delete", "ops.multi", "ops.upsert", "ops.hint", "ops.collation", "ops.sort",
            "nsInfo",
            // aggregation: stage names stay (they are keys); these stage arguments are names, not data
            "**.$lookup.from", "**.$lookup.localField", "**.$lookup.foreignField", "**.$lookup.as", "**.$out",
            "**.$merge.into", "**.$merge.on", "**.$merge.whenMatched", "**.$merge.whenNotMatched", "**.$limit", "**.$skip",
            "**.$sort", "**.$count", "**.$unwind", "**.$sample", "**.$unionWith.coll", "**.$graphLookup.from",
            "**.$graphLookup.connectFromField", "**.$graphLookup.connectToField", "**.$graphLookup.as",
    };

    /** Reply fields, for all commands, that carry no user data. */
    private static final String[] REPLY_KEEP = {
            "ok", "n", "nModified", "nInserted", "nMatched", "nUpserted", "nDeleted", "nErrors", "code", "codeName",
            "errorLabels", "cursor.id", "cursor.ns", "cursor.partialResultsReturned", "writeErrors.index",
            "writeErrors.code", "writeErrors.codeName", "writeErrors.keyPattern", "writeConcernError.code",
            "writeConcernError.codeName", "keyPattern", "**.keyPattern", "upserted.index", "lastErrorObject.n",
            "lastErrorObject.updatedExisting",
            "operationTime", "$clusterTime.clusterTime", "topologyVersion", "electionId", "numIndexesBefore",
            "numIndexesAfter", "createdCollectionAutomatically", "nIndexesWas", "ns",
    };

    private DefaultRules() {
    }

    static void addTo(final RedactionPolicy.Builder builder) {
        for (String path : COMMAND_KEEP) {
            builder.rule(COMMAND, null, path, KEEP);
        }
        builder.rule(COMMAND, null, "$clusterTime.signature", DROP);
        // projections: inclusion flags kept, values inside operators such as $elemMatch or $slice redacted
        for (String projection : new String[]{"projection", "fields"}) {
            builder.rule(COMMAND, null, projection + ".*", KEEP_FLAGS);
            builder.rule(COMMAND, null, projection + ".*.*", REDACT);
        }
        // explain: the option of aggregate is a flag; the explained command keeps its name and collection only
        builder.rule(COMMAND, "aggregate", "explain", KEEP);
        for (String explained : new String[]{"find", "aggregate", "count", "distinct", "update", "delete", "findAndModify"}) {
            builder.rule(COMMAND, "explain", "explain." + explained, KEEP);
        }
        builder.rule(COMMAND, null, "let", REDACT_KEYS);
        builder.rule(COMMAND, null, "**.let", REDACT_KEYS);
        builder.rule(COMMAND, "getMore", "getMore", KEEP);
        for (String path : REPLY_KEEP) {
            builder.rule(REPLY, null, path, KEEP);
        }
        builder.rule(REPLY, null, "$clusterTime.signature", DROP);
        builder.rule(REPLY, null, "**.errmsg", SCRUB);
        builder.rule(REPLY, null, "$err", SCRUB);
    }
}
