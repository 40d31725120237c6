package io.github.mongoredact.internal.rules;

import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.DriverShapes.Backing;
import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.HeapUse;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.StartedCommand;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The collection-name cache keeps a bounded number of short names and nothing else, and resolves every name correctly. */
class CollectionNamesTest {
    private static final int LARGE_FIELD = 512 * 1024;
    private static final BsonDocument OK = DriverShapes.byteBacked(new BsonDocument("ok", new BsonInt32(1)), Backing.RAW);

    @Test
    void collectionNameIsCachedAndResolvedWithoutAllocation() {
        CollectionNames names = new CollectionNames();
        byte[] bytes = utf8("xxcustomers.archive-2024_ünïcode");
        String first = names.resolve(bytes, 2, bytes.length - 2);
        assertEquals("customers.archive-2024_ünïcode", first);
        assertSame(first, names.resolve(bytes.clone(), 2, bytes.length - 2));
        assertEquals(1, names.size());
    }

    @Test
    void valuesThatAreNotCollectionNamesAreResolvedButNotKept() {
        CollectionNames names = new CollectionNames();
        String[] notNames = {"", "$where", "a$b", "a\u0000b", "line\nbreak", "x".repeat(CollectionNames.MAX_NAME_BYTES + 1),
            "é".repeat(128)};
        for (String value : notNames) {
            byte[] bytes = utf8(value);
            String resolved = names.resolve(bytes, 0, bytes.length);
            assertEquals(value, resolved);
            assertNotSame(resolved, names.resolve(bytes, 0, bytes.length), value);
        }
        byte[] malformed = {'a', (byte) 0xc3, 'b'};
        assertEquals(new String(malformed, StandardCharsets.UTF_8), names.resolve(malformed, 0, 3));
        byte[] surrogate = {(byte) 0xed, (byte) 0xa0, (byte) 0x80};
        names.resolve(surrogate, 0, 3);
        byte[] overlong = {(byte) 0xc0, (byte) 0xaf};
        names.resolve(overlong, 0, 2);
        assertEquals(0, names.size());
        assertEquals(0, names.heldBytes());
    }

    @Test
    void longestNameAndSystemNamesAreCached() {
        CollectionNames names = new CollectionNames();
        for (String value : new String[]{"x".repeat(CollectionNames.MAX_NAME_BYTES), "$cmd", "system.views", "日本語"}) {
            byte[] bytes = utf8(value);
            assertSame(names.resolve(bytes, 0, bytes.length), names.resolve(bytes, 0, bytes.length), value);
        }
        assertEquals(4, names.size());
    }

    @Test
    void cacheHoldsAtMostItsSlotsWhateverTheNumberOfNames() {
        CollectionNames names = new CollectionNames();
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes = utf8("tenant_" + i + "_" + "c".repeat(240));
            assertEquals("tenant_" + i + "_" + "c".repeat(240), names.resolve(bytes, 0, bytes.length));
        }
        assertTrue(names.size() <= CollectionNames.SLOTS, "size=" + names.size());
        assertTrue(names.heldBytes() <= (long) CollectionNames.SLOTS * CollectionNames.MAX_NAME_BYTES,
                "held=" + names.heldBytes());
    }

    @Test
    void thousandCommandsWithLargeFirstFieldLeaveTheSharedCacheSmall() {
        // the walker hands the first string field of every command to the shared cache: a log message, code or user name of
        // 512 KiB must be resolved for the sink, not kept
        String[] commands = {"find", "aggregate", "count", "distinct"};
        String[] seen = new String[1];
        CommandSink sink = new CommandSink() {
            @Override
            public boolean needsDocuments() {
                return false;
            }

            @Override
            public void started(final StartedCommand command) {
                seen[0] = command.getCollectionName();
            }

            @Override
            public void completed(final CompletedCommand command) {
            }
        };
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addSink(sink).build();
        CollectionNames shared = CollectionNames.shared();
        long heldBefore = shared.heldBytes();
        byte[][] commandBytes = new byte[commands.length][];
        for (int c = 0; c < commands.length; c++) {
            commandBytes[c] = commandWithStringField(commands[c], LARGE_FIELD);
        }
        long heapBefore = HeapUse.settled();
        for (int i = 0; i < 1000; i++) {
            String commandName = commands[i % commands.length];
            byte[] bytes = commandBytes[i % commands.length];
            int value = valueOffset(commandName);
            // a different first field each time: the first three characters count the commands
            bytes[value] = (byte) ('a' + i % 26);
            bytes[value + 1] = (byte) ('a' + i / 26 % 26);
            bytes[value + 2] = (byte) ('a' + i / 676);
            listener.commandStarted(DriverShapes.started(i, commandName, new RawBsonDocument(bytes)));
            assertEquals(LARGE_FIELD, seen[0].length());
            assertEquals(new String(bytes, value, 3, StandardCharsets.US_ASCII), seen[0].substring(0, 3));
            // completed, so that the in-flight table lets the started command go
            listener.commandSucceeded(DriverShapes.succeeded(i, commandName, OK));
        }
        seen[0] = null;
        long heapAfter = HeapUse.settled();
        long held = shared.heldBytes();
        System.out.println("memory: names cache after 1000 commands with a 512 KiB first field: holds " + shared.size()
                + " names, " + held + " bytes; heap " + heapBefore + " -> " + heapAfter);
        assertEquals(0, listener.getCounters().getRedactionFailures());
        assertEquals(heldBefore, held);
        // before the bound the cache kept about 650 MB here; allow the collector's noise, not one kept field per slot
        assertTrue(heapAfter - heapBefore < 32L << 20, "heap grew by " + (heapAfter - heapBefore));
    }

    /** @return {@code {<name>: "xxx...", $db: "shop"}} with a string of {@code length} ASCII letters */
    private static byte[] commandWithStringField(final String name, final int length) {
        String value = "x".repeat(length);
        BsonDocument command = new BsonDocument(name, new BsonString(value)).append("$db", new BsonString("shop"));
        byte[] bytes = DriverShapes.encode(command);
        assertEquals('x', bytes[valueOffset(name)]);
        return bytes;
    }

    /** @return where the first field's string starts: after the length, type, key and its NUL, and the string's length */
    private static int valueOffset(final String name) {
        return 4 + 1 + name.length() + 1 + 4;
    }

    private static byte[] utf8(final String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
