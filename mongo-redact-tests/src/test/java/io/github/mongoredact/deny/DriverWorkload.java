package io.github.mongoredact.deny;

import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Collation;
import com.mongodb.client.model.CreateCollectionOptions;
import com.mongodb.client.model.DeleteOneModel;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.ValidationOptions;
import com.mongodb.client.model.WriteModel;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The families the embedded server runs, sent through the real driver so that every command has exactly the driver's shape
 * (document sequences for insert, update and delete): indexes with options, inserts, finds with every option and a cursor
 * read over several batches, updates with documents, pipelines and array filters, bulk writes, deletes, findAndModify
 * (found value, duplicate key, immutable {@code _id}), counts, distinct, aggregations per stage, a validated collection.
 * Server failures are expected and are part of what is checked.
 */
final class DriverWorkload {
    private final UserData data;
    private final Planted planted;
    private final Pipelines pipelines;
    private int failures;

    DriverWorkload(final UserData data, final Pipelines pipelines) {
        this.data = data;
        this.planted = data.planted();
        this.pipelines = pipelines;
    }

    /** @return how many operations the server or the driver refused */
    int run(final MongoClient client) {
        MongoDatabase db = client.getDatabase("shop");
        MongoCollection<BsonDocument> users = db.getCollection("users", BsonDocument.class);
        indexes(users);
        List<BsonDocument> stored = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            stored.add(data.insertDocument().append("email", planted.string()));
        }
        attempt(() -> users.insertMany(stored));
        BsonDocument duplicate = data.insertDocument().append("email", stored.get(0).get("email"));
        attempt(() -> users.insertOne(duplicate));
        finds(users);
        updates(users, stored);
        attempt(() -> users.countDocuments(data.filter()));
        attempt(users::estimatedDocumentCount);
        attempt(() -> db.runCommand(new BsonDocument("count", new BsonString("users")).append("query", data.filter())));
        attempt(() -> users.distinct("email", BsonValue.class).into(new ArrayList<>()));
        attempt(() -> users.distinct("email", data.filter(), BsonValue.class).into(new ArrayList<>()));
        for (String stage : Pipelines.SERVER_STAGES) {
            List<BsonDocument> pipeline = toList(pipelines.pipeline(Pipelines.SERVER_STAGES, stage));
            attempt(() -> users.aggregate(pipeline).let(data.let()).comment(planted.scalar()).batchSize(2)
                    .into(new ArrayList<>()));
        }
        attempt(() -> users.aggregate(Arrays.asList(new BsonDocument("$addFields", new BsonDocument("label",
                planted.string())))).batchSize(3).into(new ArrayList<>()));
        attempt(() -> db.createCollection("validated", new CreateCollectionOptions().validationOptions(
                new ValidationOptions().validator(data.validator()))));
        attempt(() -> db.getCollection("validated", BsonDocument.class).insertOne(data.insertDocument()));
        attempt(() -> users.deleteMany(data.filter()));
        attempt(() -> users.findOneAndDelete(data.filter()));
        return failures;
    }

    private void indexes(final MongoCollection<BsonDocument> users) {
        attempt(() -> users.createIndex(new BsonDocument("email", new BsonInt32(1)), new IndexOptions().unique(true)
                .name("email_1")));
        attempt(() -> users.createIndex(new BsonDocument("name", new BsonInt32(1)), new IndexOptions()
                .name(planted.text()).partialFilterExpression(data.filter())
                .collation(Collation.builder().locale(planted.text()).build())));
        attempt(() -> users.createIndex(new BsonDocument("note", new BsonString("text")), new IndexOptions()
                .weights(new BsonDocument("note", planted.int32())).defaultLanguage(planted.text())));
        attempt(() -> users.createIndex(new BsonDocument("$**", new BsonInt32(1)), new IndexOptions()
                .wildcardProjection(new BsonDocument("email", new BsonInt32(1)).append("score", planted.number()))));
    }

    private void finds(final MongoCollection<BsonDocument> users) {
        attempt(() -> users.find(data.filter()).projection(data.projection()).sort(new BsonDocument("email",
                new BsonInt32(1))).hintString(planted.text()).comment(planted.scalar()).let(data.let()).batchSize(2)
                .into(new ArrayList<>()));
        attempt(() -> users.find(data.filter()).projection(data.projection()).into(new ArrayList<>()));
        // the stored documents come back over a first batch and several next batches
        attempt(() -> users.find().batchSize(3).into(new ArrayList<>()));
        // an invalid pattern: the server's message quotes it
        attempt(() -> users.find(new BsonDocument("email", new BsonDocument("$regex", new BsonString(planted.text()
                + "((")))).into(new ArrayList<>()));
    }

    private void updates(final MongoCollection<BsonDocument> users, final List<BsonDocument> stored) {
        attempt(() -> users.updateOne(data.filter(), data.update(), new UpdateOptions().upsert(true)
                .arrayFilters(toList(data.arrayFilters()))));
        attempt(() -> users.updateMany(data.filter(), toList(data.updatePipeline())));
        attempt(() -> users.replaceOne(data.filter(), data.insertDocument()));
        List<WriteModel<BsonDocument>> models = new ArrayList<>();
        models.add(new InsertOneModel<>(data.insertDocument()));
        models.add(new UpdateOneModel<>(data.filter(), data.update(), new UpdateOptions().upsert(true)));
        models.add(new ReplaceOneModel<>(data.filter(), data.insertDocument()));
        models.add(new DeleteOneModel<>(data.filter()));
        models.add(new InsertOneModel<>(stored.get(1).clone()));
        attempt(() -> users.bulkWrite(models));
        FindOneAndUpdateOptions after = new FindOneAndUpdateOptions().projection(data.projection())
                .sort(new BsonDocument("email", new BsonInt32(-1))).returnDocument(ReturnDocument.AFTER);
        attempt(() -> users.findOneAndUpdate(new BsonDocument(), new BsonDocument("$set", new BsonDocument("note",
                planted.string())), after));
        // a duplicate key and an immutable _id: failed commands whose messages quote the values
        attempt(() -> users.findOneAndUpdate(new BsonDocument("_id", stored.get(2).get("_id")), new BsonDocument("$set",
                new BsonDocument("email", stored.get(3).get("email")))));
        attempt(() -> users.findOneAndUpdate(new BsonDocument("_id", stored.get(4).get("_id")), new BsonDocument("$set",
                new BsonDocument("_id", planted.int64()))));
        attempt(() -> users.findOneAndReplace(data.filter(), data.insertDocument()));
    }

    private static List<BsonDocument> toList(final BsonArray array) {
        List<BsonDocument> list = new ArrayList<>();
        for (BsonValue value : array) {
            list.add(value.asDocument());
        }
        return list;
    }

    private void attempt(final Runnable operation) {
        try {
            operation.run();
        } catch (MongoException | IllegalArgumentException e) {
            failures++;
        }
    }
}
