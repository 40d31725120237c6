package io.github.mongoredact.spec;

import io.github.mongoredact.DriverShapes;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The spec runner itself can fail: its matcher, its verdict on known faults, and its check of forwarded events. */
class RunnerSelfTest {

    private static List<Mismatch> match(final String expected, final String actual) {
        List<Mismatch> out = new ArrayList<>();
        Matcher.matchRoot(BsonDocument.parse(expected), BsonDocument.parse(actual), "doc", out);
        return out;
    }

    @Test
    void allowsExtraFieldsAtTheRootOnly() {
        assertEquals(0, match("{\"a\": {\"b\": 1}}", "{\"a\": {\"b\": 1}, \"z\": 2}").size());
        assertEquals(1, match("{\"a\": {\"b\": 1}}", "{\"a\": {\"b\": 1, \"z\": 2}}").size());
        assertEquals(0, match("{\"a\": {\"$$matchAsRoot\": {\"b\": 1}}}", "{\"a\": {\"b\": 1, \"z\": 2}}").size());
    }

    @Test
    void matchesNumbersAcrossTypesByValue() {
        assertEquals(0, match("{\"ok\": 1}", "{\"ok\": 1.0}").size());
        assertEquals(0, match("{\"n\": 2}", "{\"n\": {\"$numberLong\": \"2\"}}").size());
        assertEquals(1, match("{\"n\": 2}", "{\"n\": 3}").size());
        assertEquals(1, match("{\"n\": 2}", "{\"n\": \"2\"}").size());
    }

    @Test
    void appliesTheOperators() {
        assertEquals(0, match("{\"a\": {\"$$exists\": false}}", "{}").size());
        assertEquals(1, match("{\"a\": {\"$$exists\": false}}", "{\"a\": 1}").size());
        assertEquals(1, match("{\"a\": {\"$$exists\": true}}", "{}").size());
        assertEquals(0, match("{\"a\": {\"$$unsetOrMatches\": false}}", "{}").size());
        assertEquals(1, match("{\"a\": {\"$$unsetOrMatches\": false}}", "{\"a\": true}").size());
        assertEquals(0, match("{\"a\": {\"$$type\": [\"int\", \"long\"]}}", "{\"a\": {\"$numberLong\": \"5\"}}").size());
        assertEquals(1, match("{\"a\": {\"$$type\": \"string\"}}", "{\"a\": 5}").size());
        assertEquals(0, match("{\"a\": {\"$$matchAsDocument\": {}}}", "{\"a\": \"{}\"}").size());
        assertEquals(1, match("{\"a\": {\"$$matchAsDocument\": {}}}", "{\"a\": \"{\\\"x\\\": 1}\"}").size());
        assertEquals(1, match("{\"a\": [1, 2]}", "{\"a\": [1]}").size());
        assertEquals(1, match("{\"a\": {\"$$bogus\": 1}}", "{\"a\": 1}").size());
    }

    /** A fault list of the self-test's own: the product's list is empty once its faults are fixed. */
    private static final Map<String, Mismatch.Kind> LISTED = Map.of(ProseTests.EXACT_LIMIT, Mismatch.Kind.EXACT_LENGTH_CUT);

    @Test
    void failsAListedTestThatNowPasses() {
        AssertionFailedError error = assertThrows(AssertionFailedError.class,
                () -> KnownProductFaults.judge(LISTED, ProseTests.EXACT_LIMIT, List.of()));
        assertTrue(error.getMessage().contains("now passes: remove from KnownProductFaults"), error.getMessage());
    }

    @Test
    void failsAListedTestThatFailsForAnotherReasonToo() {
        List<Mismatch> mismatches = List.of(new Mismatch(Mismatch.Kind.EXACT_LENGTH_CUT, "cut"), Mismatch.other("else"));
        assertThrows(AssertionFailedError.class, () -> KnownProductFaults.judge(LISTED, ProseTests.EXACT_LIMIT, mismatches));
        List<Mismatch> wrongKind = List.of(new Mismatch(Mismatch.Kind.FAILURE_TEXT_NOT_CUT, "cut"));
        assertThrows(AssertionFailedError.class, () -> KnownProductFaults.judge(LISTED, ProseTests.EXACT_LIMIT, wrongKind));
        assertDoesNotThrow(() -> KnownProductFaults.judge(LISTED, ProseTests.EXACT_LIMIT,
                List.of(new Mismatch(Mismatch.Kind.EXACT_LENGTH_CUT, "cut"))));
        assertThrows(AssertionFailedError.class, () -> KnownProductFaults.judge(LISTED, "not listed", List.of(Mismatch.other("x"))));
    }

    /** An event forwarded unredacted (here put straight into the capture, past the listener) is caught. */
    @Test
    void catchesASensitiveCommandForwardedUnredacted() {
        SpecCase getnonce = SpecCase.loadAll().stream()
                .filter(c -> c.id.equals("monitoring/redacted-commands.json: getnonce")).findFirst().orElseThrow();
        List<Mismatch> out = new ArrayList<>();
        try (Entities entities = new Entities(null)) {
            entities.create(getnonce.createEntities());
            Entities.Client client = entities.clients.get("client");
            BsonDocument command = new BsonDocument("getnonce", new org.bson.BsonInt32(1)).append("$db", new BsonString("x"));
            client.observed.commandStarted(DriverShapes.started(1, "getnonce", command));
            BsonValue reply = Shapes.serverReply("getnonce", command);
            client.observed.commandSucceeded(DriverShapes.succeeded(1, "getnonce", reply.asDocument()));
            new Expectations(entities, out, List.of()).checkAll(getnonce);
        }
        assertEquals(3, out.size(), out.toString());
    }
}
