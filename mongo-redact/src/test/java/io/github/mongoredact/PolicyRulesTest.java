package io.github.mongoredact;

import io.github.mongoredact.DriverShapes.Backing;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link RedactionPolicy#builder()} rules do, output by output: keep / redact / drop paths, wildcards, {@code **.}
 * suffixes, array transparency, per-command rules, placeholder styles, sequence limits and the size cap.
 */
class PolicyRulesTest {
    private static final JsonWriterSettings RELAXED = JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();
    private static final String FIND = "{\"find\": \"users\", \"filter\": {\"status\": \"active\", \"email\": \"alice@example.com\","
            + " \"addr\": {\"email\": \"x@y.z\", \"zip\": 12345}}, \"comment\": \"hi\", \"limit\": 5, \"$db\": \"shop\"}";
    private static final String INSERT = "{\"insert\": \"users\", \"$db\": \"shop\"}";

    static BsonDocument forward(final RedactionPolicy policy, final String name, final String json, final String... sequence) {
        BsonDocument top = BsonDocument.parse(json);
        BsonDocument command;
        if (sequence.length == 0) {
            command = DriverShapes.byteBacked(top, Backing.BYTE_BUF_HEAP_IN_MESSAGE);
        } else {
            List<BsonDocument> documents = new ArrayList<>();
            for (BsonValue value : BsonArray.parse(sequence[1])) {
                documents.add(value.asDocument());
            }
            command = DriverShapes.withSequences(top, Backing.BYTE_BUF_HEAP, sequence[0], documents);
        }
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
        listener.commandStarted(DriverShapes.started(1, name, command));
        assertEquals(0, listener.getCounters().getRedactionFailures());
        DriverShapes.ownedBytes(last.started.getCommand());
        return last.started.getCommand();
    }

    static String json(final RedactionPolicy policy, final String name, final String command, final String... sequence) {
        return forward(policy, name, command, sequence).toJson(RELAXED);
    }

    @Test
    void keepOnePathUnderDefaults() {
        assertEquals("{\"find\": \"users\", \"filter\": {\"status\": \"active\", \"email\": \"?string\", \"addr\": {\"email\":"
                        + " \"?string\", \"zip\": \"?number\"}}, \"comment\": \"?string\", \"limit\": 5, \"$db\": \"shop\"}",
                json(RedactionPolicy.builder().keep("filter.status").build(), "find", FIND));
    }

    @Test
    void dropAndRedactPaths() {
        assertEquals("{\"find\": \"users\", \"filter\": {\"status\": \"?string\", \"email\": \"?string\", \"addr\": {\"email\":"
                        + " \"?string\", \"zip\": \"?number\"}}, \"limit\": \"?number\", \"$db\": \"shop\"}",
                json(RedactionPolicy.builder().drop("comment").redact("limit").build(), "find", FIND));
    }

    @Test
    void aSuffixRuleReachesIntoEveryKeptContainer() {
        // kept because nothing else names them (the spec-only policy), or kept by a rule of their own
        RedactionPolicy dropEmails = RedactionPolicy.builder(RedactionPolicy.specOnly()).drop("**.email").build();
        assertEquals("{\"find\": \"users\", \"filter\": {\"status\": \"active\", \"addr\": {\"zip\": 12345}},"
                + " \"comment\": \"hi\", \"limit\": 5, \"$db\": \"shop\"}", json(dropEmails, "find", FIND));
        assertEquals("{\"insert\": \"users\", \"$db\": \"shop\", \"documents\": [{\"n\": 1}, {\"addr\": {}}]}",
                json(dropEmails, "insert", INSERT, "documents", "[{\"email\": \"a@b.c\", \"n\": 1}, {\"addr\": {\"email\":"
                        + " \"d@e.f\"}}]"));
        RedactionPolicy keptFilter = RedactionPolicy.builder().keep("filter").redact("**.addr.email").build();
        assertEquals("{\"find\": \"users\", \"filter\": {\"status\": \"active\", \"email\": \"alice@example.com\","
                + " \"addr\": {\"email\": \"?string\", \"zip\": 12345}}, \"comment\": \"?string\", \"limit\": 5, \"$db\":"
                + " \"shop\"}", json(keptFilter, "find", FIND));
    }

    @Test
    void ruleForOneCommandLeavesOthersAlone() {
        RedactionPolicy policy = RedactionPolicy.builder().field("find", "filter.email", FieldAction.KEEP).build();
        assertEquals("{\"find\": \"users\", \"filter\": {\"status\": \"?string\", \"email\": \"alice@example.com\", \"addr\":"
                        + " {\"email\": \"?string\", \"zip\": \"?number\"}}, \"comment\": \"?string\", \"limit\": 5, \"$db\": \"shop\"}",
                json(policy, "find", FIND));
        assertEquals("{\"count\": \"users\", \"filter\": {\"status\": \"?string\", \"email\": \"?string\"}, \"$db\": \"shop\"}",
                json(policy, "count", "{\"count\": \"users\", \"filter\": {\"status\": \"active\", \"email\":"
                        + " \"alice@example.com\"}, \"$db\": \"shop\"}"));
    }

    @Test
    void commandRuleBeatsGlobalRuleAndLaterRuleBeatsEarlier() {
        assertEquals(5, forward(RedactionPolicy.builder().redact("limit").field("find", "limit", FieldAction.KEEP).build(),
                "find", FIND).getInt32("limit").getValue());
        assertEquals("?string", forward(RedactionPolicy.builder().keep("comment").redact("comment").build(), "find", FIND)
                .getString("comment").getValue());
    }

    @Test
    void suffixRuleMatchesAtAnyDepth() {
        assertEquals("{\"find\": \"users\", \"filter\": {\"status\": \"?string\", \"addr\": {\"zip\": \"?number\"}},"
                        + " \"comment\": \"?string\", \"limit\": 5, \"$db\": \"shop\"}",
                json(RedactionPolicy.builder().drop("**.email").build(), "find", FIND));
    }

    @Test
    void wildcardKeepsEveryChild() {
        assertEquals("{\"find\": \"users\", \"filter\": {\"status\": \"active\", \"email\": \"alice@example.com\", \"addr\":"
                        + " {\"email\": \"x@y.z\", \"zip\": 12345}}, \"comment\": \"?string\", \"limit\": 5, \"$db\": \"shop\"}",
                json(RedactionPolicy.builder().keep("filter.*").build(), "find", FIND));
    }

    @Test
    void arrayElementsAreTransparentInPaths() {
        assertEquals("{\"insert\": \"users\", \"$db\": \"shop\", \"documents\": [{\"country\": \"FR\", \"email\": \"?string\"},"
                        + " {\"country\": \"DE\", \"tags\": [{\"country\": \"?string\"}]}]}",
                json(RedactionPolicy.builder().keep("documents.country").build(), "insert", INSERT, "documents",
                        "[{\"country\": \"FR\", \"email\": \"a@b.c\"}, {\"country\": \"DE\", \"tags\": [{\"country\": \"x\"}]}]"));
    }

    @Test
    void fixedPlaceholderStyle() {
        assertEquals("{\"find\": \"users\", \"filter\": {\"status\": \"?\", \"email\": \"?\", \"addr\": {\"email\": \"?\","
                        + " \"zip\": \"?\"}}, \"comment\": \"?\", \"limit\": 5, \"$db\": \"shop\"}",
                json(RedactionPolicy.builder().placeholderStyle(PlaceholderStyle.FIXED).build(), "find", FIND));
    }

    @Test
    void redactKeysMasksEveryKeyBelowThatDocument() {
        assertEquals("{\"find\": \"users\", \"filter\": {\"?0\": \"?string\", \"?1\": \"?string\", \"?2\": {\"?0\":"
                        + " \"?string\", \"?1\": \"?number\"}}, \"comment\": \"?string\", \"limit\": 5, \"$db\": \"shop\"}",
                json(RedactionPolicy.builder().field("filter", FieldAction.REDACT_KEYS).build(), "find", FIND));
    }

    @Test
    void maskKeysHidesKeysThatAreData() {
        assertEquals("{\"update\": \"users\", \"$db\": \"shop\", \"updates\": [{\"q\": {\"_id\": \"?number\"}, \"u\":"
                        + " {\"$set\": {\"?0\": \"?bool\", \"?1\": {\"?0\": \"?string\"}}}}]}",
                json(RedactionPolicy.builder().maskKeys("updates.u.$set").build(), "update",
                        "{\"update\": \"users\", \"$db\": \"shop\"}", "updates",
                        "[{\"q\": {\"_id\": 1}, \"u\": {\"$set\": {\"prefs.alice@example.com\": true, \"by\":"
                                + " {\"bob@example.com\": \"x\"}}}}]"));
    }

    @Test
    void stageRulesApplyAtTheStageLevelOfPipelinesOnly() {
        RedactionPolicy policy = RedactionPolicy.builder().keep("@stage.$match.status").build();
        assertEquals("{\"aggregate\": \"orders\", \"pipeline\": [{\"$match\": {\"status\": \"shipped\", \"x\":"
                        + " {\"$match\": {\"status\": \"?string\"}}}}], \"cursor\": {}, \"$db\": \"shop\"}",
                json(policy, "aggregate", "{\"aggregate\": \"orders\", \"pipeline\": [{\"$match\": {\"status\": \"shipped\","
                        + " \"x\": {\"$match\": {\"status\": \"secret\"}}}}], \"cursor\": {}, \"$db\": \"shop\"}"));
    }

    @Test
    void scrubKeepsTextWithoutQuotedValues() {
        assertEquals("{\"find\": \"users\", \"comment\": \"user '?' ? ?\", \"$db\": \"shop\"}",
                json(RedactionPolicy.builder().field("comment", FieldAction.SCRUB).build(), "find",
                        "{\"find\": \"users\", \"comment\": \"user 'alice@example.com' asked { email: bob }\", \"$db\": \"shop\"}"));
    }

    @Test
    void specOnlyBasedPolicyRedactsOnlyWhatItNames() {
        assertEquals("{\"find\": \"users\", \"filter\": {\"status\": \"active\", \"email\": \"?string\", \"addr\": {\"email\":"
                        + " \"x@y.z\", \"zip\": 12345}}, \"comment\": \"hi\", \"limit\": 5, \"$db\": \"shop\"}",
                json(RedactionPolicy.builder(RedactionPolicy.specOnly()).redact("filter.email").build(), "find", FIND));
        assertEquals(BsonDocument.parse(FIND).toJson(RELAXED), json(RedactionPolicy.specOnly(), "find", FIND));
    }

    @Test
    void sequenceLimitShowsTheFirstDocumentsAndCountsTheRest() {
        String five = "[{\"a\": 1}, {\"a\": 2}, {\"a\": 3}, {\"a\": 4}, {\"a\": 5}]";
        assertEquals("{\"insert\": \"users\", \"$db\": \"shop\", \"documents\": [{\"a\": \"?number\"}, {\"a\": \"?number\"},"
                        + " {\"$omitted\": 3}]}",
                json(RedactionPolicy.builder().maxSequenceDocuments(2).build(), "insert", INSERT, "documents", five));
        assertEquals("{\"insert\": \"users\", \"$db\": \"shop\", \"documents\": [{\"$omitted\": 5}]}",
                json(RedactionPolicy.builder().maxSequenceDocuments(0).build(), "insert", INSERT, "documents", five));
        assertEquals("{\"insert\": \"users\", \"$db\": \"shop\", \"documents\": [{\"a\": 1}, {\"a\": 2}, {\"$omitted\": 3}]}",
                json(RedactionPolicy.builder(RedactionPolicy.specOnly()).maxSequenceDocuments(2).build(), "insert", INSERT,
                        "documents", five));
    }

    @Test
    void replyBatchLimitUnderAKeptCursor() {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .policy(RedactionPolicy.builder(RedactionPolicy.specOnly()).maxSequenceDocuments(1).build())
                .addListener(last).build();
        BsonDocument reply = BsonDocument.parse("{\"cursor\": {\"firstBatch\": [{\"a\": 1}, {\"a\": 2}, {\"a\": 3}], \"id\": 0,"
                + " \"ns\": \"shop.users\"}, \"ok\": 1}");
        listener.commandSucceeded(DriverShapes.succeeded(1, "find", DriverShapes.byteBacked(reply, Backing.RAW)));
        assertEquals("{\"cursor\": {\"firstBatch\": [{\"a\": 1}, {\"$omitted\": 2}], \"id\": 0, \"ns\": \"shop.users\"}, \"ok\": 1}",
                last.succeeded.getResponse().toJson(RELAXED));
    }

    @Test
    void replyBatchLimitHoldsInACursorMeasuredUnderACap() {
        // the cut falls after the cursor: the cursor is measured whole, its batch limited, then written as measured
        StringBuilder batch = new StringBuilder();
        for (int i = 1; i <= 10; i++) {
            batch.append(i > 1 ? ", " : "").append("{\"a\": ").append(i).append('}');
        }
        String note = "x".repeat(200);
        BsonDocument reply = BsonDocument.parse("{\"cursor\": {\"firstBatch\": [" + batch + "], \"id\": 0, \"ns\":"
                + " \"shop.users\"}, \"ok\": 1, \"note\": \"" + note + "\"}");
        for (Backing backing : new Backing[]{Backing.RAW, Backing.BYTE_BUF_HEAP}) {
            LastEventListener last = new LastEventListener();
            RedactingCommandListener listener = RedactingCommandListener.builder()
                    .policy(RedactionPolicy.builder(RedactionPolicy.specOnly()).maxSequenceDocuments(1).maxDocumentBytes(150)
                            .build())
                    .addListener(last).build();
            listener.commandSucceeded(DriverShapes.succeeded(1, "find", DriverShapes.byteBacked(reply, backing)));
            BsonDocument copy = last.succeeded.getResponse();
            int length = RawBytes.length((RawBsonDocument) copy);
            assertTrue(length <= 150, "length " + length + " over the cap 150: " + copy.toJson());
            assertEquals("{\"cursor\": {\"firstBatch\": [{\"a\": 1}, {\"$omitted\": 9}], \"id\": 0, \"ns\": \"shop.users\"},"
                    + " \"ok\": 1, \"$truncatedBytes\": " + copy.getInt64("$truncatedBytes").getValue() + "}", copy.toJson(RELAXED));
        }
    }

    /**
     * A policy with no rule that redacts what nothing names: the reply's {@code cursor} is walked element by element, its
     * batch limited, where a run that replaces every value took the cursor whole and showed the whole batch (the property
     * {@code capCutsRepliesAtElementBoundaryAndSaysHowMuch}, seed 1305126695: limited only once a cap made the walk measure).
     */
    @Test
    void replyBatchLimitHoldsWhereNoRuleNamesTheCursor() {
        for (FieldAction unmatched : new FieldAction[]{FieldAction.REDACT, FieldAction.REDACT_KEYS}) {
            for (String batch : new String[]{"firstBatch", "nextBatch"}) {
                LastEventListener last = new LastEventListener();
                RedactingCommandListener listener = RedactingCommandListener.builder()
                        .policy(RedactionPolicy.builder(RedactionPolicy.specOnly()).unmatchedReplyAction(unmatched)
                                .maxSequenceDocuments(1).build())
                        .addListener(last).build();
                BsonDocument reply = BsonDocument.parse("{\"cursor\": {\"" + batch + "\": [{\"a\": 1}, {\"a\": 2}, {\"a\": 3}],"
                        + " \"id\": 0, \"ns\": \"shop.users\"}, \"ok\": 1}");
                listener.commandSucceeded(DriverShapes.succeeded(1, batch.equals("firstBatch") ? "find" : "getMore",
                        DriverShapes.byteBacked(reply, Backing.RAW)));
                BsonDocument cursor = last.succeeded.getResponse().getDocument("cursor");
                BsonArray shown = cursor.getArray(cursor.getFirstKey());
                assertEquals(2, shown.size(), unmatched + " " + batch + ": " + cursor.toJson());
                assertEquals(2, shown.get(1).asDocument().getInt32("$omitted").getValue(), cursor.toJson());
            }
        }
    }

    @Test
    void replyRuleKeepsAFieldOfEveryBatchDocument() {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .policy(RedactionPolicy.builder().replyField("cursor.firstBatch.status", FieldAction.KEEP).build())
                .addListener(last).build();
        BsonDocument reply = BsonDocument.parse("{\"cursor\": {\"firstBatch\": [{\"status\": \"active\", \"email\": \"a@b.c\"}],"
                + " \"id\": 0, \"ns\": \"shop.users\"}, \"ok\": 1}");
        listener.commandSucceeded(DriverShapes.succeeded(1, "find", DriverShapes.byteBacked(reply, Backing.BYTE_BUF_HEAP)));
        assertEquals("{\"cursor\": {\"firstBatch\": [{\"status\": \"active\", \"email\": \"?string\"}], \"id\": 0, \"ns\":"
                + " \"shop.users\"}, \"ok\": 1}", last.succeeded.getResponse().toJson(RELAXED));
    }

    @Test
    void capCutsAtAnElementBoundaryAndSaysHowMuchWasCut() {
        RedactionPolicy uncapped = RedactionPolicy.defaults();
        int full = RawBytes.length((RawBsonDocument) forward(uncapped, "find", FIND));
        for (int cap : new int[]{64, 100}) {
            BsonDocument cut = forward(RedactionPolicy.builder().maxDocumentBytes(cap).build(), "find", FIND);
            int length = RawBytes.length((RawBsonDocument) cut);
            assertTrue(length <= cap, "length " + length + " cap " + cap);
            List<String> keys = new ArrayList<>(cut.keySet());
            assertEquals("$truncatedBytes", keys.get(keys.size() - 1));
            assertEquals(full, length - 25 + cut.getInt64("$truncatedBytes").getValue(), cut.toJson());
        }
        assertEquals("{\"find\": \"users\", \"filter\": {\"status\": \"?string\", \"email\": \"?string\"}, \"$truncatedBytes\": 93}",
                json(RedactionPolicy.builder().maxDocumentBytes(100).build(), "find", FIND));
        // a cap the output fits under changes nothing
        assertEquals(json(uncapped, "find", FIND), json(RedactionPolicy.builder().maxDocumentBytes(full).build(), "find", FIND));
    }
}
