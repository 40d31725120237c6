package io.github.mongoredact.spec;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.observation.DriverTracing;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The OpenTelemetry specification's unified tests against the driver's OWN tracing (5.7+) made safe by {@link DriverTracing}:
 * the whole span trees as written, operation spans with their command spans nested, with this library's text as
 * {@code db.query.text} under {@link RedactionPolicy#specOnly()}. Only the tests the embedded server runs for real: the
 * others need the driver to make the spans, which constructed events can not. Run where the driver has the API (the 5.7 and
 * 5.14 executions). The one adaptation: the driver's tracing writes every attribute value as a string, so a numeric string
 * is read as the number the specification types it as.
 */
class OwnTracingSpecTest {
    private static MongoServer server;
    private static String uri;
    private static MongoClient setup;

    @BeforeAll
    static void startServer() {
        server = new MongoServer(new ConnectionIdBackend());
        server.bind("127.0.0.1", 0);
        uri = "mongodb://127.0.0.1:" + server.getLocalAddress().getPort();
        setup = MongoClients.create(uri);
    }

    @AfterAll
    static void stopServer() {
        if (setup != null) {
            setup.close();
        }
        if (server != null) {
            server.shutdownNow();
        }
    }

    @TestFactory
    Stream<DynamicTest> spanTrees() {
        assertTrue(DriverTracing.isSupported(), "runs on driver 5.7 and later");
        List<DynamicTest> tests = new ArrayList<>();
        for (TracingSpecCase specCase : TracingSpecCase.loadAll()) {
            if (OpenTelemetrySpecTest.constructedReason(specCase) != null) {
                continue;
            }
            tests.add(DynamicTest.dynamicTest(specCase.id + " [driver's own tracing, real driver]", () -> check(specCase)));
        }
        return tests.stream();
    }

    private static void check(final TracingSpecCase specCase) {
        List<Mismatch> out = new ArrayList<>();
        try (TracingRun run = new TracingRun(specCase, RedactionPolicy.specOnly(), true)) {
            InitialData.load(setup, specCase.initialData());
            run.runReal(uri, out);
            SpanMatching matching = new SpanMatching(false, run.sessions);
            for (BsonValue value : specCase.test.getArray("expectTracingMessages")) {
                BsonDocument messages = value.asDocument();
                String client = messages.getString("client").getValue();
                matching.matchTree(messages.getArray("spans"), messages.getBoolean("ignoreExtraSpans",
                        org.bson.BsonBoolean.FALSE).getValue(), run.allSpans(client), "client " + client, out);
            }
        }
        if (!out.isEmpty()) {
            fail(specCase.id + ":\n  " + out.stream().map(Mismatch::toString).collect(Collectors.joining("\n  ")));
        }
    }
}
