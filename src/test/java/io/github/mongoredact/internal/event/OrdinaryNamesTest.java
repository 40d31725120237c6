package io.github.mongoredact.internal.event;

import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Only names whose events the spec never redacts are remembered: sensitive names and hellos are checked every time. */
class OrdinaryNamesTest {
    private static final BsonDocument PING = new BsonDocument("ping", new BsonInt32(1));
    private static final BsonDocument SPECULATIVE = new BsonDocument("hello", new BsonInt32(1))
            .append("speculativeAuthenticate", new BsonDocument());

    @Test
    void remembersOrdinaryNamesOnly() {
        OrdinaryNames names = new OrdinaryNames();
        assertFalse(names.isSensitiveCommand("find", PING));
        assertTrue(names.isOrdinary("find"));
        assertFalse(names.isOrdinary("FIND"), "another name");
        for (String sensitive : new String[]{"saslStart", "SASLSTART", "Authenticate", "createUser", "copydb"}) {
            assertTrue(names.isSensitiveCommand(sensitive, PING), sensitive);
            assertTrue(names.isSensitiveCommand(sensitive, PING), "still sensitive the second time: " + sensitive);
            assertFalse(names.isOrdinary(sensitive), sensitive);
        }
    }

    @Test
    void neverRemembersAHelloWhoseSensitivityDependsOnItsDocument() {
        OrdinaryNames names = new OrdinaryNames();
        for (String hello : new String[]{"hello", "isMaster", "ismaster", "HELLO"}) {
            assertFalse(names.isSensitiveCommand(hello, PING), hello);
            assertFalse(names.isOrdinary(hello), hello);
            assertTrue(names.isSensitiveCommand(hello, SPECULATIVE), hello);
        }
    }

    @Test
    void aNameTakesOnlyItsOwnSlotAndLongNamesAreNotHeld() {
        OrdinaryNames names = new OrdinaryNames();
        for (int i = 0; i < OrdinaryNames.SLOTS * 4; i++) {
            assertFalse(names.isSensitiveCommand("command" + i, PING));
        }
        assertTrue(names.isSensitiveCommand("saslContinue", PING), "a full table does not change the answer");
        String tooLong = "x".repeat(OrdinaryNames.MAX_NAME_LENGTH + 1);
        assertFalse(names.isSensitiveCommand(tooLong, PING));
        assertFalse(names.isOrdinary(tooLong));
    }

    @Test
    void theCommandsSentMostAreHeldTogetherAndAnEqualNewStringIsFound() {
        OrdinaryNames names = new OrdinaryNames();
        String[] common = {"find", "insert", "update", "delete", "aggregate", "getMore", "count", "distinct",
            "findAndModify", "killCursors", "endSessions"};
        for (String name : common) {
            assertFalse(names.isSensitiveCommand(name, PING), name);
        }
        for (String name : common) {
            // as the driver decodes it from each command: an equal string, not the same instance
            assertTrue(names.isOrdinary(new String(name.toCharArray())), name);
        }
        assertFalse(names.isOrdinary(""));
        assertFalse(names.isSensitiveCommand("", PING));
    }
}
