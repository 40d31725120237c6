package io.github.mongoredact;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.internal.json.QueryText;
import io.github.mongoredact.internal.json.TruncatedJson;
import org.bson.BsonBinarySubType;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link OwnedDocument}, the public read-only view of the listener's owned copies: through the real driver and the embedded
 * server, its text is the one the log and the spans rendered before it existed, its cut is the logging specification's, its
 * top-level reads are copies of what the copy holds, and a sink that does not ask for documents gets none.
 */
class OwnedDocumentTest {
    private static final UUID SESSION = UUID.fromString("5f3b1c2a-9d4e-4f6a-8b7c-1d2e3f405162");

    /** Runs an insert, a find whose cursor needs a getMore, and a count, with a sink that reads everything. */
    private static RecordingSink run(final RedactionPolicy policy, final boolean documents) {
        RecordingSink sink = new RecordingSink(documents, documents);
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addSink(sink).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(listener);
            MongoCollection<Document> users = client.getDatabase("shop").getCollection("users");
            List<Document> documentsToInsert = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                documentsToInsert.add(new Document("name", "user" + i).append("email", "user" + i + "@example.org")
                        .append("n", i));
            }
            users.insertMany(documentsToInsert);
            users.find(Filters.eq("email", "user3@example.org")).first();
            users.find().batchSize(2).into(new ArrayList<>());
        }
        return sink;
    }

    private static StartedCommand started(final RecordingSink sink, final String commandName) {
        for (StartedCommand started : sink.started) {
            if (started.getCommandName().equals(commandName)) {
                return started;
            }
        }
        throw new AssertionError("no " + commandName + " in " + sink.started);
    }

    private static CompletedCommand completed(final RecordingSink sink, final String commandName) {
        for (CompletedCommand completed : sink.completed) {
            if (completed.getStarted().getCommandName().equals(commandName)) {
                return completed;
            }
        }
        throw new AssertionError("no " + commandName + " in " + sink.completed);
    }

    @Test
    void itsTextIsTheOneTheLogRenderedFromTheCopyForEveryCommandAndReplyAndAtEveryLimit() {
        for (RedactionPolicy policy : new RedactionPolicy[]{RedactionPolicy.defaults(), RedactionPolicy.specOnly()}) {
            RecordingSink sink = run(policy, true);
            assertFalse(sink.started.isEmpty());
            for (StartedCommand started : sink.started) {
                BsonDocument copy = started.getCommand();
                OwnedDocument view = started.getCommandView();
                assertNotNull(copy, started.toString());
                assertNotNull(view, started.toString());
                for (int limit : new int[]{0, 1, 5, 20, 100, 1000}) {
                    assertEquals(TruncatedJson.render(copy, limit), view.toJson(limit), started + " at " + limit);
                    assertEquals(QueryText.render(copy, limit), view.toQueryText(limit), started + " at " + limit);
                }
                assertEquals(((RawBsonDocument) copy).getByteBuffer().remaining(), view.getSize(), started.toString());
            }
            for (CompletedCommand completed : sink.completed) {
                OwnedDocument view = completed.getReplyView();
                assertNotNull(view, completed.toString());
                assertEquals(TruncatedJson.render(completed.getReply(), 1000), view.toJson(1000), completed.toString());
                assertEquals(TruncatedJson.render(completed.getReply(), 0), view.toJson(0), completed.toString());
            }
        }
    }

    @Test
    void aTextLongerThanTheLimitLosesItsEndAndGetsTheDriversEllipsisAndOneOfTheLimitIsWhole() {
        OwnedDocument view = started(run(RedactionPolicy.specOnly(), true), "find").getCommandView();
        assertNotNull(view);
        String whole = view.toJson(0);
        assertTrue(whole.startsWith("{\"find\": \"users\""), whole);
        assertEquals(whole, view.toJson(whole.length()));
        assertEquals(whole.substring(0, whole.length() - 1) + " ...", view.toJson(whole.length() - 1));
        assertEquals(whole.substring(0, 10) + " ...", view.toJson(10));
        assertFalse(view.toQueryText(0).contains("$db"), view.toQueryText(0));
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> view.toJson(-1));
        assertEquals("maxLength must be 0 (no limit) or more, was -1", negative.getMessage());
        assertThrows(IllegalArgumentException.class, () -> view.toQueryText(-2));
    }

    @Test
    void topLevelReadsAreCopiesOfWhatTheRedactedCopyHolds() {
        RecordingSink sink = run(RedactionPolicy.defaults(), true);
        OwnedDocument find = started(sink, "find").getCommandView();
        assertNotNull(find);
        assertEquals("find", find.getFirstKey());
        assertEquals(new BsonString("users"), find.get("find"));
        assertEquals(new BsonString("shop"), find.get("$db"));
        assertTrue(find.containsKey("filter"));
        assertFalse(find.containsKey("absent"));
        assertNull(find.get("absent"));
        BsonValue filter = find.get("filter");
        assertNotNull(filter);
        assertTrue(filter.isDocument(), filter.toString());
        // the policy's placeholder, never the value the application sent
        assertNotEquals(new BsonString("user3@example.org"), filter.asDocument().get("email"));
        assertFalse(filter.toString().contains("user3"), filter.toString());
        assertThrows(UnsupportedOperationException.class, () -> filter.asDocument().put("email", new BsonInt32(1)));
        assertEquals(filter, find.get("filter"));
    }

    @Test
    void theCursorIdsOfAGetMoreAndOfItsReplyAreTheEventsFacts() {
        RecordingSink sink = run(RedactionPolicy.defaults(), true);
        StartedCommand getMore = started(sink, "getMore");
        OwnedDocument view = getMore.getCommandView();
        assertNotNull(view);
        BsonValue id = view.get(view.getFirstKey());
        assertNotNull(id);
        assertTrue(id.isInt64(), id.toString());
        assertNotEquals(0, getMore.getCursorId());
        assertEquals(getMore.getCursorId(), id.asInt64().getValue());
        CompletedCommand find = sink.completed.stream()
                .filter(c -> c.getStarted().getCommandName().equals("find") && c.getCursorId() != 0).findFirst()
                .orElseThrow(AssertionError::new);
        OwnedDocument reply = find.getReplyView();
        assertNotNull(reply);
        assertEquals(find.getCursorId(), reply.get("cursor").asDocument().getInt64("id").getValue());
        assertEquals(getMore.getCursorId(), find.getCursorId());
    }

    @Test
    void theSessionAndTheTransactionNumberAreReadFromTheTopLevelWhereTheCopyHoldsThem() {
        RecordingSink sink = new RecordingSink(true, true);
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                .addSink(sink).build();
        CommandStartedEvent event = Events.startedEvent(4, "{\"insert\": \"users\", \"ordered\": true, \"lsid\": {\"id\":"
                + " {\"$binary\": {\"base64\": \"" + base64(SESSION) + "\", \"subType\": \"04\"}}}, \"txnNumber\":"
                + " {\"$numberLong\": \"7\"}, \"documents\": [{\"name\": \"x\"}], \"$db\": \"shop\"}");
        listener.commandStarted(event);
        OwnedDocument view = sink.started.get(0).getCommandView();
        assertNotNull(view);
        BsonValue lsid = view.get("lsid");
        assertNotNull(lsid);
        assertEquals(BsonBinarySubType.UUID_STANDARD.getValue(), lsid.asDocument().getBinary("id").getType());
        assertEquals(SESSION, lsid.asDocument().getBinary("id").asUuid());
        assertEquals(7L, view.get("txnNumber").asInt64().getValue());
        String text = view.toQueryText(0);
        assertFalse(text.contains("lsid") || text.contains("$db"), text);
        assertTrue(view.toJson(0).contains("\"lsid\""), view.toJson(0));
    }

    @Test
    void aSinkThatAsksForNoDocumentsGetsNoViewAndTheEventsFactsStay() {
        RecordingSink sink = run(RedactionPolicy.defaults(), false);
        assertFalse(sink.started.isEmpty());
        for (StartedCommand started : sink.started) {
            assertNull(started.getCommand(), started.toString());
            assertNull(started.getCommandView(), started.toString());
            assertTrue(started.getCommandSize() > 0, started.toString());
        }
        for (CompletedCommand completed : sink.completed) {
            assertNull(completed.getReplyView(), completed.toString());
        }
    }

    @Test
    void viewsOfEqualBytesAreEqualAndTheirTextNamesNoValue() {
        RecordingSink first = run(RedactionPolicy.defaults(), true);
        RecordingSink second = run(RedactionPolicy.defaults(), true);
        OwnedDocument a = started(first, "find").getCommandView();
        OwnedDocument b = started(second, "find").getCommandView();
        assertNotNull(a);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(a, started(first, "find").getCommandView());
        assertNotEquals(a, started(first, "insert").getCommandView());
        assertNotEquals(a, completed(first, "find").getReplyView());
        assertEquals("OwnedDocument{size=" + a.getSize() + "}", a.toString());
        assertThrows(IllegalArgumentException.class, () -> a.get(null));
    }

    @Test
    void theEventsTellTheirConnectionsIdsAndTheSpecsKindsOfCommand() throws ReflectiveOperationException {
        StartedCommand find = started(run(RedactionPolicy.defaults(), true), "find");
        // getLocalValue() / getServerValue() return int / Integer up to 4.11, long / Long from 5.0: read by reflection
        Object id = find.getConnectionDescription().getConnectionId();
        assertEquals(((Number) id.getClass().getMethod("getLocalValue").invoke(id)).longValue(), find.getDriverConnectionId());
        Number server = (Number) id.getClass().getMethod("getServerValue").invoke(id);
        assertEquals(server == null ? null : server.longValue(), find.getServerConnectionId());
        assertFalse(find.isHello());
        assertFalse(find.isSensitive());
        RecordingSink sink = new RecordingSink(true, true);
        RedactingCommandListener listener = RedactingCommandListener.builder().addSink(sink).build();
        CommandStartedEvent hello = Events.startedEvent(5, "{\"isMaster\": 1, \"$db\": \"admin\"}");
        CommandStartedEvent createUser = Events.startedEvent(6, "{\"createUser\": \"ada\", \"pwd\": \"secret\", \"$db\": \"a\"}");
        listener.commandStarted(hello);
        listener.commandStarted(createUser);
        assertTrue(sink.started.get(0).isHello());
        assertFalse(sink.started.get(0).isSensitive());
        assertTrue(sink.started.get(1).isSensitive());
        assertTrue(sink.started.get(1).isRedactedBySpec());
        assertEquals("{}", sink.started.get(1).getCommandView().toJson(0));
        assertNull(sink.started.get(1).getCommandView().getFirstKey());
        // a completion whose start the listener no longer holds: the name alone tells
        listener.commandSucceeded(Events.succeededEvent(Events.startedEvent(99, "{\"saslStart\": 1, \"$db\": \"a\"}"),
                "{\"ok\": 1}", 10));
        CompletedCommand unknown = sink.completed.get(0);
        assertFalse(unknown.isStartKnown());
        assertFalse(unknown.getStarted().isRedactedBySpec());
        assertTrue(unknown.getStarted().isSensitive());
    }

    @Test
    void theDriverOnTheClassPathIsNotRefused() {
        assertNull(RedactingCommandListener.driverRefusal());
    }

    private static String base64(final UUID uuid) {
        java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(16);
        bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
        return java.util.Base64.getEncoder().encodeToString(bytes.array());
    }
}
