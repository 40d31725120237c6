package io.github.mongoredact.spec;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.lang.Nullable;
import de.bwaldvogel.mongo.MongoServer;
import io.github.mongoredact.RedactionPolicy;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The OpenTelemetry specification's unified tests ({@code operation/}, {@code transaction/}), their command-span expectations
 * taken out of their operation spans and checked against the spans of OUR {@code OpenTelemetryCommandSink}: under
 * {@link RedactionPolicy#specOnly()} as written, under {@link RedactionPolicy#defaults()} with every value position of
 * {@code db.query.text} matched as a placeholder (metadata positions as written). Each test runs through the real driver
 * against the embedded server (whose handshake reply is given the {@code connectionId} a real server sends, see
 * {@link ConnectionIdBackend}), or, where that server can not run it (fail points, replica sets, client bulk write, Atlas
 * search, transactions, mapReduce), with constructed events built from the expected spans; the dynamic test's name and
 * {@code target/opentelemetry-spec-tests.md} say which and why. Nothing is skipped silently: {@link #SKIPPED} lists what is
 * not run at all, with the reason.
 */
class OpenTelemetrySpecTest {
    private static final int FILES = 22;
    private static final int TESTS = 24;
    private static final int COMMAND_SPANS = 34;
    /** Tests not run at all, with the reason: none; the map exists so that a skip has to say why. */
    private static final Map<String, String> SKIPPED = new LinkedHashMap<>();
    /** What the embedded server does not run, by operation name. */
    private static final Map<String, String> CONSTRUCTED_BY_OPERATION = new LinkedHashMap<>();

    static {
        CONSTRUCTED_BY_OPERATION.put("failPoint", "needs a failCommand fail point, which the embedded server lacks");
        CONSTRUCTED_BY_OPERATION.put("clientBulkWrite", "needs the 8.0 bulkWrite command, which the embedded server lacks");
        CONSTRUCTED_BY_OPERATION.put("createSearchIndex", "needs Atlas Search on a replica set");
        CONSTRUCTED_BY_OPERATION.put("startTransaction", "needs transactions on a replica set; the embedded server has no"
                + " sessions");
        CONSTRUCTED_BY_OPERATION.put("withTransaction", "needs transactions on a replica set; the embedded server has no"
                + " sessions");
        CONSTRUCTED_BY_OPERATION.put("mapReduce", "the embedded server answers CommandNotFound to mapReduce");
    }

    private static MongoServer server;
    private static String uri;
    private static MongoClient setup;
    private static final Map<String, String[]> REPORT = new LinkedHashMap<>();

    @BeforeAll
    static void startServer() {
        server = new MongoServer(new ConnectionIdBackend());
        server.bind("127.0.0.1", 0);
        uri = "mongodb://127.0.0.1:" + server.getLocalAddress().getPort();
        setup = MongoClients.create(uri);
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (setup != null) {
            setup.close();
        }
        if (server != null) {
            server.shutdownNow();
        }
        writeReport();
    }

    @TestFactory
    Stream<DynamicTest> commandSpans() {
        List<DynamicTest> tests = new ArrayList<>();
        for (TracingSpecCase specCase : TracingSpecCase.loadAll()) {
            String constructed = constructedReason(specCase);
            String adapted = adaptedReason(specCase);
            for (boolean parametrized : new boolean[]{false, true}) {
                String how = constructed != null ? "adapted: constructed events, " + constructed
                        : adapted != null ? "adapted: real driver, " + adapted : "run: real driver";
                String name = specCase.id + (parametrized ? " [defaults, placeholders]" : " [specOnly, as written]") + " ["
                        + how + "]";
                tests.add(DynamicTest.dynamicTest(name, () -> check(specCase, parametrized, constructed, how)));
            }
        }
        return tests.stream();
    }

    private static void check(final TracingSpecCase specCase, final boolean parametrized, @Nullable final String constructed,
                              final String how) {
        List<Mismatch> out = new ArrayList<>();
        SpanMatching matching;
        try (TracingRun run = new TracingRun(specCase, parametrized ? RedactionPolicy.defaults() : RedactionPolicy.specOnly())) {
            if (constructed == null) {
                InitialData.load(setup, specCase.initialData());
                run.runReal(uri, out);
            } else if (run.runConstructed() == 0) {
                out.add(Mismatch.other("no event was constructed"));
            }
            matching = new SpanMatching(parametrized, run.sessions);
            for (TracingSpecCase.Expected expected : specCase.expected()) {
                matching.match(expected, run.commandSpans(expected.client), out);
            }
        }
        String[] row = REPORT.computeIfAbsent(specCase.id, id -> new String[]{how, String.valueOf(specCase.commandSpanCount()),
                "", ""});
        row[parametrized ? 3 : 2] = out.isEmpty() ? (parametrized ? "pass (" + matching.placeholders + " placeholders, "
                + matching.metadata + " metadata)" : "pass") : "FAIL";
        if (!out.isEmpty()) {
            fail(specCase.id + ":\n  " + out.stream().map(Mismatch::toString).collect(Collectors.joining("\n  ")));
        }
    }

    /** Nothing is dropped silently: every file, test and command-span expectation is loaded. */
    @Test
    void everyTestAndCommandSpanExpectationIsLoaded() {
        List<TracingSpecCase> cases = TracingSpecCase.loadAll();
        assertEquals(FILES, cases.stream().map(c -> c.file).distinct().count());
        assertEquals(TESTS, cases.size());
        assertEquals(COMMAND_SPANS, cases.stream().mapToInt(TracingSpecCase::commandSpanCount).sum());
        assertTrue(SKIPPED.isEmpty(), "skipped: " + SKIPPED);
    }

    @Nullable
    static String constructedReason(final TracingSpecCase specCase) {
        for (Map.Entry<String, String> entry : CONSTRUCTED_BY_OPERATION.entrySet()) {
            if (specCase.uses(entry.getKey())) {
                return entry.getValue();
            }
        }
        return null;
    }

    /** A real run whose run-on requirements the embedded server does not meet, which the command span does not depend on. */
    @Nullable
    static String adaptedReason(final TracingSpecCase specCase) {
        for (BsonDocument level : new BsonDocument[]{specCase.fileDocument, specCase.test}) {
            BsonArray requirements = level.getArray("runOnRequirements", new BsonArray());
            if (!requirements.isEmpty()) {
                return "run despite runOnRequirements " + requirements.get(0).asDocument().toJson()
                        + ", which the embedded server does not report; the command span does not depend on the server version";
            }
        }
        return null;
    }

    private static void writeReport() throws IOException {
        StringBuilder table = new StringBuilder("| test | how | command spans | specOnly | defaults |\n|---|---|---|---|---|\n");
        for (Map.Entry<String, String[]> row : REPORT.entrySet()) {
            String[] cells = row.getValue();
            table.append("| ").append(row.getKey()).append(" | ").append(cells[0]).append(" | ").append(cells[1]).append(" | ")
                    .append(cells[2]).append(" | ").append(cells[3]).append(" |\n");
        }
        for (Map.Entry<String, String> skipped : SKIPPED.entrySet()) {
            table.append("| ").append(skipped.getKey()).append(" | skipped: ").append(skipped.getValue()).append(" | | | |\n");
        }
        Path path = Paths.get("target", "opentelemetry-spec-tests.md");
        Files.createDirectories(path.getParent());
        Files.write(path, table.toString().getBytes(StandardCharsets.UTF_8));
    }
}
