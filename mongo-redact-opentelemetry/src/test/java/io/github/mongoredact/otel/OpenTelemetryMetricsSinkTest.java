package io.github.mongoredact.otel;

import com.mongodb.MongoException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.Events;
import io.github.mongoredact.LibraryWarnings;
import io.github.mongoredact.RecordingSink;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.StartedCommand;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.DoubleHistogramBuilder;
import io.opentelemetry.api.metrics.LongHistogramBuilder;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The OpenTelemetry metrics sink through the real driver against the embedded server (a failure without a server code as a
 * constructed event): the conventions' names, units, attributes and bucket advice, on the OpenTelemetry line the execution
 * runs (1.31 with the incubator the SDK brings, and the newest), and the returned rows read from the redacted replies.
 */
class OpenTelemetryMetricsSinkTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();

    private static final String DURATION = OpenTelemetryMetricsSink.OPERATION_DURATION;
    private static final String ROWS = OpenTelemetryMetricsSink.RETURNED_ROWS;

    /** @return whether the API at run time has the bucket advice on its own builder (1.32+) */
    private static boolean apiHasAdvice() {
        try {
            DoubleHistogramBuilder.class.getMethod(BucketAdvice.METHOD, List.class);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static Attributes kind(final int port, final String collection, final String operation) {
        return Attributes.builder().put("db.system.name", "mongodb").put("db.namespace", "app")
                .put("db.collection.name", collection).put("db.operation.name", operation)
                .put("server.address", "127.0.0.1").put("server.port", (long) port).build();
    }

    @Test
    void durationsCarryTheConventionsAttributesUnitAndBuckets() {
        try (Metrics metrics = new Metrics(); EmbeddedServer server = new EmbeddedServer()) {
            OpenTelemetryMetricsSink sink = OpenTelemetryMetricsSink.builder(metrics.openTelemetry).build();
            assertFalse(sink.needsDocuments() || sink.needsReplyDocuments() || sink.needsFingerprint()
                    || sink.needsQueryShape(), "the durations read no document");
            RecordingSink recorder = new RecordingSink(false, false);
            MongoCollection<Document> users = server.client(RedactingCommandListener.builder().addSink(sink)
                    .addSink(recorder).build()).getDatabase("app").getCollection("users");
            users.insertOne(new Document("_id", 1));
            users.insertOne(new Document("_id", 2));
            assertThrows(MongoException.class, () -> users.insertOne(new Document("_id", 1)));
            users.find(Filters.eq("_id", 1)).into(new ArrayList<>());
            int port = recorder.started.get(0).getConnectionDescription().getServerAddress().getPort();

            List<MetricData> collected = metrics.collect();
            MetricData duration = collected.stream().filter(m -> m.getName().equals(DURATION)).findFirst()
                    .orElseThrow(AssertionError::new);
            assertEquals("s", duration.getUnit());
            assertEquals("Duration of database client operations.", duration.getDescription());
            assertFalse(collected.stream().anyMatch(m -> m.getName().equals(ROWS)), "returned rows are opt-in");
            HistogramPointData inserts = metrics.point(DURATION, kind(port, "users", "insert"));
            assertNotNull(inserts, metrics.points(DURATION).toString());
            assertEquals(2, inserts.getCount());
            assertTrue(inserts.getSum() > 0 && inserts.getSum() < 60, "seconds: " + inserts.getSum());
            HistogramPointData duplicate = metrics.point(DURATION, kind(port, "users", "insert").toBuilder()
                    .put("error.type", "11000").put("db.response.status_code", "11000").build());
            assertEquals(1, duplicate.getCount(), metrics.points(DURATION).toString());
            assertEquals(1, metrics.point(DURATION, kind(port, "users", "find")).getCount());
            assertEquals(apiHasAdvice() ? "api" : "incubator", sink.getBucketAdvice());
            assertEquals(OpenTelemetryMetricsSink.DURATION_BUCKETS, inserts.getBoundaries(), "the conventions' advice");
            for (StartedCommand started : recorder.started) {
                assertNull(started.getCommand(), "nothing copied for the metrics: " + started);
            }
            assertEquals(0, sink.getFailures());
            assertEquals(0, sink.getCommandsOfUncachedKinds());
        }
    }

    @Test
    void aFailureWithoutAServersCodeIsTypedByItsClassAndAnAdminCommandNamesNoCollection() {
        try (Metrics metrics = new Metrics()) {
            OpenTelemetryMetricsSink sink = OpenTelemetryMetricsSink.builder(metrics.openTelemetry).build();
            CommandStartedEvent event = Events.startedEvent(1, "{\"find\": \"users\", \"filter\": {}, \"$db\": \"test\"}");
            StartedCommand started = Events.started(event, null, "users", 0);
            sink.completed(Events.failed(started, new MongoSocketReadException("closed", Events.SERVER_ID.getAddress()),
                    2_000_000_000L));
            metrics.collect();
            HistogramPointData point = metrics.points(DURATION).get(0);
            assertEquals(MongoSocketReadException.class.getName(), point.getAttributes().get(AttributeKey.stringKey(
                    "error.type")));
            assertNull(point.getAttributes().get(AttributeKey.stringKey("db.response.status_code")));
            assertEquals(2.0, point.getSum(), 1e-9, "the driver's elapsed time in seconds");
        }
    }

    @Test
    void returnedRowsCountTheBatchesOfTheRedactedReplies() {
        try (Metrics metrics = new Metrics(); EmbeddedServer server = new EmbeddedServer()) {
            OpenTelemetryMetricsSink sink = OpenTelemetryMetricsSink.builder(metrics.openTelemetry).returnedRows(true).build();
            assertTrue(sink.isReturnedRows() && sink.needsReplyDocuments());
            MongoCollection<Document> users = server.client(RedactingCommandListener.builder()
                    .policy(RedactionPolicy.defaults()).addSink(sink).build()).getDatabase("app").getCollection("users");
            for (int i = 0; i < 5; i++) {
                users.insertOne(new Document("_id", i).append("email", "user" + i + "@example.org"));
            }
            assertEquals(5, users.find().batchSize(3).into(new ArrayList<>()).size());
            metrics.collect();
            List<HistogramPointData> rows = metrics.points(ROWS);
            List<String> operations = rows.stream().map(p -> p.getAttributes().get(AttributeKey.stringKey("db.operation.name")))
                    .sorted().collect(Collectors.toList());
            assertEquals(List.of("find", "getMore"), operations, "inserts return no batch");
            HistogramPointData find = rows.stream().filter(p -> "find".equals(p.getAttributes()
                    .get(AttributeKey.stringKey("db.operation.name")))).findFirst().orElseThrow(AssertionError::new);
            assertEquals(3, (long) find.getSum());
            assertEquals(OpenTelemetryMetricsSink.ROWS_BUCKETS.stream().map(Long::doubleValue).collect(Collectors.toList()),
                    find.getBoundaries());
            HistogramPointData getMore = rows.stream().filter(p -> p != find).findFirst().orElseThrow(AssertionError::new);
            assertEquals(2, (long) getMore.getSum());
        }
    }

    @Test
    void aShortenedBatchCountsWhatItLeftOutAndACutReplyCountsNothing() {
        StartedCommand started = Events.started(Events.startedEvent(1, "{\"find\": \"users\", \"$db\": \"test\"}"), null,
                "users", 0);
        CompletedCommand shortened = Events.succeeded(started, Events.raw("{\"cursor\": {\"firstBatch\": [{\"a\": \"?\"},"
                + " {\"$omitted\": 7}], \"id\": 0}, \"ok\": 1}"), 1, 0, null);
        CompletedCommand cut = Events.succeeded(started, Events.raw("{\"cursor\": {\"firstBatch\": [{\"a\": \"?\"}]},"
                + " \"$truncatedBytes\": 4000}"), 1, 0, null);
        CompletedCommand placeholder = Events.succeeded(started, Events.raw("{\"cursor\": {\"firstBatch\": \"?array\"},"
                + " \"ok\": 1}"), 1, 0, null);
        assertEquals(8, ReturnedRows.of(shortened));
        assertEquals(-1, ReturnedRows.of(cut));
        assertEquals(-1, ReturnedRows.of(placeholder));
    }

    @Test
    void eachAdvicePathIsTakenWhereTheApiHasIt() {
        DoubleHistogramBuilder plain = new DoubleHistogramBuilder() {
            @Override
            public DoubleHistogramBuilder setDescription(final String description) {
                return this;
            }

            @Override
            public DoubleHistogramBuilder setUnit(final String unit) {
                return this;
            }

            @Override
            public LongHistogramBuilder ofLongs() {
                throw new UnsupportedOperationException();
            }

            @Override
            public DoubleHistogram build() {
                throw new UnsupportedOperationException();
            }
        };
        // a builder of no SDK: on 1.31 it has no such method (none); from 1.32 the API's own default method takes it
        assertEquals(apiHasAdvice() ? BucketAdvice.Path.STABLE_API : BucketAdvice.Path.NONE,
                BucketAdvice.apply(plain, OpenTelemetryMetricsSink.DURATION_BUCKETS));
        try (Metrics metrics = new Metrics()) {
            DoubleHistogramBuilder sdk = metrics.openTelemetry.getMeter("test").histogramBuilder("h");
            assertEquals(apiHasAdvice() ? BucketAdvice.Path.STABLE_API : BucketAdvice.Path.INCUBATOR,
                    BucketAdvice.apply(sdk, OpenTelemetryMetricsSink.DURATION_BUCKETS));
        }
    }

    @Test
    void theErrorsOfAKindAreKeptUpToTheBoundThenMadeForEachCommand() {
        try (Metrics metrics = new Metrics()) {
            OpenTelemetryMetricsSink sink = OpenTelemetryMetricsSink.builder(metrics.openTelemetry).build();
            StartedCommand started = Events.started(Events.startedEvent(1, "{\"find\": \"users\", \"$db\": \"test\"}"), null,
                    "users", 0);
            for (int code = 1; code <= MetricKind.MAX_ERRORS + 2; code++) {
                sink.completed(Events.failed(started, Events.commandException(code, "Code" + code), 1));
            }
            assertEquals(2, sink.getCommandsOfUncachedKinds());
            metrics.collect();
            assertEquals(MetricKind.MAX_ERRORS + 2, metrics.points(DURATION).size(), "every error recorded all the same");
        }
    }
}
