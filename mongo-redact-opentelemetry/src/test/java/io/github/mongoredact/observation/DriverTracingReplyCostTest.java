package io.github.mongoredact.observation;

import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoCollection;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.Allocations;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.RawBytes;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.StartedCommand;
import io.micrometer.observation.ObservationRegistry;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cost follows what sinks read: the sink of {@link DriverTracing} renders its texts from started commands and reads no reply,
 * so a listener whose only sink it is makes no copy of any reply. Counted in bytes the calling thread allocates
 * ({@code ThreadMXBean}) per started + succeeded pair, on the events of a real find through the driver against the embedded
 * server (copied out of the driver's callbacks into events of the same shape), whose reply carries 100 documents of about
 * 200 bytes.
 */
class DriverTracingReplyCostTest {
    private static final int DOCUMENTS = 100;
    private static final int PAIRS = 5_000;
    private static final int MEASUREMENTS = 3;

    @Test
    void theBridgeCopiesNoReply() {
        assertTrue(((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).isThreadAllocatedMemorySupported());
        Captured find = realFind();
        CommandStartedEvent started = find.started;
        CommandSucceededEvent succeeded = find.succeeded;
        int replySize = ((RawBsonDocument) succeeded.getResponse()).getByteBuffer().remaining();
        assertEquals(DOCUMENTS, succeeded.getResponse().getDocument("cursor").getArray("firstBatch").size());

        DriverTracing tracing = DriverTracing.builder().queryTextMaxLength(1000).build();
        RedactingCommandListener.Builder builder = RedactingCommandListener.builder();
        // the sink registered as users do, by the one call: the listener's only sink
        tracing.apply(MongoClientSettings.builder(), ObservationRegistry.create(), builder);
        RedactingCommandListener bridge = builder.build();
        // steady state: a copy of the reply would show in every measurement
        double bridgePair = Allocations.lowestPerRun(MEASUREMENTS, PAIRS, () -> {
            bridge.commandStarted(started);
            bridge.commandSucceeded(succeeded);
        });
        // the sink did its work on the started command: the text of the find is left for the span of its connection
        String text = ((QueryTexts) tracing.sink()).take(started.getConnectionDescription().getConnectionId());
        assertNotNull(text, "the bridge's sink rendered the started find");
        assertTrue(text.contains("\"find\""), text);

        // the contrast: the same sink, asked for the reply (what the listener did for it if its answer were ignored)
        ReplyReading reading = new ReplyReading(DriverTracing.builder().queryTextMaxLength(1000).build().sink());
        RedactingCommandListener copying = RedactingCommandListener.builder().addSink(reading).build();
        double copyingPair = Allocations.perRun(PAIRS, () -> {
            copying.commandStarted(started);
            copying.commandSucceeded(succeeded);
        });
        assertNotNull(reading.lastReply, "the reading sink was given the reply's copy");
        int copySize = ((RawBsonDocument) reading.lastReply).getByteBuffer().remaining();
        assertEquals(DOCUMENTS, reading.lastReply.getDocument("cursor").getArray("firstBatch").size());

        System.out.printf("driver tracing's sink alone: %.1f bytes/pair (lowest of %d); the same sink reading replies: %.1f"
                + " bytes/pair; reply %d bytes, its redacted copy %d bytes%n", bridgePair, MEASUREMENTS, copyingPair, replySize,
                copySize);
        // a copy of the reply is at least its bytes: a byte[] of the redacted copy's length (the redaction writes straight
        // into it, its size computed before). The pair without a copy (the started command's copy, its text, the two facts)
        // stays under a quarter of that copy, so one copy of the reply per pair could not hide in it. Measured on drivers 5.7.1
        // and 5.14.0: 432 bytes per pair alone, 10,808 reading replies; reply 22,152 bytes, its copy 10,272 (the default policy
        // shortens the documents' values)
        assertTrue(bridgePair < copySize / 4.0, "the bridge's sink alone: " + bridgePair + " bytes per pair, the reply's copy "
                + copySize + " bytes (reply " + replySize + ")");
        assertTrue(copyingPair >= bridgePair + copySize, "reading replies costs their copy: " + copyingPair + " bytes per"
                + " pair, without " + bridgePair + ", copy " + copySize);
        assertEquals(0, bridge.getCounters().getInFlight());
        assertEquals(0, bridge.getCounters().getRedactionFailures());
    }

    /**
     * The find of {@value #DOCUMENTS} documents through the real driver against the embedded server: its started command and
     * its reply, copied inside the driver's callbacks (usable only there) into events of the same fields.
     */
    private static Captured realFind() {
        Captured captured = new Captured();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoCollection<BsonDocument> customers = server.client(captured).getDatabase("shop")
                    .getCollection("customers", BsonDocument.class);
            List<BsonDocument> documents = new ArrayList<>();
            for (int i = 0; i < DOCUMENTS; i++) {
                documents.add(new BsonDocument("_id", new BsonInt32(i))
                        .append("email", new BsonString("customer." + i + "@example.com"))
                        .append("name", new BsonString("Customer number " + i))
                        .append("address", new BsonString(String.format("%05d Long Street, Springfield, Somewhere far away",
                                i)))
                        .append("note", new BsonString("x".repeat(64))));
            }
            customers.insertMany(documents);
            List<BsonDocument> found = customers.find(new BsonDocument("_id", new BsonDocument("$gte", new BsonInt32(0))))
                    .batchSize(DOCUMENTS + 1).into(new ArrayList<>());
            assertEquals(DOCUMENTS, found.size());
        }
        assertNotNull(captured.succeeded, "the find's succeeded event");
        return captured;
    }

    /** Keeps owned copies of the find's events. */
    private static final class Captured implements CommandListener {
        CommandStartedEvent started;
        CommandSucceededEvent succeeded;

        @Override
        public void commandStarted(final CommandStartedEvent event) {
            if (event.getCommandName().equals("find")) {
                started = new CommandStartedEvent(null, event.getOperationId(), event.getRequestId(),
                        event.getConnectionDescription(), event.getDatabaseName(), event.getCommandName(),
                        owned(event.getCommand()));
            }
        }

        @Override
        public void commandSucceeded(final CommandSucceededEvent event) {
            if (event.getCommandName().equals("find") && started != null
                    && event.getRequestId() == started.getRequestId()) {
                succeeded = new CommandSucceededEvent(null, event.getOperationId(), event.getRequestId(),
                        event.getConnectionDescription(), event.getDatabaseName(), event.getCommandName(),
                        owned(event.getResponse()), event.getElapsedTime(TimeUnit.NANOSECONDS));
            }
        }

        private static RawBsonDocument owned(final BsonDocument document) {
            RawBsonDocument raw = document instanceof RawBsonDocument ? (RawBsonDocument) document
                    : (RawBsonDocument) document.clone();
            return new RawBsonDocument(Arrays.copyOfRange(RawBytes.array(raw), RawBytes.offset(raw),
                    RawBytes.offset(raw) + RawBytes.length(raw)));
        }

    }

    /** Forwards to a sink and reads the replies it did not ask for: the listener copies them for it. */
    private static final class ReplyReading implements CommandSink {
        private final CommandSink sink;
        BsonDocument lastReply;

        ReplyReading(final CommandSink sink) {
            this.sink = sink;
        }

        @Override
        public boolean needsDocuments() {
            return sink.needsDocuments();
        }

        @Override
        public boolean needsReplyDocuments() {
            return true;
        }

        @Override
        public boolean needsFingerprint() {
            return sink.needsFingerprint();
        }

        @Override
        public void started(final StartedCommand command) {
            sink.started(command);
        }

        @Override
        public void completed(final CompletedCommand command) {
            sink.completed(command);
            lastReply = command.getReply();
        }
    }
}
