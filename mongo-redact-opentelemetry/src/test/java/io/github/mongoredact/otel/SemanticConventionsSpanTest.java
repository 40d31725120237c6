package io.github.mongoredact.otel;

import com.mongodb.MongoException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.DeleteOneModel;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.Updates;
import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.Events;
import io.github.mongoredact.FieldAction;
import io.github.mongoredact.LibraryWarnings;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.StartedCommand;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The semantic conventions' attributes of the command spans, through the real driver against the embedded server (client
 * bulkWrite, which that server lacks, and a failure without a server code as constructed events): {@code db.operation.name},
 * {@code error.type}, {@code db.operation.batch.size}, {@code db.query.summary} and the span name in either
 * {@link SpanNaming}, each read from what the redacted copy shows.
 */
class SemanticConventionsSpanTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();

    private static final AttributeKey<String> OPERATION = AttributeKey.stringKey("db.operation.name");
    private static final AttributeKey<String> COMMAND = AttributeKey.stringKey("db.command.name");
    private static final AttributeKey<String> SUMMARY = AttributeKey.stringKey("db.query.summary");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    private static final AttributeKey<String> STATUS_CODE = AttributeKey.stringKey("db.response.status_code");
    private static final AttributeKey<Long> BATCH = AttributeKey.longKey("db.operation.batch.size");
    private final Spans spans = new Spans();
    private final EmbeddedServer server = new EmbeddedServer();

    @AfterEach
    void close() {
        server.close();
        spans.close();
    }

    private MongoCollection<Document> users(final RedactionPolicy policy, final OpenTelemetryCommandSink sink) {
        return server.client(RedactingCommandListener.builder().policy(policy).addSink(sink).build())
                .getDatabase("app").getCollection("users");
    }

    private OpenTelemetryCommandSink sink(final SpanNaming naming, final int queryTextMaxLength) {
        return OpenTelemetryCommandSink.builder(spans.openTelemetry).spanNaming(naming).queryTextMaxLength(queryTextMaxLength)
                .build();
    }

    /** The conventions' sink with the query shape on and the text off: the shape is what has the aggregate copied. */
    private OpenTelemetryCommandSink shapingSink() {
        return OpenTelemetryCommandSink.builder(spans.openTelemetry).spanNaming(SpanNaming.SEMANTIC_CONVENTIONS)
                .queryShape(true).build();
    }

    @Test
    void operationNameIsTheCommandsBesideTheSpecificationsCommandNameAndFailuresCarryErrorType() {
        OpenTelemetryCommandSink sink = sink(SpanNaming.DRIVER_SPECIFICATION, 0);
        assertEquals(SpanNaming.DRIVER_SPECIFICATION, sink.getSpanNaming());
        MongoCollection<Document> users = users(RedactionPolicy.defaults(), sink);
        users.insertOne(new Document("_id", 1));
        assertThrows(MongoException.class, () -> users.insertOne(new Document("_id", 1)));
        MongoException unknown = assertThrows(MongoException.class, () -> server.client(RedactingCommandListener.builder()
                .addSink(sink).build()).getDatabase("app").runCommand(new Document("noSuchCommand", 1)));

        for (SpanData span : spans.commands()) {
            assertEquals(span.getAttributes().get(COMMAND), span.getAttributes().get(OPERATION), span.toString());
            assertEquals(span.getAttributes().get(COMMAND), span.getName(), "the specification's name by default");
        }
        List<SpanData> inserts = spans.named("insert");
        assertNull(inserts.get(0).getAttributes().get(ERROR_TYPE), "no error.type on success");
        assertEquals("insert app.users", inserts.get(0).getAttributes().get(SUMMARY));
        // the duplicate: a write error under ok: 1, the server's code as a string in both
        assertEquals("11000", inserts.get(1).getAttributes().get(ERROR_TYPE));
        assertEquals("11000", inserts.get(1).getAttributes().get(STATUS_CODE));
        SpanData failed = spans.named("noSuchCommand").get(0);
        assertEquals(String.valueOf(unknown.getCode()), failed.getAttributes().get(ERROR_TYPE), failed.getAttributes().toString());
        assertTrue(unknown.getCode() > 0);
        assertEquals(0, sink.getFailures());
    }

    @Test
    void aFailureWithoutAServersCodeHasTheExceptionsClassNameAsErrorTypeAndNoStatusCode() {
        OpenTelemetryCommandSink sink = sink(SpanNaming.DRIVER_SPECIFICATION, 0);
        CommandStartedEvent event = Events.startedEvent(1, "{\"find\": \"users\", \"filter\": {}, \"$db\": \"test\"}");
        StartedCommand started = Events.started(event, null, "users", 0);
        sink.started(started);
        MongoSocketReadException failure = new MongoSocketReadException("closed", Events.SERVER_ID.getAddress());
        sink.completed(Events.failed(started, failure, 1_000));
        Attributes attributes = spans.named("find").get(0).getAttributes();
        assertEquals(MongoSocketReadException.class.getName(), attributes.get(ERROR_TYPE));
        assertNull(attributes.get(STATUS_CODE));
        assertEquals(0, sink.getFailures());
    }

    @Test
    void batchSizeCountsTheStatementsOfUpdateAndDeleteNeverTheDocumentsOfAnInsert() {
        MongoCollection<Document> users = users(RedactionPolicy.defaults(), sink(SpanNaming.DRIVER_SPECIFICATION, 100));
        users.insertMany(Arrays.asList(new Document("_id", 1), new Document("_id", 2), new Document("_id", 3)));
        users.bulkWrite(Arrays.asList(new UpdateOneModel<>(Filters.eq("_id", 1), Updates.set("a", 1)),
                new UpdateOneModel<>(Filters.eq("_id", 2), Updates.set("a", 2))));
        users.updateOne(Filters.eq("_id", 3), Updates.set("a", 3));
        users.bulkWrite(Arrays.asList(new DeleteOneModel<>(Filters.eq("_id", 1)),
                new DeleteOneModel<>(Filters.eq("_id", 2)),
                new DeleteOneModel<>(Filters.eq("_id", 3))));

        assertNull(spans.named("insert").get(0).getAttributes().get(BATCH), "three documents are operands of one insert");
        List<SpanData> updates = spans.named("update");
        assertEquals(2L, updates.get(0).getAttributes().get(BATCH));
        assertNull(updates.get(1).getAttributes().get(BATCH), "one statement is no batch");
        assertEquals(3L, spans.named("delete").get(0).getAttributes().get(BATCH));
    }

    @Test
    void batchSizeOfAClientBulkWriteIsItsOperationsAndAShortenedSequenceTellsItsCount() {
        OpenTelemetryCommandSink sink = sink(SpanNaming.DRIVER_SPECIFICATION, 100);
        String command = "{\"bulkWrite\": 1, \"ops\": [{\"insert\": 0, \"document\": {\"a\": 1}}, {\"delete\": 0, \"filter\":"
                + " {}}, {\"insert\": 0, \"document\": {\"a\": 2}}], \"nsInfo\": [{\"ns\": \"app.users\"}], \"$db\": \"admin\"}";
        String shortened = "{\"update\": \"users\", \"updates\": [{\"q\": \"?object\", \"u\": \"?object\"}, {\"$omitted\": 4}],"
                + " \"$db\": \"app\"}";
        String cut = "{\"delete\": \"users\", \"deletes\": [{\"q\": {}}, {\"q\": {}}], \"$truncatedBytes\": 900}";
        for (String json : new String[]{command, shortened, cut}) {
            CommandStartedEvent event = Events.startedEvent(json.hashCode(), json);
            StartedCommand started = Events.started(event, Events.raw(json), null, 0);
            sink.started(started);
            sink.completed(Events.succeeded(started, Events.raw("{\"ok\": 1}"), 1_000, 0, null));
        }
        assertEquals(3L, spans.named("bulkWrite").get(0).getAttributes().get(BATCH));
        assertEquals(5L, spans.named("update").get(0).getAttributes().get(BATCH), "one shown and four left out");
        assertNull(spans.named("delete").get(0).getAttributes().get(BATCH), "a cut copy tells no count");
        assertEquals(0, sink.getFailures());
    }

    @Test
    void theConventionsSummaryNamesEveryTargetOfAnAggregationTheCopyShowsAndNamesTheSpan() {
        MongoCollection<Document> users = users(RedactionPolicy.defaults(), shapingSink());
        users.insertOne(new Document("_id", 1).append("email", "ada@example.org"));
        users.find(Filters.eq("email", "ada@example.org")).first();
        // the embedded server refuses $unionWith after the driver sent the command: its span is made all the same
        assertThrows(MongoException.class, () -> users.aggregate(Arrays.asList(
                Document.parse("{\"$match\": {\"email\": \"ada@example.org\"}}"),
                Document.parse("{\"$lookup\": {\"from\": \"orders\", \"localField\": \"_id\", \"foreignField\": \"user\","
                        + " \"as\": \"orders\"}}"),
                Document.parse("{\"$unionWith\": {\"coll\": \"archive\", \"pipeline\": [{\"$lookup\": {\"from\": \"orders\","
                        + " \"localField\": \"_id\", \"foreignField\": \"user\", \"as\": \"o\"}}]}}"),
                Document.parse("{\"$unionWith\": \"users\"}"))).into(new ArrayList<>()));
        server.client(RedactingCommandListener.builder().addSink(sink(SpanNaming.SEMANTIC_CONVENTIONS, 0)).build())
                .getDatabase("admin").runCommand(new Document("ping", 1));

        SpanData find = spans.named("find users").get(0);
        assertEquals("find users", find.getAttributes().get(SUMMARY));
        assertEquals("insert users", spans.named("insert users").get(0).getAttributes().get(SUMMARY));
        SpanData aggregate = spans.named("aggregate users orders archive").get(0);
        assertEquals("aggregate users orders archive", aggregate.getAttributes().get(SUMMARY), "each target once, in order");
        assertEquals("aggregate", aggregate.getAttributes().get(OPERATION));
        assertEquals("ping admin", spans.named("ping admin").get(0).getAttributes().get(SUMMARY), "the database as target");
    }

    @Test
    void aTargetTheCopyHidesIsLeftOutOfTheSummary() {
        RedactionPolicy hidesLookup = RedactionPolicy.builder(RedactionPolicy.defaults())
                .field("@stage.$lookup.from", FieldAction.REDACT).build();
        MongoCollection<Document> users = users(hidesLookup, sink(SpanNaming.SEMANTIC_CONVENTIONS, 1000));
        assertThrows(MongoException.class, () -> users.aggregate(Arrays.asList(Document.parse("{\"$lookup\": {\"from\":"
                + " \"secret_orders\", \"localField\": \"_id\", \"foreignField\": \"user\", \"as\": \"o\"}}"),
                Document.parse("{\"$unionWith\": \"x\"}"), Document.parse("{\"$out\": \"archive\"}"))).into(new ArrayList<>()));
        SpanData aggregate = spans.commands().stream().filter(s -> "aggregate".equals(s.getAttributes().get(OPERATION)))
                .findFirst().orElseThrow(AssertionError::new);
        assertEquals("aggregate users x archive", aggregate.getAttributes().get(SUMMARY));
        assertFalse(aggregate.getName().contains("secret"), aggregate.getName());
    }

    @Test
    void withoutACopyTheSummaryNamesTheAggregatesOwnCollectionOnly() {
        MongoCollection<Document> users = users(RedactionPolicy.defaults(), sink(SpanNaming.SEMANTIC_CONVENTIONS, 0));
        users.aggregate(Arrays.asList(Document.parse("{\"$lookup\": {\"from\": \"orders\", \"localField\": \"_id\","
                + " \"foreignField\": \"user\", \"as\": \"o\"}}"))).into(new ArrayList<>());
        assertEquals("aggregate users", spans.named("aggregate users").get(0).getAttributes().get(SUMMARY),
                "text and shape off: no copy, so no pipeline target");
    }

    @Test
    void theSummaryStaysWithin255CharactersAndIsNeverCutInsideAName() {
        List<String> targets = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            targets.add("collection_number_" + i);
        }
        String summary = QuerySummary.withTargets("aggregate users", "users", targets);
        assertTrue(summary.length() <= QuerySummary.MAX_LENGTH, summary);
        String[] words = summary.split(" ");
        for (int i = 2; i < words.length; i++) {
            assertEquals("collection_number_" + (i - 2), words[i], summary);
        }
        assertTrue(summary.length() > QuerySummary.MAX_LENGTH - "collection_number_99".length() - 1, summary);
        String longName = String.join("", Collections.nCopies(300, "x"));
        assertEquals("find", QuerySummary.of(SpanNaming.SEMANTIC_CONVENTIONS, "find", "app", longName));
        assertEquals("find app." + longName, QuerySummary.of(SpanNaming.DRIVER_SPECIFICATION, "find", "app", longName),
                "the specification's form has no limit");
    }
}
