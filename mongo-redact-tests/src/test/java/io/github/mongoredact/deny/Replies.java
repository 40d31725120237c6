package io.github.mongoredact.deny;

import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.Arrays;
import java.util.Collections;

/**
 * Replies shaped as a server sends them, with planted values wherever a server quotes user data: batches, found documents,
 * distinct values, duplicate-key and validation write errors (with {@code errInfo} of a {@code $jsonSchema}), write concern
 * errors, upserted ids, explain plans.
 */
final class Replies {
    private final UserData data;
    private final Planted planted;

    Replies(final UserData data) {
        this.data = data;
        this.planted = data.planted();
    }

    static BsonDocument ok(final BsonDocument reply) {
        return reply.append("ok", new BsonDouble(1));
    }

    BsonArray batch() {
        BsonArray batch = new BsonArray();
        int n = 1 + planted.nextInt(3);
        for (int i = 0; i < n; i++) {
            batch.add(planted.chance(30) ? data.dollarDocument() : data.insertDocument());
        }
        return batch;
    }

    BsonDocument cursor(final String ns, final String batchName) {
        return ok(new BsonDocument("cursor", new BsonDocument(batchName, batch()).append("id", new BsonInt64(0))
                .append("ns", new BsonString(ns))));
    }

    BsonDocument findAndModify() {
        return ok(new BsonDocument("lastErrorObject", new BsonDocument("n", new BsonInt32(1))
                .append("updatedExisting", BsonBoolean.FALSE).append("upserted", planted.objectId()))
                .append("value", data.insertDocument()));
    }

    BsonDocument distinct() {
        return ok(new BsonDocument("values", new BsonArray(Arrays.asList(planted.scalar(), planted.scalar(),
                data.document(1)))));
    }

    /** The server's duplicate key message quoting the planted value, with keyPattern and keyValue. */
    BsonDocument duplicateKeyError(final int index) {
        BsonValue value = planted.chance(50) ? planted.string() : planted.int64();
        String quoted = value.isString() ? "\"" + value.asString().getValue() + "\"" : String.valueOf(value.asInt64().getValue());
        return new BsonDocument("index", new BsonInt32(index)).append("code", new BsonInt32(11000))
                .append("codeName", new BsonString("DuplicateKey"))
                .append("keyPattern", new BsonDocument("email", new BsonInt32(1)))
                .append("keyValue", new BsonDocument("email", value))
                .append("errmsg", new BsonString("E11000 duplicate key error collection: shop.users index: email_1 dup key: "
                        + "{ email: " + quoted + " }"));
    }

    /** A document validation failure with the {@code $jsonSchema} details the server puts in {@code errInfo}. */
    BsonDocument validationError(final int index) {
        BsonDocument reason = new BsonDocument("operatorName", new BsonString("pattern"))
                .append("specifiedAs", new BsonDocument("pattern", planted.string()))
                .append("reason", new BsonString("regular expression did not match"))
                .append("consideredValue", planted.scalar());
        BsonDocument property = new BsonDocument("propertyName", new BsonString("email"))
                .append("details", new BsonArray(Collections.singletonList(reason)));
        BsonDocument details = new BsonDocument("operatorName", new BsonString("$jsonSchema"))
                .append("schemaRulesNotSatisfied", new BsonArray(Collections.singletonList(new BsonDocument("operatorName",
                        new BsonString("properties")).append("propertiesNotSatisfied",
                        new BsonArray(Collections.singletonList(property))))));
        return new BsonDocument("index", new BsonInt32(index)).append("code", new BsonInt32(121))
                .append("codeName", new BsonString("DocumentValidationFailure"))
                .append("errmsg", new BsonString("Document failed validation"))
                .append("errInfo", new BsonDocument("failingDocumentId", planted.objectId()).append("details", details));
    }

    BsonDocument writeConcernError() {
        return new BsonDocument("code", new BsonInt32(64)).append("codeName", new BsonString("WriteConcernFailed"))
                .append("errmsg", new BsonString("waiting for replication timed out while writing " + planted.text()))
                .append("errInfo", new BsonDocument("wtimeout", BsonBoolean.TRUE).append("writeConcern",
                        new BsonDocument("w", new BsonInt32(2)).append("wtimeout", new BsonInt32(10))
                                .append("provenance", new BsonString("clientSupplied"))).append("value", planted.scalar()));
    }

    /** A write reply: counts, write errors of both kinds, upserted ids and a write concern error. */
    BsonDocument write() {
        BsonDocument reply = new BsonDocument("n", new BsonInt32(1)).append("nModified", new BsonInt32(0))
                .append("upserted", new BsonArray(Collections.singletonList(new BsonDocument("index", new BsonInt32(0))
                        .append("_id", planted.objectId()))))
                .append("writeErrors", new BsonArray(Arrays.asList(duplicateKeyError(1), validationError(2))));
        if (planted.chance(60)) {
            reply.append("writeConcernError", writeConcernError());
        }
        return ok(reply);
    }

    /** An explain reply: the parsed query and the plan quote the filter. */
    BsonDocument explain(final BsonDocument command) {
        BsonDocument filter = data.filter();
        return ok(new BsonDocument("queryPlanner", new BsonDocument("namespace", new BsonString("shop.users"))
                .append("parsedQuery", filter).append("winningPlan", new BsonDocument("stage", new BsonString("COLLSCAN"))
                        .append("filter", filter.clone()))).append("command", command.clone())
                .append("serverInfo", new BsonDocument("host", new BsonString("db1")).append("port", new BsonInt32(27017))));
    }

    BsonDocument usersInfo() {
        String user = planted.text();
        return ok(new BsonDocument("users", new BsonArray(Collections.singletonList(new BsonDocument("_id",
                new BsonString("shop." + user)).append("user", new BsonString(user)).append("db", new BsonString("shop"))
                .append("customData", data.document(1)).append("roles", new BsonArray(Collections.singletonList(
                        new BsonDocument("role", new BsonString("read")).append("db", new BsonString("shop")))))))));
    }

    BsonDocument mapReduce() {
        return ok(new BsonDocument("results", new BsonArray(Arrays.asList(new BsonDocument("_id", planted.scalar())
                .append("value", planted.number())))));
    }

    /** The client bulkWrite reply: a cursor of per-operation results, one upsert and one duplicate key. */
    BsonDocument clientBulkWrite() {
        BsonArray results = new BsonArray(Arrays.asList(new BsonDocument("ok", new BsonDouble(1)).append("idx",
                new BsonInt32(0)).append("n", new BsonInt32(1)).append("upserted", new BsonDocument("_id",
                planted.objectId())), duplicateKeyError(1).append("ok", new BsonDouble(0)).append("idx", new BsonInt32(1))));
        return ok(new BsonDocument("cursor", new BsonDocument("firstBatch", results).append("id", new BsonInt64(0))
                .append("ns", new BsonString("admin.$cmd.bulkWrite"))).append("nErrors", new BsonInt32(1))
                .append("nInserted", new BsonInt32(0)).append("nUpserted", new BsonInt32(1)));
    }
}
