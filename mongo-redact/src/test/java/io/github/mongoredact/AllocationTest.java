package io.github.mongoredact;

import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.DriverShapes.Backing;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.RawBsonDocument;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bytes allocated per call on the driver's thread, counted by the JVM ({@code ThreadMXBean#getThreadAllocatedBytes}) after
 * warm-up and averaged over many calls. Downstream is a plain listener that keeps the last event in a field. The budget: the
 * output array plus at most 512 bytes (the forwarded event and its wrapper); a command redacted by the spec, under 64 bytes.
 */
class AllocationTest {
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 10_000;
    private static final int OVERHEAD_BUDGET = 512;
    private static final int SPEC_REDACTED_BUDGET = 64;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @BeforeAll
    static void allocationCountingIsAvailable() {
        assertTrue(THREADS.isThreadAllocatedMemorySupported());
        THREADS.setThreadAllocatedMemoryEnabled(true);
    }

    static Stream<Arguments> policies() {
        return Stream.of(Arguments.of("specOnly", RedactionPolicy.specOnly()), Arguments.of("defaults", RedactionPolicy.defaults()));
    }

    static Stream<Arguments> policiesAndBackings() {
        List<Arguments> cases = new ArrayList<>();
        for (Backing backing : new Backing[]{Backing.BYTE_BUF_HEAP_IN_MESSAGE, Backing.BYTE_BUF_DIRECT, Backing.RAW}) {
            cases.add(Arguments.of("specOnly", RedactionPolicy.specOnly(), backing));
            cases.add(Arguments.of("defaults", RedactionPolicy.defaults(), backing));
        }
        return cases.stream();
    }

    static Stream<Arguments> insertCases() {
        // under every policy but the verbatim one the plain top level and its sequence documents are read by the one walk
        // the same way whatever backs the documents, so the slow defaults walk is measured once, over
        // the driver's documents on a direct buffer (the copy that could allocate if any did)
        return Stream.of(Arguments.of("specOnly", RedactionPolicy.specOnly(), Backing.BYTE_BUF_HEAP_IN_MESSAGE),
                Arguments.of("specOnly", RedactionPolicy.specOnly(), Backing.BYTE_BUF_DIRECT),
                Arguments.of("specOnly", RedactionPolicy.specOnly(), Backing.RAW),
                Arguments.of("defaults", RedactionPolicy.defaults(), Backing.BYTE_BUF_DIRECT));
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("insertCases")
    void insertOfThousandDocumentsAllocatesOnlyTheOutput(final String name, final RedactionPolicy policy,
                                                          final Backing backing) {
        List<BsonDocument> documents = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            documents.add(new BsonDocument("_id", new BsonObjectId(new ObjectId(1_700_000_000, i)))
                    .append("email", new BsonString("c" + i + "@example.com")).append("n", new BsonInt32(i)));
        }
        BsonDocument top = new BsonDocument("insert", new BsonString("customers")).append("ordered", BsonBoolean.TRUE)
                .append("lsid", new BsonDocument("id", new BsonBinary(UUID.randomUUID())))
                .append("txnNumber", new BsonInt64(1))
                .append("$db", new BsonString("shop"));
        BsonDocument command = DriverShapes.withSequences(top, backing, "documents", documents);
        // each call runs the per-document loops 1000 times: a short warm-up compiles them
        assertStartedBudget("insert 1000 " + name + " " + backing, policy, "insert", command, 2_000);
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("policiesAndBackings")
    void commandWithoutSequenceAllocatesOnlyTheOutput(final String name, final RedactionPolicy policy, final Backing backing) {
        BsonDocument find = new BsonDocument("find", new BsonString("customers"))
                .append("filter", new BsonDocument("email", new BsonString("alice@example.com"))
                        .append("n", new BsonDocument("$gte", new BsonInt32(3)).append("$lt", new BsonInt32(30))))
                .append("sort", new BsonDocument("n", new BsonInt32(1)))
                .append("limit", new BsonInt32(10))
                .append("batchSize", new BsonInt32(100))
                .append("lsid", new BsonDocument("id", new BsonBinary(UUID.randomUUID())))
                .append("$clusterTime", new BsonDocument("clusterTime", new BsonTimestamp(1, 1))
                        .append("signature", new BsonDocument("hash", new BsonBinary(new byte[20]))
                                .append("keyId", new BsonInt64(0))))
                .append("$db", new BsonString("shop"));
        assertStartedBudget("find " + name + " " + backing, policy, "find", DriverShapes.byteBacked(find, backing), WARM_UP);
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("policiesAndBackings")
    void replyWithBatchAllocatesOnlyTheOutput(final String name, final RedactionPolicy policy, final Backing backing) {
        List<BsonDocument> batch = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            batch.add(new BsonDocument("_id", new BsonObjectId(new ObjectId(1_700_000_000, i)))
                    .append("email", new BsonString("c" + i + "@example.com")).append("n", new BsonInt32(i)));
        }
        BsonDocument reply = DriverShapes.byteBacked(ExactCopyTest.findReply(batch), backing);
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
        CommandSucceededEvent event = DriverShapes.succeeded(1, "find", reply);
        long perCall = perCall(() -> listener.commandSucceeded(event), WARM_UP);
        int output = RawBytes.length((RawBsonDocument) last.succeeded.getResponse());
        report("find reply 100 " + name + " " + backing, perCall, output);
        assertEquals(0, listener.getCounters().getRedactionFailures());
        assertTrue(perCall <= output + OVERHEAD_BUDGET, "allocated " + perCall + " bytes per call for an output of " + output);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void specRedactedCommandAllocatesAlmostNothing(final String name, final RedactionPolicy policy) {
        BsonDocument saslStart = new BsonDocument("saslStart", new BsonInt32(1)).append("mechanism", new BsonString("SCRAM-SHA-256"))
                .append("payload", new BsonBinary("n,,n=alice,r=secret-nonce".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .append("$db", new BsonString("admin"));
        for (Backing backing : new Backing[]{Backing.BYTE_BUF_HEAP_IN_MESSAGE, Backing.RAW}) {
            LastEventListener last = new LastEventListener();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
            CommandStartedEvent event = DriverShapes.started(1, "saslStart", DriverShapes.byteBacked(saslStart, backing));
            long perCall = perCall(() -> listener.commandStarted(event), WARM_UP);
            report("saslStart " + name + " " + backing, perCall, 0);
            assertTrue(last.started.getCommand().isEmpty());
            assertTrue(perCall < SPEC_REDACTED_BUDGET, "allocated " + perCall + " bytes per call for saslStart");
        }
    }

    @Test
    void commandLargerThanTheRetainedScratchReusesItsScratchArray() {
        // over 1 MiB: the scratch array that gathers it is borrowed from the shared pool and given back, not allocated per
        // call. An allocation per call would add the command's whole size; 100 calls after warm-up show it either way.
        List<BsonDocument> documents = new ArrayList<>();
        for (int i = 0; i < 9_000; i++) {
            documents.add(new BsonDocument("email", new BsonString("bulk" + i + "@example.com"))
                    .append("note", new BsonString("n".repeat(96))).append("n", new BsonInt32(i)));
        }
        BsonDocument command = DriverShapes.withSequences(new BsonDocument("insert", new BsonString("bulk"))
                .append("$db", new BsonString("shop")), Backing.BYTE_BUF_DIRECT, "documents", documents);
        assertTrue(DriverShapes.encode(DriverShapes.merged(new BsonDocument("insert", new BsonString("bulk"))
                .append("$db", new BsonString("shop")), "documents", documents)).length > (1 << 20));
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(last).build();
        CommandStartedEvent event = DriverShapes.started(1, "insert", command);
        long perCall = perCall(() -> listener.commandStarted(event), 50, 100);
        int output = RawBytes.length((RawBsonDocument) last.started.getCommand());
        report("insert over 1 MiB defaults BYTE_BUF_DIRECT (100 calls)", perCall, output);
        assertEquals(0, listener.getCounters().getRedactionFailures());
        assertTrue(perCall <= output + OVERHEAD_BUDGET, "allocated " + perCall + " bytes per call for an output of " + output);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void sinkThatNeedsNoDocumentsGetsNoCopies(final String name, final RedactionPolicy policy) {
        // a metrics-like sink: the listener hands it facts (fingerprint, collection, sizes) and copies nothing
        CommandSink sink = new CommandSink() {
            private volatile Object last;

            @Override
            public boolean needsDocuments() {
                return false;
            }

            @Override
            public void started(final StartedCommand command) {
                last = command;
            }

            @Override
            public void completed(final CompletedCommand command) {
                last = command;
            }
        };
        List<BsonDocument> batch = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            batch.add(new BsonDocument("email", new BsonString("c" + i + "@example.com")).append("n", new BsonInt32(i)));
        }
        BsonDocument reply = DriverShapes.byteBacked(ExactCopyTest.findReply(batch), Backing.RAW);
        BsonDocument find = DriverShapes.byteBacked(new BsonDocument("find", new BsonString("customers"))
                .append("filter", new BsonDocument("email", new BsonString("alice@example.com")))
                .append("$db", new BsonString("shop")), Backing.BYTE_BUF_HEAP_IN_MESSAGE);
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addSink(sink).build();
        CommandStartedEvent started = DriverShapes.started(1, "find", find);
        CommandSucceededEvent succeeded = DriverShapes.succeeded(1, "find", reply);
        long perPair = perCall(() -> {
            listener.commandStarted(started);
            listener.commandSucceeded(succeeded);
        }, WARM_UP);
        int documents = RawBytes.length((RawBsonDocument) reply) + DriverShapes.encode(find).length;
        report("sink without documents, find + reply " + name, perPair, 0);
        assertEquals(0, listener.getCounters().getRedactionFailures());
        assertEquals(0, listener.getCounters().getInFlight());
        assertTrue(perPair < 256, "allocated " + perPair + " bytes per started + succeeded pair; the documents are "
                + documents + " bytes");
    }

    private static void assertStartedBudget(final String label, final RedactionPolicy policy, final String commandName,
                                            final BsonDocument command, final int warmUp) {
        long[] measured = startedPerCall(policy, commandName, command, warmUp, MEASURED);
        long perCall = measured[0];
        long output = measured[1];
        report(label, perCall, (int) output);
        assertTrue(perCall <= output + OVERHEAD_BUDGET, "allocated " + perCall + " bytes per call for an output of " + output
                + " (budget " + (output + OVERHEAD_BUDGET) + ")");
    }

    /**
     * Sends the command's started event to a listener under the policy, with a plain listener downstream, and checks that it
     * was redacted without a failure.
     *
     * @return the bytes allocated per started event (after {@code warmUp} events, over {@code measured}), and the length of
     *         the copy the downstream got
     */
    static long[] startedPerCall(final RedactionPolicy policy, final String commandName, final BsonDocument command,
                                 final int warmUp, final int measured) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
        CommandStartedEvent event = DriverShapes.started(1, commandName, command);
        long perCall = perCall(() -> listener.commandStarted(event), warmUp, measured);
        assertEquals(0, listener.getCounters().getRedactionFailures(), () -> last.started.getCommand().toJson());
        return new long[] {perCall, RawBytes.length((RawBsonDocument) last.started.getCommand())};
    }

    /** @return bytes allocated per call, averaged over {@link #MEASURED} calls after {@code warmUp} calls */
    static long perCall(final Runnable call, final int warmUp) {
        return perCall(call, warmUp, MEASURED);
    }

    /** @return bytes allocated per call, averaged over {@code measured} calls after {@code warmUp} calls */
    static long perCall(final Runnable call, final int warmUp, final int measured) {
        for (int i = 0; i < warmUp; i++) {
            call.run();
        }
        long thread = Thread.currentThread().getId();
        long empty = THREADS.getThreadAllocatedBytes(thread);
        long before = THREADS.getThreadAllocatedBytes(thread);
        for (int i = 0; i < measured; i++) {
            call.run();
        }
        long after = THREADS.getThreadAllocatedBytes(thread);
        long probe = before - empty;
        return (after - before - probe) / measured;
    }

    private static void report(final String label, final long perCall, final int output) {
        System.out.println("allocation: " + label + ": " + perCall + " bytes/call, output " + output + " bytes, overhead "
                + (perCall - output) + " bytes");
        PrintedFigures.record(AllocationTest.class, label + " bytes/call", perCall);
        PrintedFigures.record(AllocationTest.class, label + " output", output);
    }
}
