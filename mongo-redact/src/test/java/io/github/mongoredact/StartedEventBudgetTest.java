package io.github.mongoredact;

import com.mongodb.client.MongoCollection;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.DriverShapes.Backing;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The allocation budget of a started event: the output array plus at most {@value #BUDGET} bytes (the forwarded
 * {@code RawBsonDocument}, the event, and what the redaction needs), counted by the JVM per call on the driver's thread, at 1,
 * 10 and 1000 documents, on the driver's own document classes: the driver's {@code ByteBufBsonDocument} sequences of a real
 * insert and a find held whole in one, sent through the embedded server (measured inside the driver's callback, while its
 * buffers are valid), and the plain
 * top level with {@code RawBsonDocument} sequence documents, and the whole command as one {@code RawBsonDocument}.
 */
class StartedEventBudgetTest {
    /** Bytes per started event above the output array's bytes. */
    static final int BUDGET = 176;
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 10_000;
    /** At 1000 documents a call runs the per-document loops 1000 times: fewer calls compile and measure them. */
    private static final int CALLS_LARGE = 1_000;

    @BeforeAll
    static void allocationCountingIsAvailable() {
        AllocationTest.allocationCountingIsAvailable();
    }

    static Stream<Arguments> policiesAndCounts() {
        List<Arguments> cases = new ArrayList<>();
        for (int count : new int[]{1, 10, 1000}) {
            cases.add(Arguments.of("specOnly", RedactionPolicy.specOnly(), count));
            cases.add(Arguments.of("defaults", RedactionPolicy.defaults(), count));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("policiesAndCounts")
    void insertThroughTheRealDriverStaysWithinTheBudget(final String name, final RedactionPolicy policy, final int count) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
        Map<String, long[]> measured = new ConcurrentHashMap<>();
        CommandListener measuring = new CommandListener() {
            @Override
            public void commandStarted(final CommandStartedEvent event) {
                String commandName = event.getCommandName();
                if (commandName.equals("insert") || commandName.equals("find")) {
                    // the driver's buffers are valid inside this callback: the listener runs on them as often as measured
                    long perCall = measure(() -> listener.commandStarted(event), count);
                    measured.put(commandName, new long[]{perCall,
                            RawBytes.length((RawBsonDocument) last.started.getCommand())});
                    BsonValue driverDocument = commandName.equals("insert") ? event.getCommand().getArray("documents").get(0)
                            : event.getCommand();
                    assertTrue(driverDocument.getClass().getName().endsWith("ByteBufBsonDocument"), "the driver's own class");
                }
            }
        };
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoCollection<BsonDocument> customers = server.client(measuring).getDatabase("shop")
                    .getCollection("customers", BsonDocument.class);
            List<BsonDocument> documents = documents(count);
            customers.insertMany(documents);
            // a find held whole in the driver's buffer: its filter's $in lists the ids
            BsonArray ids = new BsonArray();
            documents.forEach(document -> ids.add(document.get("_id")));
            customers.find(new BsonDocument("_id", new BsonDocument("$in", ids))).first();
        }
        assertEquals(0, listener.getCounters().getRedactionFailures());
        for (String commandName : new String[]{"insert", "find"}) {
            long[] figures = measured.get(commandName);
            assertNotNull(figures, commandName + " was measured");
            assertWithinBudget("real driver " + commandName + " " + count + " " + name, figures[0], (int) figures[1]);
        }
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("policiesAndCounts")
    void plainTopLevelWithRawSequenceDocumentsStaysWithinTheBudget(final String name, final RedactionPolicy policy,
                                                                    final int count) {
        BsonDocument command = DriverShapes.withSequences(insertTop(), Backing.RAW, "documents", documents(count));
        assertStartedWithinBudget("plain insert, raw documents " + count + " " + name, policy, "insert", command, count);
    }

    @ParameterizedTest(name = "{0} {2}")
    @MethodSource("policiesAndCounts")
    void commandAsOneRawDocumentStaysWithinTheBudget(final String name, final RedactionPolicy policy, final int count) {
        BsonDocument command = new RawBsonDocument(DriverShapes.encode(DriverShapes.merged(insertTop(), "documents",
                documents(count))));
        assertStartedWithinBudget("raw insert " + count + " " + name, policy, "insert", command, count);
    }

    private static void assertStartedWithinBudget(final String label, final RedactionPolicy policy, final String commandName,
                                                  final BsonDocument command, final int count) {
        long[] measured = count >= 1000 ? AllocationTest.startedPerCall(policy, commandName, command, CALLS_LARGE, CALLS_LARGE)
                : AllocationTest.startedPerCall(policy, commandName, command, WARM_UP, MEASURED);
        assertWithinBudget(label, measured[0], (int) measured[1]);
    }

    private static void assertWithinBudget(final String label, final long perCall, final int output) {
        System.out.println("allocation: " + label + ": " + perCall + " bytes/call, output " + output + " bytes, overhead "
                + (perCall - output) + " bytes");
        assertTrue(perCall <= output + BUDGET, label + ": allocated " + perCall + " bytes per started event for an output of "
                + output + " (budget " + (output + BUDGET) + ")");
    }

    private static long measure(final Runnable call, final int count) {
        return count >= 1000 ? AllocationTest.perCall(call, CALLS_LARGE, CALLS_LARGE)
                : AllocationTest.perCall(call, WARM_UP, MEASURED);
    }

    /** The top level the driver builds for an insert (no sessions: the embedded server advertises none). */
    private static BsonDocument insertTop() {
        return new BsonDocument("insert", new BsonString("customers")).append("ordered", org.bson.BsonBoolean.TRUE)
                .append("$db", new BsonString("shop"));
    }

    private static List<BsonDocument> documents(final int count) {
        List<BsonDocument> documents = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            documents.add(new BsonDocument("_id", new BsonObjectId(new ObjectId(1_700_000_000, i)))
                    .append("email", new BsonString("c" + i + "@example.com")).append("n", new BsonInt32(i)));
        }
        return documents;
    }
}
