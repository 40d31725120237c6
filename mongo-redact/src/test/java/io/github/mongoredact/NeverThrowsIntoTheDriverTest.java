package io.github.mongoredact;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whatever fails in a downstream or in the listener's own copy, the application's operation goes on: the failure is counted
 * and the event still reaches the other downstreams. {@link ThreadDeath} alone is rethrown (see the listener's {@code Guard}).
 */
class NeverThrowsIntoTheDriverTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();


    /** A downstream that throws what the supplier makes from every callback. */
    static final class ErrorListener implements CommandListener {
        final AtomicInteger calls = new AtomicInteger();
        private final Supplier<? extends Throwable> error;

        ErrorListener(final Supplier<? extends Throwable> error) {
            this.error = error;
        }

        @Override
        public void commandStarted(final CommandStartedEvent event) {
            fail();
        }

        @Override
        public void commandSucceeded(final CommandSucceededEvent event) {
            fail();
        }

        @Override
        public void commandFailed(final CommandFailedEvent event) {
            fail();
        }

        private void fail() {
            calls.incrementAndGet();
            Throwable e = error.get();
            if (e instanceof Error) {
                throw (Error) e;
            }
            throw (RuntimeException) e;
        }
    }

    @Test
    void downstreamStackOverflowInternalErrorLinkageErrorAndOutOfMemoryLeaveTheOperationUnharmed() {
        List<ErrorListener> failing = List.of(
                new ErrorListener(StackOverflowError::new),
                new ErrorListener(() -> new InternalError("downstream internal error")),
                new ErrorListener(() -> new NoSuchMethodError("'boolean org.bson.ByteBuf.isBackedByArray()'")),
                new ErrorListener(() -> new OutOfMemoryError("downstream out of memory")));
        KeepingListener kept = new KeepingListener();
        RedactingCommandListener.Builder builder = RedactingCommandListener.builder();
        failing.forEach(builder::addListener);
        RedactingCommandListener listener = builder.addListener(kept).build();
        long found;
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(listener);
            MongoCollection<Document> customers = client.getDatabase("shop").getCollection("customers");
            customers.insertOne(new Document("email", "alice@example.com"));
            found = customers.countDocuments(Filters.eq("email", "alice@example.com"));
            assertThrows(MongoCommandException.class,
                    () -> client.getDatabase("shop").runCommand(new Document("noSuchCommand", 1)));
        }
        assertEquals(1, found, "the operations ran as if nothing had thrown");
        int events = kept.started.size() + kept.succeeded.size() + kept.failed.size();
        assertTrue(kept.started.size() >= 3, "started " + kept.started.size());
        assertEquals(1, kept.failed.size());
        for (ErrorListener listenerThatFails : failing) {
            assertEquals(events, listenerThatFails.calls.get());
        }
        assertEquals(4L * events, listener.getCounters().getSinkFailures());
        assertEquals(0, listener.getCounters().getRedactionFailures());
        warnings.assertSaid("threw from commandStarted");
    }

    @Test
    @SuppressWarnings("removal")
    void threadDeathFromADownstreamIsRethrownAsTheRequestToEndTheThreadThatItIs() {
        ThreadDeath death = new ThreadDeath();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .addListener(new ErrorListener(() -> death)).build();
        ThreadDeath thrown = assertThrows(ThreadDeath.class, () -> listener.commandStarted(ping()));
        assertSame(death, thrown);
    }

    @Test
    void failedEventWithoutThrowableReachesSinksAsAFailure() {
        List<CompletedCommand> completed = new ArrayList<>();
        CommandSink sink = new CommandSink() {
            @Override
            public void completed(final CompletedCommand command) {
                completed.add(command);
            }
        };
        KeepingListener kept = new KeepingListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().addSink(sink).addListener(kept).build();
        CommandStartedEvent started = ping();
        listener.commandStarted(started);
        listener.commandFailed(new CommandFailedEvent(null, started.getOperationId(), started.getRequestId(),
                started.getConnectionDescription(), started.getDatabaseName(), started.getCommandName(), 1000L, null));
        assertEquals(1, completed.size());
        assertTrue(completed.get(0).getFailure() != null, "a failure, not a success");
        assertTrue(kept.failed.get(0).getThrowable() != null);
        assertEquals(0, listener.getCounters().getRedactionFailures());
    }

    @Test
    void ownCopyFailingWithOutOfMemoryErrorUnderASmallHeapForwardsAMarkerAndCountsIt() throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process process = new ProcessBuilder(java, "-Xmx512m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                HugeCommandUnderSmallHeap.class.getName()).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
            }
        }
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child ends");
        assertEquals(0, process.exitValue(), String.join("\n", lines));
        assertTrue(lines.contains("returned normally"), String.join("\n", lines));
        assertTrue(lines.contains("first: {\"$redactionError\": \"OutOfMemoryError while redacting\"}"), String.join("\n", lines));
        assertTrue(lines.contains("second: {\"$redactionError\": \"OutOfMemoryError while redacting\"}"),
                String.join("\n", lines));
        assertTrue(lines.contains("redactionFailures=1"), String.join("\n", lines));
        assertTrue(lines.contains("after: {\"find\": \"customers\", \"$db\": \"shop\"}"), String.join("\n", lines));
    }

    private static CommandStartedEvent ping() {
        return DriverShapes.started(1, "ping", DriverShapes.byteBacked(new BsonDocument("ping", new BsonInt32(1))
                .append("$db", new BsonString("admin")), DriverShapes.Backing.RAW));
    }
}
