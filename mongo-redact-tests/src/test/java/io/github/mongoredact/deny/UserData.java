package io.github.mongoredact.deny;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * Random user data of realistic shapes with a planted value in every value position: documents whose keys include the names
 * of server and command metadata ({@code errmsg}, {@code keyPattern}, {@code n}, {@code ok}, {@code cursor}...), filters,
 * updates, projections, and documents whose keys look like pipeline stages (valid only inside {@code $literal} or in documents
 * the driver does not check).
 */
final class UserData {
    /** Keys of user documents: ordinary ones and the names of fields the server and the commands use. */
    static final String[] KEYS = {"email", "name", "card", "ssn", "note", "amount", "tags", "createdAt", "errmsg",
            "keyPattern", "keyValue", "code", "codeName", "n", "ok", "ns", "id", "index", "limit", "sort", "hint", "cursor",
            "batchSize", "comment", "writeErrors", "firstBatch", "value", "values", "collection", "lsid", "$db"};
    /** Keys that look like stages or command options: user data inside literals and unchecked documents. */
    static final String[] DOLLAR_KEYS = {"$limit", "$skip", "$sort", "$count", "$out", "$unwind", "$sample", "$lookup",
            "$merge", "$unionWith", "$graphLookup", "$clusterTime", "$db", "$readPreference"};

    private final Planted planted;

    UserData(final Planted planted) {
        this.planted = planted;
    }

    Planted planted() {
        return planted;
    }

    String key() {
        String key = planted.pick(KEYS);
        return key.startsWith("$") ? "email" : key;
    }

    /** A key, now and then one that is data (an e-mail address, a date, an id...) or a path through one. */
    String keyOrDataKey() {
        int roll = planted.nextInt(100);
        if (roll < 10) {
            return planted.dataKey();
        }
        return roll < 15 ? "prefs." + planted.dataKey() : key();
    }

    /** A document of 1 to 4 fields, nested up to {@code depth}; some keys are data. */
    BsonDocument document(final int depth) {
        BsonDocument document = new BsonDocument();
        int fields = 1 + planted.nextInt(4);
        for (int i = 0; i < fields; i++) {
            String key = planted.chance(12) ? planted.dataKey() : key();
            document.put(key, value(depth));
        }
        return document;
    }

    BsonValue value(final int depth) {
        int roll = planted.nextInt(100);
        if (depth > 0 && roll < 15) {
            return document(depth - 1);
        }
        if (roll < 25) {
            BsonArray array = new BsonArray();
            int n = 1 + planted.nextInt(3);
            for (int i = 0; i < n; i++) {
                array.add(depth > 0 && planted.chance(30) ? document(depth - 1) : planted.scalar());
            }
            return array;
        }
        return planted.scalar();
    }

    /** A document to insert: a planted {@code _id} and nested fields. */
    BsonDocument insertDocument() {
        BsonValue id = planted.chance(50) ? planted.objectId() : planted.chance(50) ? planted.string() : planted.int64();
        BsonDocument document = new BsonDocument("_id", id);
        document.putAll(document(2));
        return document;
    }

    /** A document whose keys look like stages and metadata: only valid inside {@code $literal} or unchecked documents. */
    BsonDocument dollarDocument() {
        BsonDocument document = new BsonDocument();
        int fields = 1 + planted.nextInt(3);
        for (int i = 0; i < fields; i++) {
            String key = planted.pick(DOLLAR_KEYS);
            document.put(key, planted.chance(30) ? new BsonDocument(planted.pick(new String[]{"from", "into", "coll",
                    "as", "on", "path"}), planted.string()) : planted.scalar());
        }
        document.put("errmsg", planted.string());
        return document;
    }

    /** A query filter. */
    BsonDocument filter() {
        String key = keyOrDataKey();
        switch (planted.nextInt(7)) {
            case 0:
                return new BsonDocument(key, planted.scalar());
            case 1:
                return new BsonDocument(key, new BsonDocument(planted.pick(new String[]{"$eq", "$gt", "$lte", "$ne"}),
                        planted.scalar()));
            case 2:
                return new BsonDocument(key, new BsonDocument("$in", new BsonArray(java.util.Arrays.asList(planted.scalar(),
                        planted.scalar()))));
            case 3:
                return new BsonDocument("$or", new BsonArray(java.util.Arrays.asList(
                        new BsonDocument(key(), planted.scalar()), new BsonDocument(key(), planted.scalar()))));
            case 4:
                return new BsonDocument(key, new BsonDocument("$regex", planted.string()).append("$options",
                        new BsonString("i")));
            case 5:
                return new BsonDocument(key, new BsonDocument("$elemMatch", new BsonDocument(key(), planted.scalar())));
            default:
                return new BsonDocument("$expr", new BsonDocument("$eq", new BsonArray(java.util.Arrays.asList(
                        new BsonString("$" + key), planted.scalar()))));
        }
    }

    /** A projection: inclusion flags, and numbers or operators that carry values. */
    BsonDocument projection() {
        BsonDocument projection = new BsonDocument(keyOrDataKey(), new BsonInt32(1));
        switch (planted.nextInt(4)) {
            case 0:
                projection.put("score", planted.number());
                break;
            case 1:
                projection.put("tags", new BsonDocument("$slice", planted.int32()));
                break;
            case 2:
                projection.put("items", new BsonDocument("$elemMatch", new BsonDocument(key(), planted.scalar())));
                break;
            default:
                projection.put("label", new BsonDocument("$literal", planted.string()));
                break;
        }
        return projection;
    }

    /** An update document with operators. */
    BsonDocument update() {
        BsonDocument update = new BsonDocument("$set", document(1));
        if (planted.chance(40)) {
            update.getDocument("$set").put("prefs." + planted.dataKey(), planted.scalar());
        }
        if (planted.chance(50)) {
            update.put("$inc", new BsonDocument(planted.chance(30) ? "stats." + planted.dataKey() + ".count" : "amount",
                    planted.number()));
        }
        if (planted.chance(20)) {
            update.put("$unset", new BsonDocument("sessions." + planted.dataKey(), new BsonString("")));
        }
        if (planted.chance(50)) {
            update.put("$push", new BsonDocument("tags", planted.scalar()));
        }
        if (planted.chance(30)) {
            update.put("$setOnInsert", new BsonDocument("createdAt", planted.date()));
        }
        return update;
    }

    /** An update pipeline: stages with values, including a literal with keys that look like stages. */
    BsonArray updatePipeline() {
        BsonArray pipeline = new BsonArray();
        pipeline.add(new BsonDocument("$set", new BsonDocument(key(), planted.scalar())
                .append("meta", new BsonDocument("$literal", dollarDocument()))));
        pipeline.add(new BsonDocument("$addFields", new BsonDocument("label", new BsonDocument("$concat",
                new BsonArray(java.util.Arrays.asList(planted.string(), new BsonString("$name")))))));
        return pipeline;
    }

    /** Array filters of an update. */
    BsonArray arrayFilters() {
        return new BsonArray(java.util.Collections.singletonList(new BsonDocument("elem." + key(),
                new BsonDocument("$gte", planted.scalar()))));
    }

    /** A {@code let} document: variables with values. */
    BsonDocument let() {
        return new BsonDocument("target", planted.scalar()).append("limit", planted.int64());
    }

    /** A collection validator: a {@code $jsonSchema} with patterns, bounds and enums, and query clauses. */
    BsonDocument validator() {
        BsonDocument properties = new BsonDocument("email", new BsonDocument("bsonType", new BsonString("string"))
                .append("pattern", planted.string()).append("description", planted.string()))
                .append("amount", new BsonDocument("bsonType", new BsonString("number")).append("minimum", planted.number()))
                .append("status", new BsonDocument("enum", CrudCases.array(planted.string(), planted.string())));
        return new BsonDocument("$jsonSchema", new BsonDocument("bsonType", new BsonString("object"))
                .append("required", CrudCases.array(new BsonString("email"))).append("properties", properties))
                .append("$or", CrudCases.array(filter(), filter()));
    }
}
