package io.github.mongoredact.otel;

import com.mongodb.MongoException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.Updates;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.Events;
import io.github.mongoredact.LibraryWarnings;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.StartedCommand;
import io.opentelemetry.api.common.AttributeType;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every attribute and metric name the OpenTelemetry sinks emit, as they emit them through the real driver against the
 * embedded server (a client bulkWrite in a transaction as constructed events), checked against the semantic conventions'
 * registry files (v1.44.0, {@code src/test/resources/semconv}), not against a list of our own: each name is defined there,
 * not deprecated, with the type we give it; each metric with its instrument and unit. The names the conventions do not
 * define are listed apart ({@link #NOT_IN_THE_REGISTRY}), each with its reason, and must be absent from the registry (were
 * the conventions to define one, the check would ask for a look) and seen in the workload (a stale entry fails).
 */
class SemanticConventionsRegistryTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();

    private static final String DRIVER_SPEC = "MongoDB's OpenTelemetry specification (command span), not in the conventions";
    /** The names we emit that the registry does not define, and why. */
    private static final Map<String, String> NOT_IN_THE_REGISTRY = new LinkedHashMap<>();

    static {
        NOT_IN_THE_REGISTRY.put("db.command.name", DRIVER_SPEC + " (which name the command db.operation.name, also set)");
        NOT_IN_THE_REGISTRY.put("db.mongodb.server_connection_id", DRIVER_SPEC);
        NOT_IN_THE_REGISTRY.put("db.mongodb.driver_connection_id", DRIVER_SPEC);
        NOT_IN_THE_REGISTRY.put("db.mongodb.cursor_id", DRIVER_SPEC);
        NOT_IN_THE_REGISTRY.put("db.mongodb.lsid", DRIVER_SPEC);
        NOT_IN_THE_REGISTRY.put("db.mongodb.txn_number", DRIVER_SPEC);
        NOT_IN_THE_REGISTRY.put("db.mongodb.query_shape", "this library's: MongoDB's debug query shape, as $queryStats"
                + " prints it");
        NOT_IN_THE_REGISTRY.put("db.mongodb.query_shape_hash", "this library's: MongoDB's queryShapeHash (8.0+)");
    }

    private static final String[] FILES = {"db_registry.yaml", "db_registry-deprecated.yaml", "db_metrics.yaml",
            "error_registry.yaml", "exceptions_registry.yaml", "network_registry.yaml", "server_registry.yaml"};

    @Test
    void theParserReadsBothLayoutsOfTheRegistry() {
        SemconvRegistry registry = SemconvRegistry.load(FILES);
        assertEquals("int", registry.attributes.get("server.port").type, "definition/2 layout");
        assertEquals("server_registry.yaml", registry.attributes.get("server.port").file);
        assertEquals("enum", registry.attributes.get("db.system.name").type);
        assertTrue(registry.attributes.get("db.mongodb.collection").deprecated, "renamed to db.collection.name");
        assertFalse(registry.attributes.get("db.collection.name").deprecated);
        assertEquals("stable", registry.metrics.get("db.client.operation.duration").stability);
        assertTrue(registry.attributes.size() > 60, "attributes: " + registry.attributes.size());
    }

    @Test
    void everySpanAndMetricNameIsTheRegistrysOrListedWithItsReason() {
        SemconvRegistry registry = SemconvRegistry.load(FILES);
        Map<String, AttributeType> emitted = new TreeMap<>();
        List<MetricData> metricData;
        try (Spans spans = new Spans(); Metrics metrics = new Metrics(); EmbeddedServer server = new EmbeddedServer()) {
            OpenTelemetryMetricsSink metricsSink = OpenTelemetryMetricsSink.builder(metrics.openTelemetry).returnedRows(true)
                    .build();
            OpenTelemetryCommandSink specSpans = OpenTelemetryCommandSink.builder(spans.openTelemetry).queryTextMaxLength(1000)
                    .build();
            OpenTelemetryCommandSink conventionsSpans = OpenTelemetryCommandSink.builder(spans.openTelemetry)
                    .spanNaming(SpanNaming.SEMANTIC_CONVENTIONS).queryShape(true).build();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                    .addSink(specSpans).addSink(conventionsSpans).addSink(metricsSink).build();
            workload(server, listener);
            for (OpenTelemetryCommandSink sink : new OpenTelemetryCommandSink[]{specSpans, conventionsSpans}) {
                transaction(sink);
            }
            metricsSink.completed(Events.failed(Events.started(Events.startedEvent(3, "{\"ping\": 1, \"$db\": \"admin\"}"),
                    null, null, 0), new IllegalStateException("down"), 1));
            for (SpanData span : spans.commands()) {
                span.getAttributes().forEach((key, value) -> emitted.put(key.getKey(), key.getType()));
            }
            metricData = new ArrayList<>(metrics.collect());
            for (MetricData metric : metricData) {
                metric.getData().getPoints().forEach(point -> point.getAttributes()
                        .forEach((key, value) -> emitted.put(key.getKey(), key.getType())));
            }
        }

        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, AttributeType> name : emitted.entrySet()) {
            SemconvRegistry.Attribute defined = registry.attributes.get(name.getKey());
            if (NOT_IN_THE_REGISTRY.containsKey(name.getKey())) {
                if (defined != null) {
                    problems.add(name.getKey() + " is now in the registry (" + defined.file + "): check its definition");
                }
            } else if (defined == null) {
                problems.add(name.getKey() + " is not in the registry nor listed with a reason");
            } else if (defined.deprecated) {
                problems.add(name.getKey() + " is deprecated in the registry");
            } else if (!typeOf(defined).equals(name.getValue())) {
                problems.add(name.getKey() + " is " + name.getValue() + ", the registry's " + defined.type);
            }
        }
        for (String listed : NOT_IN_THE_REGISTRY.keySet()) {
            if (!emitted.containsKey(listed)) {
                problems.add(listed + " is listed but not emitted by the workload");
            }
        }
        for (String expected : Arrays.asList("db.operation.name", "db.query.summary", "db.operation.batch.size", "error.type",
                "db.response.status_code", "db.collection.name", "db.namespace", "db.system.name", "server.address",
                "server.port")) {
            if (!emitted.containsKey(expected)) {
                problems.add(expected + " was not emitted: the workload does not cover it");
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems) + "\nemitted: " + emitted);
        checkMetrics(registry, metricData);
        System.out.println("semantic conventions registry check: " + emitted.size() + " attribute names, "
                + (emitted.size() - NOT_IN_THE_REGISTRY.size()) + " in the registry, " + NOT_IN_THE_REGISTRY.size()
                + " listed apart; " + metricData.size() + " metrics: " + emitted.keySet());
    }

    private static void checkMetrics(final SemconvRegistry registry, final List<MetricData> metricData) {
        assertEquals(2, metricData.size(), metricData.toString());
        for (MetricData metric : metricData) {
            SemconvRegistry.Metric defined = registry.metrics.get(metric.getName());
            assertTrue(defined != null, metric.getName() + " is not a metric of the registry");
            assertEquals("histogram", defined.instrument, metric.getName());
            assertTrue(metric.getType() == MetricDataType.HISTOGRAM, metric.getName() + ": " + metric.getType());
            assertEquals(defined.unit, metric.getUnit(), metric.getName());
        }
    }

    private static AttributeType typeOf(final SemconvRegistry.Attribute attribute) {
        switch (attribute.type) {
            case "string":
            case "enum":
                return AttributeType.STRING;
            case "int":
                return AttributeType.LONG;
            case "double":
                return AttributeType.DOUBLE;
            case "boolean":
                return AttributeType.BOOLEAN;
            case "string[]":
                return AttributeType.STRING_ARRAY;
            default:
                throw new IllegalArgumentException(attribute.name + ": type " + attribute.type);
        }
    }

    /** Inserts, a duplicate, finds with a cursor, a batch of updates, an aggregation, an unknown command. */
    private static void workload(final EmbeddedServer server, final RedactingCommandListener listener) {
        MongoCollection<Document> users = server.client(listener).getDatabase("app").getCollection("users");
        for (int i = 0; i < 5; i++) {
            users.insertOne(new Document("_id", i).append("name", "n" + i));
        }
        try {
            users.insertOne(new Document("_id", 1));
        } catch (MongoException expected) {
            // the duplicate's span and measurement are what is read
        }
        users.find(Filters.eq("name", "n1")).batchSize(2).into(new ArrayList<>());
        users.find().batchSize(2).into(new ArrayList<>());
        users.bulkWrite(Arrays.asList(new UpdateOneModel<>(Filters.eq("_id", 1), Updates.set("a", 1)),
                new UpdateOneModel<>(Filters.eq("_id", 2), Updates.set("a", 2))));
        users.aggregate(Arrays.asList(Document.parse("{\"$lookup\": {\"from\": \"orders\", \"localField\": \"_id\","
                + " \"foreignField\": \"user\", \"as\": \"orders\"}}"))).into(new ArrayList<>());
        try {
            server.client(listener).getDatabase("app").runCommand(new Document("noSuchCommand", 1));
        } catch (MongoException expected) {
            // its error.type is the server's code
        }
    }

    /** A client bulkWrite in a transaction (the embedded server has neither): session id, transaction number, batch size. */
    private static void transaction(final OpenTelemetryCommandSink sink) {
        String json = "{\"bulkWrite\": 1, \"ops\": [{\"insert\": 0, \"document\": {\"a\": 1}}, {\"insert\": 0, \"document\":"
                + " {\"a\": 2}}], \"nsInfo\": [{\"ns\": \"app.users\"}], \"lsid\": {\"id\": {\"$binary\": {\"base64\":"
                + " \"AAECAwQFBgcICQoLDA0ODw==\", \"subType\": \"04\"}}}, \"txnNumber\": {\"$numberLong\": \"1\"}, \"$db\":"
                + " \"admin\"}";
        StartedCommand started = Events.started(Events.startedEvent(2, json), Events.raw(json), null, 0);
        sink.started(started);
        sink.completed(Events.succeeded(started, Events.raw("{\"ok\": 1}"), 1, 0, null));
    }
}
