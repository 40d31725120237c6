package io.github.mongoredact;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import org.bson.BsonDocument;
import org.bson.BsonType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CompletedCommand#getCursorId()}, read from the driver's reply without a copy, gives exactly what a reader of the
 * redacted copy of the reply finds: under every policy, for every reply shape and command below.
 */
class CursorIdFactTest {
    private static final String[] COMMANDS = {"find", "aggregate", "getMore", "listCollections", "listIndexes", "anything"};
    private static final String[] REPLIES = {
            "{\"cursor\": {\"firstBatch\": [{\"email\": \"ada@example.org\", \"n\": 1}, {\"n\": 2}], \"id\": {\"$numberLong\":"
                    + " \"99\"}, \"ns\": \"app.users\"}, \"ok\": 1.0}",
            "{\"cursor\": {\"nextBatch\": [{\"n\": 3}], \"id\": {\"$numberLong\": \"-7205759403792793599\"},"
                    + " \"ns\": \"app.users\"}, \"ok\": 1.0}",
            "{\"cursor\": {\"id\": {\"$numberLong\": \"1\"}, \"firstBatch\": []}, \"ok\": 1}",
            "{\"cursor\": {\"firstBatch\": [], \"id\": {\"$numberLong\": \"-1\"}}, \"ok\": 1}",
            "{\"cursor\": {\"firstBatch\": [], \"id\": {\"$numberLong\": \"0\"}, \"ns\": \"app.users\"}, \"ok\": 1}",
            "{\"cursor\": {\"firstBatch\": [], \"id\": 42, \"ns\": \"app.users\"}, \"ok\": 1}",
            "{\"cursor\": \"42\", \"ok\": 1}",
            "{\"n\": 1, \"ok\": 1}",
            "{\"ok\": 1, \"cursor\": {\"ns\": \"app.users\", \"firstBatch\": [{\"a\": [1, 2, {\"id\": 5}]}],"
                    + " \"id\": {\"$numberLong\": \"123456789012\"}, \"partialResultsReturned\": true}}",
    };

    /** The policies compared: the shipped ones and rules that reach {@code cursor.id} in each way the walker knows. */
    private static Map<String, RedactionPolicy> policies() {
        Map<String, RedactionPolicy> policies = new LinkedHashMap<>();
        policies.put("specOnly", RedactionPolicy.specOnly());
        policies.put("defaults", RedactionPolicy.defaults());
        policies.put("defaults, data-like keys masked", RedactionPolicy.builder(RedactionPolicy.defaults())
                .keyMasking(KeyMasking.DATA_LIKE).build());
        policies.put("cursor.id redacted", RedactionPolicy.builder(RedactionPolicy.defaults())
                .replyField("cursor.id", FieldAction.REDACT).build());
        policies.put("find's cursor.id redacted", RedactionPolicy.builder(RedactionPolicy.defaults())
                .replyField("find", "cursor.id", FieldAction.REDACT).build());
        policies.put("cursor.id flags only", RedactionPolicy.builder(RedactionPolicy.defaults())
                .replyField("cursor.id", FieldAction.KEEP_FLAGS).build());
        policies.put("cursor.id kept as a string only", RedactionPolicy.builder(RedactionPolicy.defaults())
                .keep(FieldRule.Target.REPLY, null, "cursor.id", BsonType.STRING).build());
        policies.put("cursor.id kept as int64", RedactionPolicy.builder(RedactionPolicy.defaults())
                .keep(FieldRule.Target.REPLY, null, "cursor.id", BsonType.INT64).build());
        policies.put("cursor dropped", RedactionPolicy.builder(RedactionPolicy.defaults())
                .replyField("cursor", FieldAction.DROP).build());
        policies.put("cursor keys masked", RedactionPolicy.builder(RedactionPolicy.specOnly())
                .replyField("cursor", FieldAction.REDACT_KEYS).build());
        policies.put("cursor a pipeline", RedactionPolicy.builder(RedactionPolicy.defaults())
                .replyField("cursor", FieldAction.PIPELINE).build());
        policies.put("cursor scrubbed", RedactionPolicy.builder(RedactionPolicy.specOnly())
                .replyField("cursor", FieldAction.SCRUB).build());
        policies.put("cursor kept, as a string only", RedactionPolicy.builder(RedactionPolicy.specOnly())
                .keep(FieldRule.Target.REPLY, null, "cursor", BsonType.STRING).build());
        policies.put("**.id redacted inside a kept cursor", RedactionPolicy.builder(RedactionPolicy.specOnly())
                .replyField("**.id", FieldAction.REDACT).build());
        policies.put("**.id redacted, cursor walked for a sequence limit", RedactionPolicy.builder(RedactionPolicy.specOnly())
                .replyField("**.id", FieldAction.REDACT).maxSequenceDocuments(1).build());
        policies.put("**.cursor.id kept, replies redacted", RedactionPolicy.builder(RedactionPolicy.specOnly())
                .unmatchedReplyAction(FieldAction.REDACT).replyField("**.cursor.id", FieldAction.KEEP).build());
        policies.put("everything kept, no rule", RedactionPolicy.builder().clearRules()
                .unmatchedReplyAction(FieldAction.KEEP).build());
        policies.put("everything redacted, no rule", RedactionPolicy.builder().clearRules()
                .unmatchedReplyAction(FieldAction.REDACT).build());
        return policies;
    }

    @Test
    void theCursorIdIsWhatTheRedactedCopyOfTheReplyShowsUnderEveryPolicy() {
        int given = 0;
        int withheld = 0;
        for (Map.Entry<String, RedactionPolicy> policy : policies().entrySet()) {
            for (String command : COMMANDS) {
                for (String reply : REPLIES) {
                    for (boolean plain : new boolean[]{false, true}) {
                        CompletedCommand completed = complete(policy.getValue(), command, reply, plain, new RecordingSink(true, true));
                        BsonDocument copy = completed.getReply();
                        assertNotNull(copy);
                        long shown = cursorIdIn(copy);
                        assertEquals(shown, completed.getCursorId(), policy.getKey() + ", " + command + ", "
                                + (plain ? "plain" : "bytes") + ": " + reply + " copied as " + copy.toJson());
                        if (shown != 0) {
                            given++;
                        } else if (cursorIdIn(BsonDocument.parse(reply)) != 0) {
                            withheld++;
                        }
                    }
                }
            }
        }
        assertTrue(given > 100 && withheld > 100, "both outcomes compared: given " + given + ", withheld " + withheld);
    }

    @Test
    void theShippedPoliciesGiveTheCursorIdOfEveryCursorReply() {
        for (RedactionPolicy policy : new RedactionPolicy[]{RedactionPolicy.specOnly(), RedactionPolicy.defaults()}) {
            for (String command : new String[]{"find", "aggregate", "getMore"}) {
                assertEquals(99L, complete(policy, command, REPLIES[0], new RecordingSink(true, true)).getCursorId(), command);
            }
        }
        CompletedCommand redacted = complete(RedactionPolicy.builder(RedactionPolicy.defaults())
                .replyField("find", "cursor.id", FieldAction.REDACT).build(), "find", REPLIES[0], new RecordingSink(true, true));
        assertEquals(0, redacted.getCursorId());
        assertTrue(redacted.getReply().getDocument("cursor").isString("id"), "the copy holds a placeholder");
    }

    @Test
    void underASizeCapTheCursorIdIsNeverGivenOnlyTheCopyKnowsWhetherItSurvivedTheCut() {
        RedactionPolicy capped = RedactionPolicy.builder(RedactionPolicy.defaults()).maxDocumentBytes(4096).build();
        for (String reply : REPLIES) {
            CompletedCommand completed = complete(capped, "find", reply, new RecordingSink(true, true));
            assertEquals(0, completed.getCursorId(), reply);
        }
        assertEquals(99L, cursorIdIn(complete(capped, "find", REPLIES[0], new RecordingSink(true, true)).getReply()),
                "a small reply fits: the copy shows what the fact withholds, never the other way round");
    }

    @Test
    void aReplyIsCopiedOnlyWhenAPlainListenerOrASinkNeedsReplyDocuments() {
        RecordingSink startsOnly = new RecordingSink(true, false);
        CompletedCommand completed = complete(RedactionPolicy.defaults(), "find", REPLIES[0], startsOnly);
        assertNull(completed.getReply(), "no sink reads replies: no copy");
        assertNotNull(startsOnly.started.get(0).getCommand(), "the started command is still copied");
        assertEquals(99L, completed.getCursorId());
        assertEquals(Events.raw(REPLIES[0]).getByteBuffer().remaining(), completed.getReplySize());

        RecordingSink replies = new RecordingSink(true, true);
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addSink(new RecordingSink(true, false)).addSink(replies).build();
        send(listener, "find", REPLIES[0]);
        assertNotNull(replies.completed.get(0).getReply(), "one sink reading replies is enough");

        RecordingSink beside = new RecordingSink(true, false);
        List<CommandSucceededEvent> plain = new ArrayList<>();
        RedactingCommandListener withListener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(new CommandListener() {
                    @Override
                    public void commandSucceeded(final CommandSucceededEvent event) {
                        plain.add(event);
                    }
                }).addSink(beside).build();
        send(withListener, "find", REPLIES[0]);
        assertEquals(99L, plain.get(0).getResponse().getDocument("cursor").getInt64("id").getValue(),
                "a plain listener always gets the reply");
        assertNotNull(beside.completed.get(0).getReply());
    }

    @Test
    void aSinkWrittenBeforeTheMethodKeepsItsReplies() {
        CommandSink older = new CommandSink() {
            @Override
            public boolean needsDocuments() {
                return true;
            }
        };
        assertTrue(older.needsReplyDocuments());
        CommandSink metrics = new CommandSink() {
            @Override
            public boolean needsDocuments() {
                return false;
            }
        };
        assertTrue(!metrics.needsReplyDocuments());
    }

    /** @return the cursor id a reader of the copy finds: an {@code int64} {@code cursor.id} that is not 0, else 0 */
    static long cursorIdIn(final BsonDocument reply) {
        if (!reply.isDocument("cursor") || !reply.getDocument("cursor").isInt64("id")) {
            return 0;
        }
        return reply.getDocument("cursor").getInt64("id").getValue();
    }

    private static CompletedCommand complete(final RedactionPolicy policy, final String command, final String reply,
                                             final RecordingSink sink) {
        return complete(policy, command, reply, false, sink);
    }

    /** @param plain whether the driver's reply is a plain document rather than bytes */
    private static CompletedCommand complete(final RedactionPolicy policy, final String command, final String reply,
                                             final boolean plain, final RecordingSink sink) {
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addSink(sink).build();
        send(listener, command, reply, plain);
        assertEquals(1, sink.completed.size());
        return sink.completed.get(0);
    }

    private static void send(final RedactingCommandListener listener, final String command, final String reply) {
        send(listener, command, reply, false);
    }

    private static void send(final RedactingCommandListener listener, final String command, final String reply,
                             final boolean plain) {
        String first = command.equals("getMore") ? "{\"$numberLong\": \"99\"}, \"collection\": \"users\"" : "\"users\"";
        CommandStartedEvent started = Events.startedEvent(7, "{\"" + command + "\": " + first + ", \"$db\": \"app\"}");
        listener.commandStarted(started);
        listener.commandSucceeded(plain ? new CommandSucceededEvent(null, started.getOperationId(), started.getRequestId(),
                started.getConnectionDescription(), started.getDatabaseName(), command, BsonDocument.parse(reply), 1000L)
                : Events.succeededEvent(started, reply, 1000L));
    }
}
