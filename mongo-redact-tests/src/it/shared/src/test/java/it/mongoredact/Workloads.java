package it.mongoredact;

import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Updates;
import org.bson.Document;
import reactor.core.publisher.Mono;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The same seven commands on the sync and the reactive client, with values planted in filters, documents and updates. */
final class Workloads {
    /** Values that must never leave through the library. */
    static final String PLANTED_EMAIL = "planted-7f3a@example.invalid";
    static final String PLANTED_NAME = "Planted-Name-91c2";

    /** createIndexes, insert, insert (duplicate key), find, update, aggregate (count), delete. */
    static final int COMMANDS = 7;

    private Workloads() {
    }

    /** Runs the workload; returns the message of the exception the application got for the duplicate key. */
    static String sync(final com.mongodb.client.MongoClient client) {
        MongoCollection<Document> users = client.getDatabase("test").getCollection("users");
        users.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true));
        users.insertOne(new Document("email", PLANTED_EMAIL).append("name", "Ada"));
        MongoWriteException duplicate = assertThrows(MongoWriteException.class,
                () -> users.insertOne(new Document("email", PLANTED_EMAIL)));
        assertNotNull(users.find(Filters.eq("email", PLANTED_EMAIL)).first());
        users.updateOne(Filters.eq("email", PLANTED_EMAIL), Updates.set("name", PLANTED_NAME));
        assertEquals(1, users.countDocuments(Filters.eq("email", PLANTED_EMAIL)));
        users.deleteOne(Filters.eq("email", PLANTED_EMAIL));
        return duplicate.getMessage();
    }

    static String reactive(final com.mongodb.reactivestreams.client.MongoClient client) {
        com.mongodb.reactivestreams.client.MongoCollection<Document> users =
                client.getDatabase("test").getCollection("users");
        Mono.from(users.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true))).block();
        Mono.from(users.insertOne(new Document("email", PLANTED_EMAIL).append("name", "Ada"))).block();
        MongoWriteException duplicate = assertThrows(MongoWriteException.class,
                () -> Mono.from(users.insertOne(new Document("email", PLANTED_EMAIL))).block());
        assertNotNull(Mono.from(users.find(Filters.eq("email", PLANTED_EMAIL)).first()).block());
        Mono.from(users.updateOne(Filters.eq("email", PLANTED_EMAIL), Updates.set("name", PLANTED_NAME))).block();
        assertEquals(1L, Mono.from(users.countDocuments(Filters.eq("email", PLANTED_EMAIL))).block());
        Mono.from(users.deleteOne(Filters.eq("email", PLANTED_EMAIL))).block();
        return duplicate.getMessage();
    }
}
