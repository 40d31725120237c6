package io.github.mongoredact;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import org.bson.BsonDocument;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Through the real driver and the embedded server: a {@code **.} rule of more than one key that starts at a document
 * sequence's name ({@code documents}, {@code updates}, {@code deletes}) applies in the sequence's documents, which the
 * listener reads where the driver put them, in an array other than the top level's.
 */
class SuffixRulesRealDriverTest {

    @Test
    void aSuffixRuleFromASequenceNameDownAppliesInEverySequenceDocument() {
        RedactionPolicy policy = RedactionPolicy.builder(RedactionPolicy.specOnly())
                .field("**.documents.email", FieldAction.REDACT)
                .field("**.updates.q", FieldAction.REDACT)
                .field("**.deletes.q", FieldAction.REDACT)
                .build();
        KeepingListener kept = new KeepingListener();
        CloningListener reference = new CloningListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(kept).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(reference, listener);
            MongoCollection<Document> users = client.getDatabase("shop").getCollection("users");
            users.insertOne(new Document("email", "alice@example.com").append("name", "Alice"));
            users.updateOne(Filters.eq("email", "bob@example.com"), Updates.set("name", "Bob"));
            users.deleteOne(Filters.eq("email", "carol@example.com"));
        }
        assertEquals(0, listener.getCounters().getRedactionFailures());
        for (String secret : new String[]{"alice@example.com", "bob@example.com", "carol@example.com"}) {
            assertTrue(reference.commands.toString().contains(secret), "the driver's events hold " + secret);
            assertFalse(kept.json().contains(secret), secret + " leaked: " + kept.json());
        }
        BsonDocument insert = started(kept, "insert");
        BsonDocument document = insert.getArray("documents").get(0).asDocument();
        assertEquals("?string", document.getString("email").getValue());
        // what no rule names stays, as the spec-only policy keeps it
        assertEquals("Alice", document.getString("name").getValue());
        BsonDocument update = started(kept, "update").getArray("updates").get(0).asDocument();
        assertEquals("?string", update.getDocument("q").getString("email").getValue());
        assertEquals("Bob", update.getDocument("u").getDocument("$set").getString("name").getValue());
        BsonDocument delete = started(kept, "delete").getArray("deletes").get(0).asDocument();
        assertEquals("?string", delete.getDocument("q").getString("email").getValue());
    }

    private static BsonDocument started(final KeepingListener kept, final String commandName) {
        return kept.started.stream().filter(e -> e.getCommandName().equals(commandName)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + commandName + " started")).getCommand();
    }
}
