package io.github.mongoredact;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Collation;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.MergeOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Updates;
import org.bson.BsonDocument;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static io.github.mongoredact.EmbeddedServer.tolerate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Through the real driver and the embedded server under {@link RedactionPolicy#defaults()}: rules meant for server fields do
 * not match user documents, and the metadata that is kept carries no user values. Each test first checks that the driver's own
 * events do carry the planted values (so that it can fail), then that none of them leaves the listener.
 */
class ContextRulesRealDriverTest {

    /** The document of the report: server field names holding user values. */
    static Document serverNamedUserDocument() {
        return new Document("errmsg", "card 4111-1111-1111-1111 of alice@example.com declined")
                .append("keyPattern", new Document("ssn", "078-05-1120"))
                .append("meta", new Document("$limit", "bob@example.com").append("$skip", "skip@example.com")
                        .append("$sort", "sort@example.com").append("$count", "count@example.com")
                        .append("$out", "out@example.com").append("$unwind", "unwind@example.com")
                        .append("$sample", new Document("size", "sample@example.com"))
                        .append("$lookup", new Document("from", "lookup@example.com").append("as", "as@example.com"))
                        .append("$merge", new Document("into", "merge@example.com")
                                .append("whenMatched", "whenmatched@example.com")));
    }

    private static final String[] USER_DOCUMENT_SECRETS = {"4111-1111-1111-1111", "alice@example.com", "078-05-1120",
            "bob@example.com", "skip@example.com", "sort@example.com", "count@example.com", "out@example.com",
            "unwind@example.com", "sample@example.com", "lookup@example.com", "as@example.com", "merge@example.com",
            "whenmatched@example.com"};

    @Test
    void serverFieldNamesInsideInsertedDocumentsAndReplyBatchesAreRedacted() {
        KeepingListener kept = new KeepingListener();
        CloningListener reference = new CloningListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(kept).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(reference, listener);
            MongoCollection<Document> payments = client.getDatabase("shop").getCollection("payments");
            payments.insertOne(serverNamedUserDocument());
            payments.insertMany(List.of(serverNamedUserDocument(), serverNamedUserDocument()));
            assertEquals(3, payments.find().batchSize(2).into(new ArrayList<>()).size());
            payments.findOneAndUpdate(Filters.exists("errmsg"), Updates.set("x", 1));
            payments.replaceOne(Filters.exists("errmsg"), serverNamedUserDocument());
            payments.aggregate(List.of(Aggregates.match(Filters.exists("meta")))).into(new ArrayList<>());
        }
        assertEquals(0, listener.getCounters().getRedactionFailures());
        String driverSaw = reference.commands + " " + reference.replies;
        String forwarded = kept.json();
        for (String secret : USER_DOCUMENT_SECRETS) {
            assertTrue(driverSaw.contains(secret), "the driver's events hold " + secret);
            assertTrue(!forwarded.contains(secret), secret + " leaked: " + forwarded);
        }
        // the shape stays: the server-named keys of the user document are there, their values are placeholders
        BsonDocument batchDocument = kept.succeeded.stream().filter(e -> e.getCommandName().equals("find"))
                .findFirst().orElseThrow(AssertionError::new).getResponse().getDocument("cursor")
                .getArray("firstBatch").get(0).asDocument();
        assertEquals("?string", batchDocument.getString("errmsg").getValue());
        assertEquals("?string", batchDocument.getDocument("keyPattern").getString("ssn").getValue());
        assertEquals("?string", batchDocument.getDocument("meta").getString("$limit").getValue());
    }

    private static final String[] METADATA_SECRETS = {"dave@example.com", "carol@example.com", "6075992812306324049",
            "grace@example.com", "heidi@example.com", "ivan@example.com", "judy@example.com", "mallory@example.com",
            "frank@example.com", "4242424242"};

    @Test
    void keptMetadataCarriesNoUserValues() {
        KeepingListener kept = new KeepingListener();
        CloningListener reference = new CloningListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(kept).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(reference, listener);
            MongoDatabase shop = client.getDatabase("shop");
            MongoCollection<Document> users = shop.getCollection("users");
            users.insertOne(new Document("tenant", "t1").append("bio", "b"));
            tolerate(() -> users.createIndex(Indexes.ascending("tenant"), new IndexOptions().name("tenant_1")
                    .partialFilterExpression(Filters.eq("tenant", "dave@example.com"))
                    .collation(Collation.builder().locale("fr").build())));
            tolerate(() -> users.createIndex(Indexes.text("bio"), new IndexOptions().weights(new Document("bio",
                    4242424242L))));
            tolerate(() -> users.createIndex(Indexes.ascending("$**"), new IndexOptions()
                    .wildcardProjection(new Document("a", 1).append("x", 6075992812306324049L))));
            tolerate(() -> users.find().projection(Projections.fields(new Document("x", 6075992812306324049L),
                    Projections.include("tenant"))).into(new ArrayList<>()));
            tolerate(() -> users.aggregate(List.of(Aggregates.match(Filters.exists("tenant")), Aggregates.merge("totals",
                    new MergeOptions().whenMatched(MergeOptions.WhenMatched.PIPELINE).whenMatchedPipeline(
                            Collections.singletonList(Updates.set("approvedBy", "carol@example.com")))))).toCollection());
            tolerate(() -> shop.runCommand(new Document("aggregate", "users").append("pipeline", List.of())
                    .append("cursor", new Document("batchSize", 2).append("note", "frank@example.com"))));
            MongoDatabase admin = client.getDatabase("admin");
            tolerate(() -> admin.runCommand(new Document("usersInfo", "grace@example.com")));
            tolerate(() -> admin.runCommand(new Document("dropUser", "heidi@example.com")));
            tolerate(() -> admin.runCommand(new Document("grantRolesToUser", "ivan@example.com")
                    .append("roles", List.of("read"))));
            tolerate(() -> admin.runCommand(new Document("logApplicationMessage", "judy@example.com")));
            tolerate(() -> shop.runCommand(new Document("eval", "function() { return 'mallory@example.com'; }")));
        }
        assertEquals(0, listener.getCounters().getRedactionFailures());
        String driverSaw = reference.commands.toString();
        String forwarded = kept.json();
        for (String secret : METADATA_SECRETS) {
            assertTrue(driverSaw.contains(secret), "the driver's events hold " + secret);
            assertTrue(!forwarded.contains(secret), secret + " leaked: " + forwarded);
        }
        // what is metadata stays: index keys, the command names, the collection of createIndexes; an index name is
        // user-chosen text, redacted like any other value
        BsonDocument createIndexes = kept.command("createIndexes");
        assertEquals("users", createIndexes.getString("createIndexes").getValue());
        BsonDocument index = createIndexes.getArray("indexes").get(0).asDocument();
        assertEquals(BsonDocument.parse("{\"tenant\": 1}"), index.getDocument("key"));
        assertEquals("?string", index.getString("name").getValue());
        assertEquals("?string", index.getDocument("partialFilterExpression").getString("tenant").getValue());
        assertEquals("?string", kept.command("usersInfo").getString("usersInfo").getValue());
    }
}
