package io.github.mongoredact.deny;

import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;

/**
 * Constructed CRUD and aggregation commands, each with every option that carries a value, and the replies and failures a
 * server sends for them. Each family comes {@link #ROUNDS} times with fresh random shapes.
 */
final class CrudCases {
    static final int ROUNDS = 4;
    private static final BsonString DB = new BsonString("shop");

    private final UserData data;
    private final Planted planted;
    private final Pipelines pipelines;
    private final Replies replies;
    private final Failures failures;

    CrudCases(final UserData data, final Pipelines pipelines, final Replies replies, final Failures failures) {
        this.data = data;
        this.planted = data.planted();
        this.pipelines = pipelines;
        this.replies = replies;
        this.failures = failures;
    }

    List<Case> all() {
        List<Case> cases = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            cases.add(find());
            cases.add(getMore());
            cases.add(insert());
            cases.add(update());
            cases.add(delete());
            cases.add(findAndModify());
            cases.add(count());
            cases.add(distinct());
            for (String stage : Pipelines.ALL_STAGES) {
                cases.add(aggregate(stage));
            }
            cases.add(transactionInsert());
            cases.addAll(typedMetadata());
        }
        return cases;
    }

    /** Kept metadata of another type than the server takes there: a value, redacted like any. */
    private List<Case> typedMetadata() {
        List<Case> cases = new ArrayList<>();
        cases.add(new Case("typedMetadata.find", new BsonDocument("find", new BsonString("users"))
                .append("filter", data.filter()).append("limit", new BsonDocument("email", planted.string()))
                .append("batchSize", planted.string()).append("skip", planted.string())
                .append("maxTimeMS", new BsonDocument("ms", planted.int64()))
                .append("singleBatch", planted.string())
                .append("readConcern", new BsonDocument("level", new BsonString("local")).append("note", planted.string()))
                .append("$db", DB)).reply(replies.cursor("shop.users", "firstBatch")));
        cases.add(new Case("typedMetadata.getMore", new BsonDocument("getMore", new BsonInt64(8_800_000_002L))
                .append("collection", new BsonDocument("name", planted.string())).append("batchSize", planted.string())
                .append("$db", DB)).reply(replies.cursor("shop.users", "nextBatch")));
        cases.add(new Case("typedMetadata.distinct", new BsonDocument("distinct", new BsonString("users"))
                .append("key", new BsonDocument("k", planted.string())).append("query", data.filter()).append("$db", DB))
                .reply(replies.distinct()));
        cases.add(new Case("typedMetadata.firstField", new BsonDocument("find", new BsonDocument("coll", planted.string()))
                .append("$db", DB)).reply(replies.cursor("shop.users", "firstBatch")).firstIsNotCollection());
        List<BsonDocument> documents = new ArrayList<>();
        documents.add(data.insertDocument());
        cases.add(new Case("typedMetadata.insert", new BsonDocument("insert", new BsonString("users"))
                .append("ordered", planted.string()).append("writeConcern", new BsonDocument("w", new BsonString("majority"))
                        .append("note", planted.string()).append("wtimeout", planted.string()))
                .append("lsid", new BsonDocument("id", planted.string())).append("$db", DB), "documents", documents, null, null)
                .reply(replies.write()));
        return cases;
    }

    private Case find() {
        BsonDocument command = new BsonDocument("find", new BsonString("users")).append("filter", data.filter())
                .append("projection", data.projection()).append("sort", new BsonDocument(data.keyOrDataKey(), new BsonInt32(-1)))
                .append("hint", planted.chance(50) ? planted.string() : new BsonDocument("email", new BsonInt32(1)))
                .append("skip", new BsonInt32(2)).append("limit", new BsonInt32(10)).append("batchSize", new BsonInt32(2))
                .append("comment", planted.scalar()).append("let", data.let())
                .append("collation", new BsonDocument("locale", planted.string()).append("strength", new BsonInt32(2)))
                .append("min", new BsonDocument("email", planted.scalar())).append("max", new BsonDocument("email",
                        planted.scalar())).append("maxTimeMS", new BsonInt32(500)).append("$db", DB);
        return new Case("find", command).reply(replies.cursor("shop.users", "firstBatch"))
                .failure(failures.make(planted.pick(Failures.KINDS)));
    }

    private Case getMore() {
        BsonDocument command = new BsonDocument("getMore", new BsonInt64(8_800_000_001L)).append("collection",
                new BsonString("users")).append("batchSize", new BsonInt32(2)).append("comment", planted.scalar())
                .append("$db", DB);
        return new Case("getMore", command).reply(replies.cursor("shop.users", "nextBatch"))
                .failure(failures.make(planted.chance(50) ? "cursorNotFound" : "executionTimeout"));
    }

    private Case insert() {
        List<BsonDocument> documents = new ArrayList<>();
        int n = 1 + planted.nextInt(3);
        for (int i = 0; i < n; i++) {
            BsonDocument document = data.insertDocument();
            // keys that look like stages are valid below the top level of a stored document
            document.append("meta", data.dollarDocument());
            documents.add(document);
        }
        BsonDocument top = new BsonDocument("insert", new BsonString("users")).append("ordered", BsonBoolean.TRUE)
                .append("comment", planted.scalar()).append("$db", DB);
        return new Case("insert", top, "documents", documents, null, null).reply(replies.write())
                .failure(failures.make(planted.pick(new String[]{"write", "bulkWrite", "writeConcern"})));
    }

    private Case update() {
        List<BsonDocument> updates = new ArrayList<>();
        int n = 1 + planted.nextInt(3);
        for (int i = 0; i < n; i++) {
            BsonValue u = planted.chance(40) ? data.updatePipeline() : planted.chance(30) ? data.insertDocument()
                    : data.update();
            BsonDocument statement = new BsonDocument("q", data.filter()).append("u", u)
                    .append("upsert", BsonBoolean.valueOf(planted.chance(50))).append("multi", BsonBoolean.FALSE);
            if (u.isDocument() && u.asDocument().containsKey("$set")) {
                statement.append("arrayFilters", data.arrayFilters());
            }
            statement.append("hint", new BsonDocument("email", new BsonInt32(1)))
                    .append("collation", new BsonDocument("locale", new BsonString("en")));
            updates.add(statement);
        }
        BsonDocument top = new BsonDocument("update", new BsonString("users")).append("ordered", BsonBoolean.FALSE)
                .append("let", data.let()).append("$db", DB);
        return new Case("update", top, "updates", updates, null, null).reply(replies.write())
                .failure(failures.make(planted.pick(new String[]{"bulkWrite", "writeConcern", "command"})));
    }

    private Case delete() {
        List<BsonDocument> deletes = new ArrayList<>();
        deletes.add(new BsonDocument("q", data.filter()).append("limit", new BsonInt32(0)));
        deletes.add(new BsonDocument("q", data.filter()).append("limit", new BsonInt32(1)).append("hint",
                new BsonString("email_1")));
        BsonDocument top = new BsonDocument("delete", new BsonString("users")).append("ordered", BsonBoolean.TRUE)
                .append("let", data.let()).append("comment", planted.scalar()).append("$db", DB);
        return new Case("delete", top, "deletes", deletes, null, null).reply(replies.write());
    }

    private Case findAndModify() {
        BsonDocument command = new BsonDocument("findAndModify", new BsonString("users")).append("query", data.filter())
                .append("sort", new BsonDocument("createdAt", new BsonInt32(1)))
                .append("update", planted.chance(50) ? data.update() : data.updatePipeline())
                .append("fields", data.projection()).append("new", BsonBoolean.TRUE).append("upsert", BsonBoolean.TRUE)
                .append("arrayFilters", data.arrayFilters()).append("let", data.let()).append("comment", planted.scalar())
                .append("$db", DB);
        return new Case("findAndModify", command).reply(replies.findAndModify()).failure(failures.command());
    }

    private Case count() {
        BsonDocument command = new BsonDocument("count", new BsonString("users")).append("query", data.filter())
                .append("limit", new BsonInt32(5)).append("skip", new BsonInt32(1)).append("hint", planted.string())
                .append("comment", planted.scalar()).append("$db", DB);
        return new Case("count", command).reply(Replies.ok(new BsonDocument("n", new BsonInt32(3))))
                .failure(failures.make("executionTimeout"));
    }

    private Case distinct() {
        BsonDocument command = new BsonDocument("distinct", new BsonString("users")).append("key", new BsonString("email"))
                .append("query", data.filter()).append("comment", planted.scalar()).append("$db", DB);
        return new Case("distinct", command).reply(replies.distinct()).failure(failures.command());
    }

    private Case aggregate(final String stage) {
        BsonDocument command = new BsonDocument("aggregate", new BsonString("users"))
                .append("pipeline", pipelines.pipeline(Pipelines.SERVER_STAGES, stage))
                .append("cursor", new BsonDocument("batchSize", new BsonInt32(2))).append("allowDiskUse", BsonBoolean.TRUE)
                .append("let", data.let()).append("comment", planted.scalar()).append("$db", DB);
        return new Case("aggregate." + stage, command).reply(replies.cursor("shop.users", "firstBatch"))
                .failure(failures.make(planted.pick(Failures.KINDS)));
    }

    /** The first statement of a transaction: session and transaction fields beside the values. */
    private Case transactionInsert() {
        BsonDocument top = new BsonDocument("insert", new BsonString("orders")).append("ordered", BsonBoolean.TRUE)
                .append("lsid", Sessions.lsid()).append("txnNumber", new BsonInt64(7)).append("startTransaction",
                        BsonBoolean.TRUE).append("autocommit", BsonBoolean.FALSE)
                .append("readConcern", new BsonDocument("level", new BsonString("snapshot"))).append("$db", DB);
        List<BsonDocument> documents = new ArrayList<>();
        documents.add(data.insertDocument());
        return new Case("transaction.insert", top, "documents", documents, null, null).reply(replies.write());
    }

    static BsonArray array(final BsonValue... values) {
        return new BsonArray(java.util.Arrays.asList(values));
    }
}
