package io.github.mongoredact.demo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoServerException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Accumulators;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.Document;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Locale;

/**
 * The demo's workload: a customers collection with names, e-mail addresses and card numbers, written and read the way an
 * application does, including the failures a log must not leak from.
 */
final class Workload {
    static final String DATABASE = "mongo_redact_demo";
    static final String COLLECTION = "customers";
    static final int CUSTOMERS = 1000;

    /** Planted in a saslStart payload; the specification's redaction removes the whole command. */
    static final String SASL_PAYLOAD = "n,,n=demo-admin,r=rOprNGfwEbeRWgbNEkqO-demo-nonce";
    /** Planted as the password of a createUser. */
    static final String PASSWORD = "Tr0ub4dor&3-demo-password";

    static final String[] FIRST_NAMES = {
            "Alice", "Bruno", "Chiara", "Dmitri", "Esther", "Farid", "Greta", "Hiroshi", "Ingrid", "Joaquim",
            "Kalinda", "Lorenzo", "Mireille", "Nnamdi", "Oksana", "Pradeep", "Quentin", "Rosalind", "Siobhan", "Tomasz",
    };
    static final String[] LAST_NAMES = {
            "Abernathy", "Bergstrom", "Castellanos", "Dubois", "Eriksen", "Fontaine", "Gallagher", "Hoffmann", "Iwasaki",
            "Jankowski", "Kowalczyk", "Lindqvist", "Moreau", "Nakamura", "Okonkwo", "Petrovic", "Quintero", "Rasmussen",
            "Santangelo", "Thorsen",
    };
    private static final String[] CITIES = {"Lyon", "Porto", "Gdansk", "Leeds", "Turku"};

    private final MongoClient client;
    private final PrintStream out;

    Workload(final MongoClient client, final PrintStream out) {
        this.client = client;
        this.out = out;
    }

    /** The full name of customer i. */
    static String name(final int i) {
        return FIRST_NAMES[i % FIRST_NAMES.length] + " " + LAST_NAMES[(i / FIRST_NAMES.length) % LAST_NAMES.length];
    }

    /** The e-mail address of customer i: unique. */
    static String email(final int i) {
        String[] parts = name(i).toLowerCase(Locale.ROOT).split(" ");
        return parts[0] + "." + parts[1] + "." + i + "@example.com";
    }

    /** The card number of customer i: unique, 16 digits in groups of four. */
    static String cardNumber(final int i) {
        return String.format(Locale.ROOT, "4929-%04d-%04d-%04d", 1000 + (i * 7919) % 9000, 1000 + (i * 104729) % 9000,
                i);
    }

    static Document customer(final int i) {
        return new Document("customerId", i)
                .append("name", name(i))
                .append("email", email(i))
                .append("card", new Document("number", cardNumber(i)).append("expires", String.format(Locale.ROOT,
                        "%02d/%02d", 1 + i % 12, 27 + i % 4)))
                .append("address", new Document("city", CITIES[i % CITIES.length]).append("street", (i % 90 + 1)
                        + " " + LAST_NAMES[(i * 3) % LAST_NAMES.length] + " Street"))
                .append("status", i % 4 == 0 ? "inactive" : "active")
                .append("balance", (i * 37) % 5000 / 10.0)
                .append("createdAt", new Date(1_700_000_000_000L + i * 86_400_000L));
    }

    /**
     * Runs the workload. Expected failures are caught and reported; anything else propagates.
     */
    void run() {
        MongoDatabase database = client.getDatabase(DATABASE);
        database.drop();
        MongoCollection<Document> customers = database.getCollection(COLLECTION);

        step("create a unique index on email");
        customers.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true));

        step("insertMany of " + CUSTOMERS + " customers (one insert command with a document sequence)");
        List<Document> documents = new ArrayList<>(CUSTOMERS);
        for (int i = 0; i < CUSTOMERS; i++) {
            documents.add(customer(i));
        }
        customers.insertMany(documents);

        step("finds filtered on e-mail");
        int found = 0;
        for (int i : new int[]{7, 123, 512, 999}) {
            if (customers.find(Filters.eq("email", email(i))).first() != null) {
                found++;
            }
        }
        if (found != 4) {
            throw new IllegalStateException("expected 4 customers by e-mail, found " + found);
        }
        customers.find(Filters.in("email", Arrays.asList(email(1), email(2), email(3)))).projection(
                new Document("name", 1).append("email", 1)).into(new ArrayList<>());

        step("find on a city, 150 results in batches of 100 (find, then getMore)");
        int inLyon = 0;
        try (MongoCursor<Document> cursor = customers.find(Filters.and(Filters.eq("address.city", "Lyon"),
                Filters.gte("customerId", 250))).sort(Sorts.ascending("customerId")).batchSize(100).iterator()) {
            while (cursor.hasNext()) {
                cursor.next();
                inLyon++;
            }
        }

        step("an update");
        customers.updateOne(Filters.eq("email", email(42)), Updates.combine(Updates.set("name", "Alice Replaced-Name"),
                Updates.set("card.number", "4929-0000-1111-2222")));

        step("a delete");
        customers.deleteOne(Filters.eq("email", email(43)));

        step("an aggregation");
        List<Document> byCity = customers.aggregate(Arrays.asList(
                Aggregates.match(Filters.and(Filters.eq("status", "active"), Filters.regex("email", "@example\\.com$"))),
                Aggregates.group("$address.city", Accumulators.sum("customers", 1), Accumulators.avg("balance", "$balance")),
                Aggregates.sort(Sorts.ascending("_id")))).into(new ArrayList<>());

        step("count");
        long count = customers.countDocuments(Filters.eq("status", "active"));

        step("a duplicate key on insert (this server reports it as a write error inside an ok: 1 reply)");
        try {
            customers.insertOne(customer(7).append("customerId", 7007));
            throw new IllegalStateException("the duplicate insert was accepted");
        } catch (MongoWriteException e) {
            expected("insertOne", e);
        }

        step("a duplicate key on findOneAndUpdate (a failed command)");
        try {
            customers.findOneAndUpdate(Filters.eq("email", email(8)), Updates.set("email", email(9)));
            throw new IllegalStateException("the duplicate update was accepted");
        } catch (MongoServerException e) {
            expected("findOneAndUpdate", e);
        }

        step("createUser and saslStart through runCommand (the specification redacts both)");
        try {
            database.runCommand(new BsonDocument("createUser", new BsonString("demo-admin"))
                    .append("pwd", new BsonString(PASSWORD))
                    .append("roles", new BsonArray(Arrays.asList(new BsonDocument("role",
                            new BsonString("no-such-role-mongo-redact-demo")).append("db", new BsonString(DATABASE))))));
            out.println("  createUser succeeded");
        } catch (MongoCommandException e) {
            expected("createUser", e);
        }
        try {
            client.getDatabase("admin").runCommand(new BsonDocument("saslStart", new BsonInt32(1))
                    .append("mechanism", new BsonString("SCRAM-SHA-256"))
                    .append("payload", new BsonBinary(SASL_PAYLOAD.getBytes(StandardCharsets.UTF_8)))
                    .append("autoAuthorize", new BsonInt32(1)));
            out.println("  saslStart succeeded");
        } catch (MongoCommandException e) {
            expected("saslStart", e);
        }

        step("drop the demo database");
        database.drop();
        out.println();
        out.println("Workload done: " + CUSTOMERS + " customers inserted, " + inLyon + " read by city, " + byCity.size()
                + " cities aggregated, " + count + " active counted.");
    }

    private void step(final String what) {
        out.println("# " + what);
        out.flush();
    }

    /** Reports an expected failure by its code only: the server's message quotes the values. */
    private void expected(final String operation, final MongoServerException e) {
        out.println("  " + operation + " failed as expected: " + e.getClass().getSimpleName() + " code " + e.getCode()
                + (e.getErrorCodeName() == null ? "" : " (" + e.getErrorCodeName() + ")"));
        out.flush();
    }
}
