package io.github.mongoredact.spec;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.List;
import java.util.stream.Collectors;

/** A unified test's {@code initialData}: each collection dropped, then created empty or filled, through the setup client. */
final class InitialData {
    private InitialData() {
    }

    static void load(final MongoClient setup, final BsonArray initialData) {
        for (BsonValue value : initialData) {
            BsonDocument data = value.asDocument();
            MongoDatabase database = setup.getDatabase(data.getString("databaseName").getValue());
            String collection = data.getString("collectionName").getValue();
            database.getCollection(collection).drop();
            List<BsonDocument> documents = data.getArray("documents").stream().map(BsonValue::asDocument)
                    .collect(Collectors.toList());
            if (documents.isEmpty()) {
                database.createCollection(collection);
            } else {
                database.getCollection(collection, BsonDocument.class).insertMany(documents);
            }
        }
    }
}
