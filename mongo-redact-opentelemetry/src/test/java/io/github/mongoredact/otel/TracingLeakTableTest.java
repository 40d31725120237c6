package io.github.mongoredact.otel;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.observation.DriverTracing;
import io.github.mongoredact.observation.TracedDriver;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.instrumentation.mongo.v3_1.MongoTelemetry;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's leak table, measured: one workload (planted values in inserts, a key that is data, filters, a regex, a
 * {@code $limit}, a {@code $set}, a unique e-mail hit by a duplicate key on {@code insertOne} and on
 * {@code findOneAndUpdate}, a {@code createUser}) through the driver's own tracing (payload on), OpenTelemetry's
 * {@code opentelemetry-mongo-3.1} listener (its defaults: statement sanitized), this library's {@link OpenTelemetryCommandSink}
 * and the driver's own tracing made safe by {@link DriverTracing}; every attribute, event and status of every span searched.
 * Writes {@code target/tracing-leaks.md}. Needs driver 5.7+ and the newest OpenTelemetry: runs in the 5.14 suite.
 */
class TracingLeakTableTest {
    private static final Map<String, String> PLANTED = new LinkedHashMap<>();
    private static final String MASKED = "mongo-redact OpenTelemetryCommandSink (defaults() + maskKeys(\"documents.profile\"))";

    static {
        PLANTED.put("e-mail (insert, filter, duplicate key)", "zqx.ada@example.org");
        PLANTED.put("name (insert, filter)", "Zqxname Lovelace");
        PLANTED.put("regex", "^Zqxregex");
        PLANTED.put("key that is data", "zqxkeyname");
        PLANTED.put("$set value", "zqx-note-secret");
        PLANTED.put("$limit", "7331");
        PLANTED.put("createUser password", "zqx-password");
    }

    @Test
    void onlyThisLibrarysSpansCarryNoPlantedValue() throws IOException {
        StringBuilder table = new StringBuilder("| implementation | spans | a span for createUser | planted values found |"
                + " where |\n|---|---|---|---|---|\n");
        Map<String, List<SpanData>> runs = new LinkedHashMap<>();
        try (TracedDriver driver = new TracedDriver(null)) {
            workload(driver.client);
            runs.put("the driver's own tracing (5.14.0, payload on)", driver.spans.finished());
        }
        try (Spans spans = new Spans(); EmbeddedServer server = new EmbeddedServer()) {
            workload(server.client(MongoTelemetry.builder(spans.openTelemetry).build().createCommandListener()));
            runs.put("opentelemetry-mongo-3.1 2.31.1-alpha (defaults)", spans.finished());
        }
        try (Spans spans = new Spans(); EmbeddedServer server = new EmbeddedServer()) {
            workload(server.client(RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                    .addSink(OpenTelemetryCommandSink.builder(spans.openTelemetry).queryTextMaxLength(32 * 1024).build())
                    .build()));
            runs.put("mongo-redact OpenTelemetryCommandSink (defaults(), text 32 KiB)", spans.finished());
        }
        try (Spans spans = new Spans(); EmbeddedServer server = new EmbeddedServer()) {
            workload(server.client(RedactingCommandListener.builder()
                    .policy(RedactionPolicy.builder(RedactionPolicy.defaults()).maskKeys("documents.profile").build())
                    .addSink(OpenTelemetryCommandSink.builder(spans.openTelemetry).queryTextMaxLength(32 * 1024).build())
                    .build()));
            runs.put(MASKED, spans.finished());
        }
        try (TracedDriver driver = new TracedDriver(DriverTracing.builder().queryTextMaxLength(32 * 1024).build())) {
            workload(driver.client);
            runs.put("the driver's own tracing + mongo-redact DriverTracing", driver.spans.finished());
        }
        Map<String, Map<String, TreeSet<String>>> found = new LinkedHashMap<>();
        for (Map.Entry<String, List<SpanData>> run : runs.entrySet()) {
            Map<String, TreeSet<String>> where = new LinkedHashMap<>();
            for (SpanData span : run.getValue()) {
                search(span, where);
            }
            found.put(run.getKey(), where);
            boolean createUser = run.getValue().stream().anyMatch(span -> span.getName().startsWith("createUser"));
            table.append("| ").append(run.getKey()).append(" | ").append(run.getValue().size()).append(" | ")
                    .append(createUser ? "yes" : "no").append(" | ")
                    .append(where.isEmpty() ? "none" : String.join(", ", where.keySet())).append(" | ")
                    .append(where.isEmpty() ? "-" : String.join("; ", where.values().stream()
                            .map(places -> String.join(", ", places)).distinct().toArray(String[]::new))).append(" |\n");
        }
        Path path = Paths.get("target", "tracing-leaks.md");
        Files.createDirectories(path.getParent());
        Files.write(path, table.toString().getBytes(StandardCharsets.UTF_8));
        System.out.print(table);

        for (String ours : Arrays.asList("mongo-redact OpenTelemetryCommandSink (defaults(), text 32 KiB)",
                "the driver's own tracing + mongo-redact DriverTracing")) {
            Map<String, TreeSet<String>> where = found.get(ours);
            assertEquals(Arrays.asList("key that is data", "$limit"), Arrays.asList(where.keySet().toArray()), ours
                    + ": only the $limit, which defaults() keeps as metadata, and the key, which it keeps as shape: " + where);
        }
        assertEquals(Arrays.asList("$limit"), Arrays.asList(found.get(MASKED).keySet().toArray()), MASKED);
        assertTrue(found.get("the driver's own tracing (5.14.0, payload on)").containsKey("e-mail (insert, filter, duplicate key)"));
        assertTrue(found.get("opentelemetry-mongo-3.1 2.31.1-alpha (defaults)").containsKey("key that is data"));
        assertFalse(runs.get("mongo-redact OpenTelemetryCommandSink (defaults(), text 32 KiB)").isEmpty());
    }

    private static void search(final SpanData span, final Map<String, TreeSet<String>> where) {
        check(span.getName(), "span name", where);
        check(span.getStatus().getDescription(), "status description", where);
        check(span.getAttributes(), "", where);
        for (EventData event : span.getEvents()) {
            check(event.getAttributes(), "event " + event.getName() + ": ", where);
        }
    }

    private static void check(final Attributes attributes, final String prefix, final Map<String, TreeSet<String>> where) {
        for (Map.Entry<AttributeKey<?>, Object> entry : attributes.asMap().entrySet()) {
            check(String.valueOf(entry.getValue()), prefix + entry.getKey().getKey(), where);
        }
    }

    private static void check(final String text, final String place, final Map<String, TreeSet<String>> where) {
        for (Map.Entry<String, String> planted : PLANTED.entrySet()) {
            if (text != null && text.contains(planted.getValue())) {
                where.computeIfAbsent(planted.getKey(), k -> new TreeSet<>()).add(place);
            }
        }
    }

    static void workload(final MongoClient client) {
        MongoCollection<Document> users = client.getDatabase("app").getCollection("users");
        users.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true));
        users.insertOne(new Document("email", PLANTED.get("e-mail (insert, filter, duplicate key)"))
                .append("name", PLANTED.get("name (insert, filter)")).append("n", 1)
                .append("profile", new Document(PLANTED.get("key that is data"), true)));
        users.insertOne(new Document("email", "other@example.org").append("n", 2));
        users.find(new Document("email", PLANTED.get("e-mail (insert, filter, duplicate key)"))).first();
        users.find(new Document("name", Pattern.compile(PLANTED.get("regex")))).first();
        users.aggregate(Arrays.asList(new Document("$match", new Document("name", PLANTED.get("name (insert, filter)"))),
                new Document("$limit", Integer.parseInt(PLANTED.get("$limit"))))).first();
        users.updateOne(new Document("n", 1), new Document("$set", new Document("note", PLANTED.get("$set value"))));
        try {
            users.insertOne(new Document("email", PLANTED.get("e-mail (insert, filter, duplicate key)")));
        } catch (MongoWriteException expected) {
            // the duplicate key
        }
        try {
            users.findOneAndUpdate(new Document("n", 2), new Document("$set", new Document("email",
                    PLANTED.get("e-mail (insert, filter, duplicate key)"))));
        } catch (MongoCommandException expected) {
            // the duplicate key
        }
        try {
            client.getDatabase("admin").runCommand(new Document("createUser", "ada").append("pwd",
                    PLANTED.get("createUser password")).append("roles", Arrays.asList()));
        } catch (MongoCommandException expected) {
            // the embedded server has no user management
        }
    }
}
