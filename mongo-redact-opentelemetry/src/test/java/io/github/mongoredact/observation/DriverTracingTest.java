package io.github.mongoredact.observation;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import io.github.mongoredact.otel.Spans;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.bson.BsonDocument;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The driver's own tracing (5.7+) made safe by {@link DriverTracing}, on the real driver against the embedded server, into
 * OpenTelemetry through Micrometer Tracing: operation spans with their command spans nested, the parametrized text, no value
 * in any attribute, event or status. Run on drivers 5.7.1 and 5.14.0 (the surefire executions that swap the driver in).
 */
class DriverTracingTest {
    private static final String EMAIL = "ada.lovelace@example.org";
    private static final AttributeKey<String> QUERY_TEXT = AttributeKey.stringKey("db.query.text");

    @Test
    void operationSpansNestTheirCommandSpansWhichCarryTheParametrizedText() {
        assertTrue(DriverTracing.isSupported(), "this test runs on driver 5.7 and later");
        try (TracedDriver driver = new TracedDriver(DriverTracing.builder().queryTextMaxLength(1000).build())) {
            MongoCollection<Document> users = driver.client.getDatabase("app").getCollection("users");
            users.insertOne(new Document("email", EMAIL));
            assertEquals(1, users.countDocuments(new Document("email", EMAIL)));
            List<SpanData> spans = driver.spans.finished();
            SpanData operation = named(spans, "insert app.users");
            SpanData command = named(spans, "insert");
            assertEquals(operation.getSpanId(), command.getParentSpanId(), "the command span nests in its operation span");
            String text = command.getAttributes().get(QUERY_TEXT);
            assertNotNull(text, "db.query.text from the listener's copy");
            BsonDocument parsed = BsonDocument.parse(text);
            assertEquals("users", parsed.getString("insert").getValue());
            assertFalse(parsed.containsKey("$db") || parsed.containsKey("lsid"), text);
            assertTrue(parsed.getArray("documents").get(0).asDocument().get("email").isString(), text);
            assertNoValue(spans);
            assertTrue(spans.stream().filter(span -> span.getName().equals("aggregate")).allMatch(span ->
                    !span.getAttributes().get(QUERY_TEXT).contains("lovelace")), "countDocuments' aggregate too");
        }
    }

    @Test
    void aDuplicateKeyLeavesNoValueOnCommandOrOperationSpans() {
        try (TracedDriver driver = new TracedDriver(DriverTracing.builder().queryTextMaxLength(0).build())) {
            duplicateKeys(driver);
            List<SpanData> spans = driver.spans.finished();
            assertTrue(spans.size() >= 8, "spans: " + spans.size());
            SpanData failedOperation = named(spans, "findAndModify app.users");
            assertEquals(StatusCode.ERROR, failedOperation.getStatus().getStatusCode());
            assertFalse(failedOperation.getEvents().isEmpty(), "the exception event is recorded, scrubbed");
            assertTrue(spans.stream().noneMatch(span -> span.getAttributes().get(QUERY_TEXT) != null), "text off");
            assertNoValue(spans);
        }
    }

    @Test
    void withoutItTheDriversOwnTracingLeaksTheValues() {
        try (TracedDriver driver = new TracedDriver(null)) {
            duplicateKeys(driver);
            List<String> leaking = driver.spans.finished().stream().filter(span -> Spans.allTexts(span).stream()
                    .anyMatch(text -> text != null && text.contains("lovelace"))).map(SpanData::getName)
                    .collect(Collectors.toList());
            assertTrue(leaking.contains("findAndModify") && leaking.contains("findAndModify app.users"), leaking.toString());
        }
    }

    static void duplicateKeys(final TracedDriver driver) {
        MongoCollection<Document> users = driver.client.getDatabase("app").getCollection("users");
        users.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true));
        users.insertOne(new Document("email", EMAIL).append("n", 1));
        users.insertOne(new Document("email", "grace@example.org").append("n", 2));
        assertThrows(MongoWriteException.class, () -> users.insertOne(new Document("email", EMAIL)));
        assertThrows(MongoCommandException.class, () -> users.findOneAndUpdate(new Document("n", 2),
                new Document("$set", new Document("email", EMAIL))));
    }

    private static void assertNoValue(final List<SpanData> spans) {
        List<String> leaks = new ArrayList<>();
        for (SpanData span : spans) {
            for (String text : Spans.allTexts(span)) {
                if (text != null && (text.contains("lovelace") || text.contains("grace@"))) {
                    leaks.add(span.getName() + ": " + text);
                }
            }
        }
        assertTrue(leaks.isEmpty(), String.join("\n", leaks));
    }

    private static SpanData named(final List<SpanData> spans, final String name) {
        return spans.stream().filter(span -> span.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + name + " in " + spans.stream().map(SpanData::getName)
                        .collect(Collectors.toList())));
    }
}
