package io.github.mongoredact;

import io.github.mongoredact.DriverShapes.Backing;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The query-shape fingerprint handed to sinks: the same for commands that differ only in values or session metadata, different
 * for different keys, operators, types or collections.
 */
class FingerprintTest {

    static long fingerprint(final String name, final BsonDocument command) {
        return started(RedactionPolicy.defaults(), name, command).getFingerprint();
    }

    static StartedCommand started(final RedactionPolicy policy, final String name, final BsonDocument command) {
        List<StartedCommand> started = new ArrayList<>();
        CommandSink sink = new CommandSink() {
            @Override
            public void started(final StartedCommand command) {
                started.add(command);
            }
        };
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addSink(sink).build();
        listener.commandStarted(DriverShapes.started(1, name, command));
        assertEquals(0, listener.getCounters().getRedactionFailures());
        return started.get(0);
    }

    static BsonDocument find(final String collection, final BsonDocument filter) {
        return DriverShapes.byteBacked(new BsonDocument("find", new BsonString(collection)).append("filter", filter)
                .append("limit", new BsonInt32(10)).append("$db", new BsonString("shop")), Backing.BYTE_BUF_HEAP_IN_MESSAGE);
    }

    static BsonDocument email(final String operator, final String value) {
        return new BsonDocument("email", new BsonDocument(operator, new BsonString(value)));
    }

    @Test
    void findsDifferingOnlyInValuesShareIt() {
        long alice = fingerprint("find", find("users", email("$eq", "alice@example.com")));
        long bob = fingerprint("find", find("users", email("$eq", "bob@example.com")));
        assertEquals(alice, bob);
        // a kept value (the limit) does not count either, nor a number of another width
        BsonDocument other = new BsonDocument("find", new BsonString("users")).append("filter", email("$eq", "carol@example.com"))
                .append("limit", new BsonInt32(500)).append("$db", new BsonString("shop"));
        assertEquals(alice, fingerprint("find", DriverShapes.byteBacked(other, Backing.RAW)));
        assertEquals(fingerprint("find", find("users", new BsonDocument("n", new BsonInt32(1)))),
                fingerprint("find", find("users", new BsonDocument("n", new BsonInt64(1L << 40)))));
    }

    @Test
    void differentKeysOperatorsTypesAndCollectionsDiffer() {
        long base = fingerprint("find", find("users", email("$eq", "alice@example.com")));
        assertNotEquals(base, fingerprint("find", find("users", new BsonDocument("mail", new BsonDocument("$eq",
                new BsonString("alice@example.com"))))), "key");
        assertNotEquals(base, fingerprint("find", find("users", email("$ne", "alice@example.com"))), "operator");
        assertNotEquals(base, fingerprint("find", find("customers", email("$eq", "alice@example.com"))), "collection");
        assertNotEquals(base, fingerprint("find", find("users", new BsonDocument("email", new BsonDocument("$eq",
                new BsonInt32(3))))), "placeholder type");
        assertNotEquals(base, fingerprint("find", find("users", email("$eq", "alice@example.com")
                .append("age", new BsonInt32(3)))), "one more key");
        BsonDocument count = DriverShapes.byteBacked(new BsonDocument("count", new BsonString("users"))
                .append("filter", email("$eq", "alice@example.com")).append("limit", new BsonInt32(10))
                .append("$db", new BsonString("shop")), Backing.RAW);
        assertNotEquals(base, fingerprint("count", count), "command name");
    }

    @Test
    void sessionAndClusterMetadataDoNotChangeIt() {
        BsonDocument plain = new BsonDocument("find", new BsonString("users")).append("filter", email("$eq", "a@example.com"))
                .append("$db", new BsonString("shop"));
        long base = fingerprint("find", DriverShapes.byteBacked(plain, Backing.BYTE_BUF_HEAP));
        for (int i = 0; i < 3; i++) {
            BsonDocument withSession = plain.clone()
                    .append("lsid", new BsonDocument("id", new BsonBinary(UUID.randomUUID())))
                    .append("txnNumber", new BsonInt64(i + 1))
                    .append("$clusterTime", new BsonDocument("clusterTime", new BsonTimestamp(1_700_000_000 + i, i))
                            .append("signature", new BsonDocument("hash", new BsonBinary(new byte[20]))
                                    .append("keyId", new BsonInt64(i))));
            assertEquals(base, fingerprint("find", DriverShapes.byteBacked(withSession, Backing.BYTE_BUF_HEAP)), "case " + i);
        }
    }

    @Test
    void insertsOfOneAndThousandDocumentsOfTheSameShapeShareIt() {
        BsonDocument top = new BsonDocument("insert", new BsonString("users")).append("ordered", BsonBoolean.TRUE)
                .append("$db", new BsonString("shop"));
        long[] prints = new long[3];
        int[] counts = {1, 2, 1000};
        for (int c = 0; c < counts.length; c++) {
            List<BsonDocument> documents = new ArrayList<>();
            for (int i = 0; i < counts[c]; i++) {
                documents.add(new BsonDocument("email", new BsonString("u" + i + c + "@example.com")).append("n", new BsonInt32(i)));
            }
            StartedCommand started = started(RedactionPolicy.defaults(), "insert",
                    DriverShapes.withSequences(top, Backing.BYTE_BUF_HEAP_IN_MESSAGE, "documents", documents));
            prints[c] = started.getFingerprint();
            assertEquals("users", started.getCollectionName());
        }
        assertEquals(prints[0], prints[1]);
        assertEquals(prints[0], prints[2]);
        List<BsonDocument> otherShape = List.of(new BsonDocument("name", new BsonString("x")));
        assertNotEquals(prints[0], started(RedactionPolicy.defaults(), "insert",
                DriverShapes.withSequences(top, Backing.RAW, "documents", otherShape)).getFingerprint());
    }

    @Test
    void theSameCommandHasTheSameFingerprintWhateverBacksIt() {
        BsonDocument find = new BsonDocument("find", new BsonString("users")).append("filter", email("$in", "x"))
                .append("$db", new BsonString("shop"));
        long expected = fingerprint("find", DriverShapes.byteBacked(find, Backing.RAW));
        for (Backing backing : Backing.values()) {
            assertEquals(expected, fingerprint("find", DriverShapes.byteBacked(find, backing)), backing.name());
        }
    }

    @Test
    void sinksGetCollectionAndSize() {
        BsonDocument find = new BsonDocument("find", new BsonString("users")).append("filter", email("$eq", "a@example.com"))
                .append("$db", new BsonString("shop"));
        StartedCommand started = started(RedactionPolicy.defaults(), "find", DriverShapes.byteBacked(find, Backing.BYTE_BUF_DIRECT));
        assertEquals("users", started.getCollectionName());
        assertEquals(DriverShapes.encode(find).length, started.getCommandSize());
        BsonDocument ping = new BsonDocument("ping", new BsonInt32(1)).append("$db", new BsonString("admin"));
        assertNull(started(RedactionPolicy.defaults(), "ping", DriverShapes.byteBacked(ping, Backing.RAW)).getCollectionName());
    }
}
