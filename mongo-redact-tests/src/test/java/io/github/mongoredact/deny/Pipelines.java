package io.github.mongoredact.deny;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.Arrays;

/**
 * Aggregation stages with a planted value in every value position. {@link #stage(String)} makes one stage by name;
 * {@link #SERVER_STAGES} are those the embedded server runs, the others go out as constructed events.
 */
final class Pipelines {
    static final String[] SERVER_STAGES = {"$match", "$project", "$addFields", "$set", "$group", "$lookup", "$unionWith",
            "$facet", "$replaceRoot", "$bucket"};
    static final String[] ALL_STAGES = {"$match", "$project", "$addFields", "$set", "$group", "$lookup", "$unionWith",
            "$facet", "$replaceRoot", "$bucket", "$merge", "$search", "$vectorSearch", "$documents"};

    private final UserData data;
    private final Planted planted;

    Pipelines(final UserData data) {
        this.data = data;
        this.planted = data.planted();
    }

    /** A pipeline of 1 to 3 stages drawn from {@code names}, then {@code last} if not null. */
    BsonArray pipeline(final String[] names, final String last) {
        BsonArray pipeline = new BsonArray();
        int n = 1 + planted.nextInt(3);
        for (int i = 0; i < n; i++) {
            pipeline.add(stage(planted.pick(names)));
        }
        if (last != null) {
            pipeline.add(stage(last));
        }
        return pipeline;
    }

    BsonDocument stage(final String name) {
        return new BsonDocument(name, argument(name));
    }

    private BsonValue argument(final String name) {
        switch (name) {
            case "$match":
                return data.filter();
            case "$project":
                return data.projection().append("display", new BsonDocument("$concat", new BsonArray(Arrays.asList(
                        planted.string(), new BsonString("$name")))));
            case "$addFields":
            case "$set":
                return new BsonDocument(data.key(), planted.scalar()).append("meta", new BsonDocument("$literal",
                        data.dollarDocument()));
            case "$group":
                return new BsonDocument("_id", new BsonString("$email")).append("total", new BsonDocument("$sum",
                        planted.number())).append("first", new BsonDocument("$first", new BsonDocument("$literal",
                        planted.scalar())));
            case "$lookup":
                return new BsonDocument("from", new BsonString("orders")).append("let", new BsonDocument("who",
                        planted.scalar())).append("pipeline", new BsonArray(Arrays.asList(stage("$match"))))
                        .append("as", new BsonString("orders"));
            case "$unionWith":
                return new BsonDocument("coll", new BsonString("archive")).append("pipeline",
                        new BsonArray(Arrays.asList(stage("$match"), stage("$set"))));
            case "$facet":
                return new BsonDocument("byEmail", new BsonArray(Arrays.asList(stage("$match"))))
                        .append("labelled", new BsonArray(Arrays.asList(stage("$addFields"))));
            case "$replaceRoot":
                return new BsonDocument("newRoot", new BsonDocument("$mergeObjects", new BsonArray(Arrays.asList(
                        new BsonString("$$ROOT"), new BsonDocument(data.key(), planted.scalar())))));
            case "$bucket":
                return new BsonDocument("groupBy", new BsonString("$amount")).append("boundaries", new BsonArray(
                        Arrays.asList(new BsonInt32(0), planted.int32()))).append("default", planted.string())
                        .append("output", new BsonDocument("count", new BsonDocument("$sum", new BsonInt32(1))));
            case "$merge":
                return merge();
            case "$search":
                return search();
            case "$vectorSearch":
                return new BsonDocument("index", new BsonString("vectors")).append("path", new BsonString("embedding"))
                        .append("queryVector", new BsonArray(Arrays.asList(planted.dbl(), planted.dbl(), planted.dbl())))
                        .append("numCandidates", new BsonInt32(100)).append("limit", new BsonInt32(5))
                        .append("filter", data.filter());
            case "$documents":
                return new BsonArray(Arrays.asList(data.document(1), data.dollarDocument()));
            default:
                throw new IllegalArgumentException("stage " + name);
        }
    }

    private BsonDocument search() {
        BsonDocument text = new BsonDocument("text", new BsonDocument("query", planted.string())
                .append("path", new BsonString("name")));
        BsonDocument equals = new BsonDocument("equals", new BsonDocument("path", new BsonString("tenant"))
                .append("value", planted.objectId()));
        BsonDocument range = new BsonDocument("range", new BsonDocument("path", new BsonString("createdAt"))
                .append("gte", planted.date()));
        BsonDocument compound = new BsonDocument("must", new BsonArray(Arrays.asList(text)))
                .append("filter", new BsonArray(Arrays.asList(equals, range)));
        return new BsonDocument("index", new BsonString("default")).append("compound", compound);
    }

    private BsonDocument merge() {
        BsonDocument merge = new BsonDocument("into", new BsonString("reviewed")).append("on", new BsonString("_id"))
                .append("let", new BsonDocument("approver", planted.string()));
        if (planted.chance(70)) {
            merge.append("whenMatched", new BsonArray(Arrays.asList(new BsonDocument("$set", new BsonDocument(
                    "approvedBy", planted.string()).append("approvedAt", planted.date())))));
        } else {
            merge.append("whenMatched", new BsonString("merge"));
        }
        return merge.append("whenNotMatched", new BsonString("insert"));
    }
}
