package io.github.mongoredact.spec;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command logging and monitoring specification's unified tests ({@code monitoring/}, {@code logging/}) and its truncation
 * prose tests, run against what OUR listener forwards ({@link io.github.mongoredact.RedactionPolicy#specOnly()}) and what
 * OUR log sink writes. One dynamic test per spec test, named by file and description, run either for real (the real driver
 * against the embedded server) or, when the embedded server can not run it, with constructed driver events; the name says
 * which and why. Known product faults are listed in {@link KnownProductFaults}.
 */
class CommandLoggingAndMonitoringSpecTest {
    /** The spec's JSON files and tests this suite holds; a change must be deliberate. */
    private static final int FILES = 25;
    private static final int TESTS = 67;
    /** Of those, the tests the embedded server can not run (see {@link Feasibility}); the other 39 run for real. */
    private static final int CONSTRUCTED = 28;

    private static MongoServer server;
    private static String uri;
    private static MongoClient setup;
    private static String serverVersion;

    @BeforeAll
    static void startServer() {
        server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        uri = "mongodb://127.0.0.1:" + server.getLocalAddress().getPort();
        setup = MongoClients.create(uri);
        serverVersion = setup.getDatabase("admin").runCommand(new BsonDocument("buildInfo", new org.bson.BsonInt32(1)),
                BsonDocument.class).getString("version").getValue();
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
    Stream<DynamicTest> unifiedTests() {
        return SpecCase.loadAll().stream().map(specCase -> {
            String reason = Feasibility.constructedReason(specCase, serverVersion);
            String name = specCase.id + (reason == null ? " [real]" : " [constructed events: " + reason + "]");
            return DynamicTest.dynamicTest(name, () -> KnownProductFaults.judge(specCase.id,
                    reason == null ? runReal(specCase) : runConstructed(specCase)));
        });
    }

    @TestFactory
    Stream<DynamicTest> proseTests() {
        ProseTests prose = new ProseTests(uri, setup);
        return prose.all().entrySet().stream().map(entry -> DynamicTest.dynamicTest(entry.getKey(),
                () -> KnownProductFaults.judge(entry.getKey(), entry.getValue().get())));
    }

    /** Nothing is dropped silently: every file and test is loaded, and every listed fault names a test that exists. */
    @Test
    void everySpecTestIsLoadedAndEveryKnownFaultNamesOne() {
        List<SpecCase> cases = SpecCase.loadAll();
        assertEquals(TESTS, cases.size());
        assertEquals(FILES, cases.stream().map(c -> c.file).distinct().count());
        Set<String> ids = cases.stream().map(c -> c.id).collect(Collectors.toCollection(HashSet::new));
        ids.addAll(new ProseTests(uri, setup).all().keySet());
        Set<String> unknown = new TreeSet<>(KnownProductFaults.FAULTS.keySet());
        unknown.removeAll(ids);
        assertTrue(unknown.isEmpty(), "KnownProductFaults names no such test: " + unknown);
        long constructed = cases.stream().filter(c -> Feasibility.constructedReason(c, serverVersion) != null).count();
        assertEquals(CONSTRUCTED, constructed, "tests run with constructed events (the others run for real)");
    }

    private static List<Mismatch> runReal(final SpecCase specCase) {
        List<Mismatch> out = new ArrayList<>();
        InitialData.load(setup, specCase.initialData());
        try (Entities entities = new Entities(uri)) {
            entities.create(specCase.createEntities());
            new RealOperations(entities, out).runAll(specCase.operations());
            // what the embedded server answers to the sensitive commands it does not know
            new Expectations(entities, out, List.of("no such command")).checkAll(specCase);
        }
        return out;
    }

    private static List<Mismatch> runConstructed(final SpecCase specCase) {
        List<Mismatch> out = new ArrayList<>();
        try (Entities entities = new Entities(null)) {
            ConstructedRun run = new ConstructedRun(specCase, entities);
            run.run();
            if (run.fed == 0) {
                out.add(Mismatch.other("no event was constructed"));
            }
            new Expectations(entities, out, run.redactedTexts).checkAll(specCase);
        }
        return out;
    }
}
