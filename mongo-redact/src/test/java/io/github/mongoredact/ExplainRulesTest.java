package io.github.mongoredact;

import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import io.github.mongoredact.DriverShapes.Backing;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonJavaScript;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code explain} applies the explained command's own rules to it, as if it were sent alone, for every command the server
 * explains: {@code aggregate}, {@code count}, {@code delete}, {@code distinct}, {@code find}, {@code findAndModify} (and its
 * alias {@code findandmodify}), {@code mapReduce}, {@code update}. No rule of one command matches inside another: the
 * {@code update} document of an explained {@code findAndModify} is redacted as a {@code findAndModify}'s, never kept as the
 * collection name of an explained {@code update}.
 */
class ExplainRulesTest {
    private static final JsonWriterSettings RELAXED = JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();
    private static final String CARD = "4111-1111-1111-1111";
    private static final String[] SECRETS = {CARD, "ada@example.com", "alan@example.com", "grace@example.com",
            "function() { return 7391; }", "7391000001"};
    static final String[] EXPLAINED = {"aggregate", "count", "delete", "distinct", "find", "findAndModify", "findandmodify",
            "mapReduce", "update"};

    /** The command {@code explain} wraps: every place a value can take holds a secret. */
    static BsonDocument explained(final String name) {
        BsonString email = new BsonString("ada@example.com");
        BsonDocument filter = new BsonDocument("email", email).append("age", new BsonDocument("$gt",
                new org.bson.BsonInt64(7391000001L)));
        BsonDocument set = new BsonDocument("$set", new BsonDocument("card", new BsonString(CARD)));
        BsonDocument command = new BsonDocument(name, new BsonString("users"));
        switch (name) {
            case "aggregate":
                return command.append("pipeline", array(new BsonDocument("$match", filter),
                        new BsonDocument("$group", new BsonDocument("_id", new BsonString("$city")).append("card",
                                new BsonDocument("$first", new BsonString(CARD)))), new BsonDocument("$limit",
                                new BsonInt32(5)), new BsonDocument("$lookup", new BsonDocument("from",
                                new BsonString("orders")).append("localField", new BsonString("a")).append("foreignField",
                                new BsonString("b")).append("as", new BsonString("o")))))
                        .append("cursor", new BsonDocument("batchSize", new BsonInt32(10)))
                        .append("let", new BsonDocument("who", new BsonString("alan@example.com")));
            case "count":
                return command.append("query", filter).append("limit", new BsonInt32(5)).append("skip", new BsonInt32(1))
                        .append("hint", new BsonDocument("email", new BsonInt32(1)));
            case "delete":
                return command.append("deletes", array(new BsonDocument("q", filter).append("limit", new BsonInt32(1))));
            case "distinct":
                return command.append("key", new BsonString("email")).append("query", new BsonDocument("name",
                        new BsonString("grace@example.com")));
            case "find":
                return command.append("filter", filter).append("projection", new BsonDocument("name", new BsonInt32(1)))
                        .append("sort", new BsonDocument("age", new BsonInt32(-1))).append("limit", new BsonInt32(10))
                        .append("let", new BsonDocument("who", new BsonString("alan@example.com")));
            case "findAndModify":
            case "findandmodify":
                return command.append("query", filter).append("update", set).append("new", BsonBoolean.TRUE)
                        .append("upsert", BsonBoolean.FALSE).append("fields", new BsonDocument("card", new BsonInt32(1)))
                        .append("sort", new BsonDocument("age", new BsonInt32(1)));
            case "mapReduce":
                return command.append("map", new BsonJavaScript("function() { return 7391; }")).append("reduce",
                        new BsonJavaScript("function() { return 7391; }")).append("query", filter)
                        .append("out", new BsonDocument("inline", new BsonInt32(1)));
            default:
                return command.append("updates", array(new BsonDocument("q", filter).append("u", set)
                        .append("multi", BsonBoolean.FALSE).append("upsert", BsonBoolean.TRUE)));
        }
    }

    private static BsonArray array(final BsonValue... values) {
        return new BsonArray(List.of(values));
    }

    private static BsonDocument forwarded(final String name, final BsonDocument command) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().addListener(last).build();
        listener.commandStarted(DriverShapes.started(1, name, DriverShapes.byteBacked(command, Backing.BYTE_BUF_HEAP)));
        assertEquals(0, listener.getCounters().getRedactionFailures());
        return last.started.getCommand();
    }

    @ParameterizedTest
    @ValueSource(strings = {"aggregate", "count", "delete", "distinct", "find", "findAndModify", "findandmodify", "mapReduce",
            "update"})
    void theExplainedCommandIsRedactedAsIfSentAlone(final String name) {
        BsonDocument alone = forwarded(name, explained(name));
        BsonDocument explain = forwarded("explain", new BsonDocument("explain", explained(name))
                .append("verbosity", new BsonString("queryPlanner")).append("comment", new BsonString("grace@example.com"))
                .append("$db", new BsonString("shop")));
        assertEquals(alone, explain.getDocument("explain"), explain.toJson());
        assertEquals("users", alone.getString(name).getValue(), "the explained command's collection");
        assertEquals("queryPlanner", explain.getString("verbosity").getValue());
        assertEquals("?string", explain.getString("comment").getValue());
        String json = explain.toJson(RELAXED);
        for (String secret : SECRETS) {
            assertFalse(json.contains(secret), secret + " leaked: " + json);
        }
    }

    @Test
    void theUpdateOfAnExplainedFindAndModifyIsNotKeptAsACollectionName() {
        for (String name : new String[]{"findAndModify", "findandmodify"}) {
            BsonDocument explain = forwarded("explain", new BsonDocument("explain", explained(name))
                    .append("$db", new BsonString("shop")));
            BsonDocument inner = explain.getDocument("explain");
            assertEquals("users", inner.getString(name).getValue());
            assertEquals(BsonDocument.parse("{\"$set\": {\"card\": \"?string\"}}"), inner.getDocument("update"), name);
            // a replacement and a pipeline as the update: redacted too
            BsonDocument replacement = explained(name).append("update", new BsonDocument("card", new BsonString(CARD)));
            assertEquals(BsonDocument.parse("{\"card\": \"?string\"}"), forwarded("explain", new BsonDocument("explain",
                    replacement)).getDocument("explain").getDocument("update"));
            BsonDocument pipeline = explained(name).append("update", array(new BsonDocument("$set", new BsonDocument("card",
                    new BsonString(CARD)))));
            assertFalse(forwarded("explain", new BsonDocument("explain", pipeline)).toJson().contains(CARD));
        }
        // an explained update keeps its collection name, and only it
        BsonDocument update = forwarded("explain", new BsonDocument("explain", explained("update")));
        assertEquals("users", update.getDocument("explain").getString("update").getValue());
    }

    /** Every explain the driver sends for these, through the real driver to the embedded server. */
    @Test
    void explainsSentByTheRealDriverLeaveNoValue() {
        KeepingListener kept = new KeepingListener();
        CloningListener reference = new CloningListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().addListener(kept).build();
        List<String> sent = new ArrayList<>();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(reference, listener);
            MongoDatabase shop = client.getDatabase("shop");
            shop.getCollection("users").insertOne(new org.bson.Document("email", "ada@example.com"));
            for (String name : EXPLAINED) {
                try {
                    shop.runCommand(new BsonDocument("explain", explained(name)).append("verbosity",
                            new BsonString("queryPlanner")));
                } catch (MongoException e) {
                    // the embedded server explains few commands: what matters is the started event, sent and seen
                }
                sent.add(name);
            }
        }
        assertEquals(0, listener.getCounters().getRedactionFailures());
        List<BsonDocument> explains = new ArrayList<>();
        kept.started.stream().filter(e -> e.getCommandName().equals("explain")).forEach(e -> explains.add(e.getCommand()));
        assertEquals(EXPLAINED.length, explains.size());
        assertTrue(reference.commands.toString().contains(CARD), "the driver's events hold the card number");
        for (int i = 0; i < explains.size(); i++) {
            BsonDocument inner = explains.get(i).getDocument("explain");
            assertEquals(forwarded(sent.get(i), explained(sent.get(i))), inner, sent.get(i));
            String json = explains.get(i).toJson(RELAXED);
            for (String secret : SECRETS) {
                assertFalse(json.contains(secret), secret + " leaked: " + json);
            }
        }
    }
}
