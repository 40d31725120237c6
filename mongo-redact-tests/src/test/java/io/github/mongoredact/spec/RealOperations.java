package io.github.mongoredact.spec;

import com.mongodb.MongoServerException;
import com.mongodb.client.FindIterable;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.DeleteOneModel;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.UpdateManyModel;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.WriteModel;
import com.mongodb.lang.Nullable;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a test's operations through the real driver, checking {@code expectError} and {@code expectResult}. Only the operations
 * and arguments the command logging and monitoring tests use; anything else is a failure of the test, never a skip.
 */
final class RealOperations {
    private static final long WAIT_MILLIS = 10_000;
    private final Entities entities;
    private final List<Mismatch> out;

    RealOperations(final Entities entities, final List<Mismatch> out) {
        this.entities = entities;
        this.out = out;
    }

    void runAll(final BsonArray operations) {
        for (int i = 0; i < operations.size(); i++) {
            BsonDocument operation = operations.get(i).asDocument();
            String where = "operations[" + i + "] " + operation.getString("name").getValue();
            Object result;
            try {
                result = run(operation);
            } catch (RuntimeException e) {
                if (!operation.containsKey("expectError")) {
                    out.add(Mismatch.other(where + ": unexpected error " + e));
                } else {
                    checkError(operation.getDocument("expectError"), e, where);
                }
                continue;
            }
            if (operation.containsKey("expectError")) {
                out.add(Mismatch.other(where + ": expected an error, got " + result));
            } else if (operation.containsKey("expectResult")) {
                BsonValue expected = operation.get("expectResult");
                Matcher.matchValue(expected, (BsonValue) result, where + " result", !expected.isArray(), out);
            }
        }
    }

    private void checkError(final BsonDocument expectError, final RuntimeException e, final String where) {
        if (expectError.containsKey("isClientError")) {
            boolean client = !(e instanceof MongoServerException);
            if (client != expectError.getBoolean("isClientError").getValue()) {
                out.add(Mismatch.other(where + ": expected isClientError=" + expectError.get("isClientError") + " got " + e));
            }
        }
    }

    @Nullable
    private Object run(final BsonDocument operation) {
        String name = operation.getString("name").getValue();
        String object = operation.getString("object").getValue();
        BsonDocument arguments = operation.getDocument("arguments", new BsonDocument());
        if (object.equals("testRunner")) {
            return runTestRunner(name, arguments);
        }
        if (name.equals("runCommand")) {
            return entities.database(object).runCommand(arguments.getDocument("command"), BsonDocument.class);
        }
        MongoCollection<BsonDocument> collection = entities.collection(object);
        switch (name) {
            case "insertOne":
                return collection.insertOne(arguments.getDocument("document"));
            case "insertMany":
                List<BsonDocument> documents = new ArrayList<>();
                for (BsonValue document : arguments.getArray("documents")) {
                    documents.add(document.asDocument());
                }
                return collection.insertMany(documents, new InsertManyOptions()
                        .ordered(arguments.getBoolean("ordered", org.bson.BsonBoolean.TRUE).getValue()));
            case "find":
                return find(collection, arguments);
            case "updateOne":
                return update(collection, arguments, false);
            case "updateMany":
                return update(collection, arguments, true);
            case "deleteOne":
                return collection.deleteOne(arguments.getDocument("filter"));
            case "deleteMany":
                return collection.deleteMany(arguments.getDocument("filter"));
            case "bulkWrite":
                return bulkWrite(collection, arguments);
            default:
                throw new UnsupportedOperationException("the runner does not support the operation " + name);
        }
    }

    private BsonArray find(final MongoCollection<BsonDocument> collection, final BsonDocument arguments) {
        FindIterable<BsonDocument> find = collection.find(arguments.getDocument("filter"));
        for (String key : arguments.keySet()) {
            BsonValue value = arguments.get(key);
            switch (key) {
                case "filter":
                    break;
                case "sort":
                    find.sort(value.asDocument());
                    break;
                case "projection":
                    find.projection(value.asDocument());
                    break;
                case "skip":
                    find.skip(value.asNumber().intValue());
                    break;
                case "limit":
                    find.limit(value.asNumber().intValue());
                    break;
                case "batchSize":
                    find.batchSize(value.asNumber().intValue());
                    break;
                case "comment":
                    find.comment(value.asString().getValue());
                    break;
                case "hint":
                    find.hint(value.asDocument());
                    break;
                case "max":
                    find.max(value.asDocument());
                    break;
                case "min":
                    find.min(value.asDocument());
                    break;
                case "maxTimeMS":
                    find.maxTime(value.asNumber().longValue(), TimeUnit.MILLISECONDS);
                    break;
                case "showRecordId":
                    find.showRecordId(value.asBoolean().getValue());
                    break;
                case "returnKey":
                    find.returnKey(value.asBoolean().getValue());
                    break;
                default:
                    throw new UnsupportedOperationException("the runner does not support the find option " + key);
            }
        }
        return new BsonArray(find.into(new ArrayList<>()));
    }

    private Object update(final MongoCollection<BsonDocument> collection, final BsonDocument arguments, final boolean many) {
        UpdateOptions options = new UpdateOptions().upsert(arguments.getBoolean("upsert", org.bson.BsonBoolean.FALSE)
                .getValue());
        BsonDocument filter = arguments.getDocument("filter");
        BsonValue update = arguments.get("update");
        if (update.isArray()) {
            List<BsonDocument> pipeline = pipeline(update.asArray());
            return many ? collection.updateMany(filter, pipeline, options) : collection.updateOne(filter, pipeline, options);
        }
        return many ? collection.updateMany(filter, update.asDocument(), options)
                : collection.updateOne(filter, update.asDocument(), options);
    }

    private Object bulkWrite(final MongoCollection<BsonDocument> collection, final BsonDocument arguments) {
        List<WriteModel<BsonDocument>> models = new ArrayList<>();
        for (BsonValue request : arguments.getArray("requests")) {
            String type = request.asDocument().getFirstKey();
            BsonDocument model = request.asDocument().getDocument(type);
            switch (type) {
                case "insertOne":
                    models.add(new InsertOneModel<>(model.getDocument("document")));
                    break;
                case "updateOne":
                case "updateMany":
                    BsonValue update = model.get("update");
                    BsonDocument filter = model.getDocument("filter");
                    boolean one = type.equals("updateOne");
                    models.add(update.isArray()
                            ? (one ? new UpdateOneModel<>(filter, pipeline(update.asArray()))
                            : new UpdateManyModel<>(filter, pipeline(update.asArray())))
                            : (one ? new UpdateOneModel<>(filter, update.asDocument())
                            : new UpdateManyModel<>(filter, update.asDocument())));
                    break;
                case "deleteOne":
                    models.add(new DeleteOneModel<>(model.getDocument("filter")));
                    break;
                default:
                    throw new UnsupportedOperationException("the runner does not support the bulk write request " + type);
            }
        }
        return collection.bulkWrite(models, new BulkWriteOptions()
                .ordered(arguments.getBoolean("ordered", org.bson.BsonBoolean.TRUE).getValue()));
    }

    private static List<BsonDocument> pipeline(final BsonArray stages) {
        List<BsonDocument> pipeline = new ArrayList<>();
        for (BsonValue stage : stages) {
            pipeline.add(stage.asDocument());
        }
        return pipeline;
    }

    @Nullable
    private Object runTestRunner(final String name, final BsonDocument arguments) {
        switch (name) {
            case "createEntities":
                entities.create(arguments.getArray("entities"));
                return null;
            case "waitForEvent":
                waitForEvent(arguments);
                return null;
            default:
                throw new UnsupportedOperationException("the runner can not run the test runner operation " + name
                        + " against the embedded server");
        }
    }

    private void waitForEvent(final BsonDocument arguments) {
        Entities.Client client = entities.clients.get(arguments.getString("client").getValue());
        String event = arguments.getDocument("event").getFirstKey();
        int count = arguments.getNumber("count").intValue();
        if (!client.observes(event) || !client.otherEvents.containsKey(event)) {
            throw new UnsupportedOperationException("the client does not observe " + event);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (client.otherEvents.get(event).get() < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("waitForEvent: " + event + " did not reach " + count);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
