package io.github.mongoredact;

import io.github.mongoredact.DriverShapes.Backing;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.json.TruncatedJson;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No recursion whose depth the input decides: a document nested deeper than any the driver writes ({@link BsonBounds#MAX_DEPTH}
 * levels and more), byte-backed in every backing or as the plain top level the driver builds for insert (whose {@code let} can
 * nest), goes through the listener on a thread with a 256 KiB stack under {@link RedactionPolicy#defaults()} and
 * {@link RedactionPolicy#specOnly()} and comes out as the marker, never as an exception; the driver's own depth is redacted
 * ({@link DriverDepthTest} holds it under every sink).
 */
class DeepNestingTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();

    /** Two more levels than the deepest document read (the filter's chain, the innermost document and the top). */
    private static final int LEVELS = BsonBounds.MAX_DEPTH;
    private static final String SECRET = "alice@example.com";

    /** {@code {"find": "c", "filter": {"d": {"d": ... {"email": SECRET}}}, "$db": "shop"}}, built without recursion. */
    static byte[] deepFind(final int levels) {
        byte[] inner = DriverShapes.encode(new BsonDocument("email", new BsonString(SECRET)));
        byte[] head = {0x03, 'd', 0};
        // each level adds: length (4), type, "d", NUL, ..., terminator
        int size = inner.length + levels * (4 + head.length + 1);
        byte[] nested = new byte[size];
        int length = size;
        for (int level = 0; level < levels; level++) {
            int at = level * (4 + head.length);
            writeInt(nested, at, length);
            System.arraycopy(head, 0, nested, at + 4, head.length);
            nested[at + length - 1] = 0;
            length -= 4 + head.length + 1;
        }
        System.arraycopy(inner, 0, nested, levels * (4 + head.length), inner.length);
        byte[] prefix = DriverShapes.encode(new BsonDocument("find", new BsonString("c")));
        byte[] suffix = DriverShapes.encode(new BsonDocument("$db", new BsonString("shop")));
        // top: length, prefix's elements, 0x03 "filter" NUL nested, suffix's elements, terminator
        byte[] filterKey = {0x03, 'f', 'i', 'l', 't', 'e', 'r', 0};
        int total = 4 + (prefix.length - 5) + filterKey.length + nested.length + (suffix.length - 5) + 1;
        byte[] top = new byte[total];
        writeInt(top, 0, total);
        int at = 4;
        System.arraycopy(prefix, 4, top, at, prefix.length - 5);
        at += prefix.length - 5;
        System.arraycopy(filterKey, 0, top, at, filterKey.length);
        at += filterKey.length;
        System.arraycopy(nested, 0, top, at, nested.length);
        at += nested.length;
        System.arraycopy(suffix, 4, top, at, suffix.length - 5);
        return top;
    }

    static void writeInt(final byte[] b, final int index, final int value) {
        b[index] = (byte) value;
        b[index + 1] = (byte) (value >>> 8);
        b[index + 2] = (byte) (value >>> 16);
        b[index + 3] = (byte) (value >>> 24);
    }

    /** The plain top level of an insert whose {@code let} nests 1000 levels, with one byte-backed document in its sequence. */
    static BsonDocument deepPlainInsert(final int levels) {
        BsonDocument let = new BsonDocument("email", new BsonString(SECRET));
        for (int i = 0; i < levels; i++) {
            let = new BsonDocument("d", let);
        }
        BsonDocument top = new BsonDocument("insert", new BsonString("c")).append("let", let)
                .append("$db", new BsonString("shop"));
        top.append("documents", new BsonArray(List.of(Backing.BYTE_BUF_HEAP.apply(DriverShapes.encode(
                new BsonDocument("email", new BsonString(SECRET)))))));
        return top;
    }

    @Test
    void deeperThanTheDriverWritesOnA256KiBStackBecomesTheMarker() throws InterruptedException {
        List<String> outcomes = new ArrayList<>();
        DriverDepthTest.onSmallStack(() -> {
            for (RedactionPolicy policy : new RedactionPolicy[]{RedactionPolicy.defaults(), RedactionPolicy.specOnly()}) {
                for (Backing backing : Backing.values()) {
                    outcomes.add(policy + " " + backing + " command: " + started(policy, "find",
                            backing.apply(deepFind(LEVELS))));
                    outcomes.add(policy + " " + backing + " reply: " + succeeded(policy, backing.apply(deepFind(LEVELS))));
                }
                outcomes.add(policy + " plain: " + started(policy, "insert", deepPlainInsert(LEVELS)));
            }
        });
        assertEquals(2 * (2 * Backing.values().length + 1), outcomes.size());
        for (String outcome : outcomes) {
            assertTrue(outcome.contains("$redactionError"), outcome);
            assertFalse(outcome.contains(SECRET), outcome);
        }
        warnings.assertSaid("a marker document was forwarded in its place");
    }

    @Test
    void nestingUpToTheCapIsRedactedNotRefused() {
        // the cap is a constant above the driver's depth: 1024 levels with the top (the driver's) come out redacted, the value
        // gone
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(last).build();
        listener.commandStarted(DriverShapes.started(1, "find", Backing.RAW.apply(deepFind(BsonBounds.DRIVER_MAX_DEPTH - 2))));
        String json = TruncatedJson.render(last.started.getCommand(), 0);
        assertFalse(json.contains("$redactionError"), json);
        assertTrue(json.contains("\"email\": \"?string\""), json);
    }

    private static String started(final RedactionPolicy policy, final String name, final BsonDocument command) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
        listener.commandStarted(DriverShapes.started(1, name, command));
        return last.started.getCommand().toJson();
    }

    private static String succeeded(final RedactionPolicy policy, final BsonDocument reply) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
        listener.commandSucceeded(DriverShapes.succeeded(1, "find", reply));
        return last.succeeded.getResponse().toJson();
    }
}
