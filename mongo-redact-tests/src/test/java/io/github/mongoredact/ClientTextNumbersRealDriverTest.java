package io.github.mongoredact;

import com.mongodb.MongoClientException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.handoff.HandOffSink;
import io.github.mongoredact.otel.OpenTelemetryCommandSink;
import io.github.mongoredact.otel.Spans;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.bson.BsonInvalidOperationException;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Numbers in the text of a driver-typed exception that is really the application's: a failed insert, through the real driver
 * and the embedded server, whose {@link MongoClientException} carries a suppressed {@link BsonInvalidOperationException} with
 * {@code Invalid numeric value 987600006 ms for amount}. A number stays only where one of the driver's own templates puts it
 * (a suppressed {@link MongoTimeoutException} of the driver's server-selection template keeps its {@code 30000}, the port
 * and the round trip time), never because a unit or a count word stands next to it. Checked in the four places a failure
 * goes: the downstream listener's throwable, the hand-off copy, the sink's {@link CompletedCommand#getFailure()} and the
 * span's {@code exception.stacktrace}.
 */
class ClientTextNumbersRealDriverTest {
    /** The application's numbers: each must be gone wherever the failure goes. */
    private static final String[] APPLICATION_NUMBERS = {"987600006", "987600007", "987600008", "987600009", "987600010",
        "987600011"};

    /**
     * Hands the driver's events on, but the insert's success as a failure with the given throwable and the event's own
     * metadata (request, operation, connection, elapsed time), on the driver's thread, where the driver calls a listener.
     */
    private static final class FailingInsert implements CommandListener {
        private final CommandListener target;
        private final Throwable failure;

        FailingInsert(final CommandListener target, final Throwable failure) {
            this.target = target;
            this.failure = failure;
        }

        @Override
        public void commandStarted(final CommandStartedEvent event) {
            target.commandStarted(event);
        }

        @Override
        public void commandSucceeded(final CommandSucceededEvent event) {
            if (!"insert".equals(event.getCommandName())) {
                target.commandSucceeded(event);
                return;
            }
            target.commandFailed(new CommandFailedEvent(event.getRequestContext(), event.getOperationId(), event.getRequestId(),
                    event.getConnectionDescription(), event.getDatabaseName(), event.getCommandName(),
                    event.getElapsedTime(TimeUnit.NANOSECONDS), failure));
        }

        @Override
        public void commandFailed(final CommandFailedEvent event) {
            target.commandFailed(event);
        }
    }

    @Test
    void numbersStayOnlyWhereTheDriversTemplatePutsThemInEveryPlaceTheFailureGoes() {
        KeepingListener downstream = new KeepingListener();
        KeepingListener handedOff = new KeepingListener();
        HandOffSink handOff = HandOffSink.builder(handedOff).threadName("test-numbers-hand-off").build();
        RecordingSink sink = new RecordingSink(false, false);
        Map<String, String> seen = new LinkedHashMap<>();
        String port;
        try (Spans spans = new Spans()) {
            OpenTelemetryCommandSink tracing = OpenTelemetryCommandSink.builder(spans.openTelemetry).queryTextMaxLength(0).build();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                    .addListener(downstream).addSink(handOff).addSink(sink).addSink(tracing).build();
            try (EmbeddedServer server = new EmbeddedServer()) {
                port = server.uri().substring(server.uri().lastIndexOf(':') + 1);
                Throwable failure = failure(port);
                String original = printed(failure);
                for (String number : APPLICATION_NUMBERS) {
                    assertTrue(original.contains(number), "planted: " + original);
                }
                server.client(new FailingInsert(listener, failure)).getDatabase("shop").getCollection("payments")
                        .insertOne(new Document("amount", 12));
            }
            handOff.close();
            assertEquals(0, listener.getCounters().getRedactionFailures());
            assertEquals(0, tracing.getFailures());
            assertEquals(0, handOff.getFailures());

            assertEquals(1, downstream.failed.size());
            seen.put("downstream listener", printed(downstream.failed.get(0).getThrowable()));
            assertEquals(1, handedOff.failed.size());
            seen.put("hand-off copy", printed(handedOff.failed.get(0).getThrowable()));
            List<Throwable> sinkFailures = new ArrayList<>();
            for (CompletedCommand completed : sink.completed) {
                if (completed.getFailure() != null) {
                    sinkFailures.add(completed.getFailure());
                }
            }
            assertEquals(1, sinkFailures.size());
            seen.put("sink's failure", printed(sinkFailures.get(0)));
            List<SpanData> inserts = spans.named("insert");
            assertEquals(1, inserts.size());
            String stackTrace = inserts.get(0).getAttributes().get(AttributeKey.stringKey("exception.stacktrace"));
            assertNotNull(stackTrace);
            seen.put("span's exception.stacktrace", stackTrace);
            seen.put("span's texts", String.join("\n", Spans.allTexts(inserts.get(0))));
        }
        for (Map.Entry<String, String> place : seen.entrySet()) {
            String text = place.getValue();
            for (String number : APPLICATION_NUMBERS) {
                assertFalse(text.contains(number), place.getKey() + " holds " + number + ":\n" + text);
            }
            // the driver's own template keeps its numbers: the time-out, the port and the round trip time
            assertTrue(text.contains("Timed out after 30000 ms while waiting for a server that matches"), place.getKey() + ":\n"
                    + text);
            assertTrue(text.contains(":" + port + ", type=STANDALONE") && text.contains("=1.5 ms, state=CONNECTED"),
                    place.getKey() + ":\n" + text);
        }
    }

    /** The driver's templates keep their numbers; the same numbers beside a unit or a count word in other text do not. */
    @Test
    void aNumberStaysForItsTemplateNotForAUnitOrCountWordBesideIt() {
        String[][] cases = {
            {"Timed out after 2000 ms while waiting for a connection to server 10.0.0.7:27018.",
                "Timed out after 2000 ms while waiting for a connection to server ?:27018."},
            {"Document size of 17000000 is larger than maximum of 16793600.",
                "Document size of 17000000 is larger than maximum of 16793600."},
            {"Invalid numeric value 987600006 ms for amount", "Invalid numeric value ? ms for ?"},
            {"Timed out after 987600006 ms", "Timed out after ? ms"},
            {"Size of 987600006 is larger than maximum of 987600007 bytes", "Size of ? is larger than maximum of ? bytes"},
            {"Invalid value at host:987600006", "Invalid value at host:?"},
        };
        for (String[] c : cases) {
            KeepingListener kept = new KeepingListener();
            RedactingCommandListener listener = RedactingCommandListener.builder().addListener(kept).build();
            listener.commandFailed(DriverShapes.failed(3, "insert", new MongoClientException(c[0])));
            assertEquals(c[1], kept.failed.get(0).getThrowable().getMessage(), c[0]);
        }
    }

    /**
     * A client exception of the driver's type with the application's texts suppressed in it, in the driver's types too, and
     * one message of the driver's own template beside them.
     */
    private static Throwable failure(final String port) {
        MongoClientException failure = new MongoClientException("Exception sending message");
        failure.addSuppressed(new BsonInvalidOperationException("Invalid numeric value 987600006 ms for amount"));
        failure.addSuppressed(new BsonInvalidOperationException("Invalid amount of 987600007 ms, more than 987600008 bytes"
                + " after 987600009 attempts, max 987600010 for port 987600011"));
        failure.addSuppressed(new MongoTimeoutException("Timed out after 30000 ms while waiting for a server that matches"
                + " WritableServerSelector. Client view of cluster state is {type=STANDALONE, servers=[{address=127.0.0.1:"
                + port + ", type=STANDALONE, roundTripTime=1.5 ms, state=CONNECTED}]"));
        return failure;
    }

    /** @return the printed stack trace, which prints the messages of the failure, its causes and its suppressed failures */
    private static String printed(final Throwable failure) {
        StringWriter text = new StringWriter();
        failure.printStackTrace(new PrintWriter(text));
        return text.toString();
    }
}
