package io.github.mongoredact.deny;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.StartedCommand;
import io.github.mongoredact.log.CommandLogSink;
import io.github.mongoredact.log.KeyValueLines;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.github.mongoredact.otel.Metrics;
import io.github.mongoredact.otel.OpenTelemetryCommandSink;
import io.github.mongoredact.otel.OpenTelemetryMetricsSink;
import io.github.mongoredact.otel.SpanNaming;
import io.github.mongoredact.otel.Spans;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Plants a marker in every value position of every command family the driver emits, sends them through a
 * {@link RedactingCommandListener} under {@link RedactionPolicy#defaults()} (the families the embedded server runs through
 * the real driver over TCP, the others as driver-shaped events), and checks that no planted value leaves in a forwarded
 * command, reply or failure, while the command's name, collection and {@code $db}, the reply's {@code ok} and the failure's
 * code do; nor in any attribute, event or status of the spans of an {@code OpenTelemetryCommandSink} on the same listener
 * (query text on, uncut; in the driver specification's form and in the conventions', with the query shape), nor in any
 * metric attribute of an {@code OpenTelemetryMetricsSink} (returned rows on; {@link NewAttributes} checks the spans carry
 * what issue 33 added); nor in any key-value pair of the lines of a {@code CommandLogSink} (our {@code fingerprint},
 * MongoDB's {@code queryShape} and {@code queryShapeHash}) nor in any tag of the meters of a {@code MicrometerCommandSink} with
 * both opt-in tags ({@code command.fingerprint}, {@code query.shape.hash}), both on the same listener ({@link SinkOutputs}).
 * Today's leaks are listed in {@link KnownLeaks}; the table of all of them is written to {@code target/deny-leaks.md}. Every
 * constructed command is also sent with its twin ({@link Twins}: other values, other data in the keys that are data), and the
 * two must have one fingerprint and one query shape hash (or none).
 */
class DenyByDefaultTest {
    private static final long SEED = 0x5EED_10L;
    private static final Set<String> SENSITIVE = new HashSet<>(Arrays.asList("createUser", "updateUser"));
    private static final DriverShapes.Backing[] COMMAND_BACKINGS = {DriverShapes.Backing.BYTE_BUF_HEAP,
            DriverShapes.Backing.BYTE_BUF_HEAP_IN_MESSAGE, DriverShapes.Backing.BYTE_BUF_DIRECT};

    private final Planted planted = new Planted(SEED);
    private final UserData data = new UserData(planted);
    private final Pipelines pipelines = new Pipelines(data);
    private final Replies replies = new Replies(data);
    private final Failures failures = new Failures(data, replies);
    private final Recorder reference = new Recorder(true);
    private final Recorder forwarded = new Recorder(false);
    private final Recorder.Sink sink = new Recorder.Sink(forwarded);
    /** The OpenTelemetry sink on the same listener, its query text uncut: every attribute and event of its spans is searched. */
    private final Spans spans = new Spans();
    private final OpenTelemetryCommandSink tracing = OpenTelemetryCommandSink.builder(spans.openTelemetry)
            .queryTextMaxLength(10_000_000).queryShape(true).build();
    /** The same spans in the conventions' form: the summary with every pipeline target, the name from it; the shape too. */
    private final OpenTelemetryCommandSink conventions = OpenTelemetryCommandSink.builder(spans.openTelemetry)
            .spanNaming(SpanNaming.SEMANTIC_CONVENTIONS).queryTextMaxLength(10_000_000).queryShape(true).build();
    /** The OpenTelemetry metrics, returned rows on: every metric attribute is searched. */
    private final Metrics otelReadings = new Metrics();
    private final OpenTelemetryMetricsSink otelMetrics = OpenTelemetryMetricsSink.builder(otelReadings.openTelemetry)
            .returnedRows(true).build();
    /** The log sink on the same listener, every field a pair, documents and shapes uncut: every pair of every line is searched. */
    private final KeyValueLines logged = new KeyValueLines(name -> forwarded.family(name));
    private final CommandLogSink log = logged.sink();
    /** The metrics sink on the same listener with both opt-in tags, unbounded for the run: every tag of every meter is searched. */
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MicrometerCommandSink metrics = MicrometerCommandSink.builder(registry).fingerprintTag(true)
            .maxFingerprints(1_000_000).queryShapeHashTag(true).maxQueryShapes(1_000_000).build();
    private final RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
            .addListener(forwarded).addSink(sink).addSink(tracing).addSink(conventions).addSink(otelMetrics).addSink(log)
            .addSink(metrics).build();
    private final Set<String> notCollection = new HashSet<>();
    private final Twins twins = new Twins(planted);
    private final long[] lastFingerprint = new long[1];
    private final String[] lastShapeHash = new String[1];
    /**
     * Fingerprints and query shape hashes only: each command and its twin, which differs from it in values and in the data of
     * its keys, under {@code defaults()}.
     */
    private final RedactingCommandListener fingerprints = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
            .addSink(new CommandSink() {
                @Override
                public boolean needsDocuments() {
                    return false;
                }

                @Override
                public boolean needsQueryShape() {
                    return true;
                }

                @Override
                public void started(final StartedCommand command) {
                    lastFingerprint[0] = command.getFingerprint();
                    lastShapeHash[0] = command.getQueryShapeHash();
                }
            }).build();
    private final List<String> fingerprintProblems = new ArrayList<>();
    private int twinsCompared;
    private int twinHashesCompared;
    private int requestId = 10_000;

    @Test
    void noPlantedValueLeavesUnderDefaultsBeyondTheKnownLeaks() throws IOException {
        int refused = runDriverWorkload();
        List<Case> cases = new ArrayList<>(new CrudCases(data, pipelines, replies, failures).all());
        cases.addAll(new AdminCases(data, pipelines, replies, failures).all());
        for (Case c : cases) {
            send(c);
        }
        assertTrue(planted.count() > 1000, "planted " + planted.count());
        assertTrue(refused < 40, "the server refused most of the workload: " + refused);

        List<String> problems = metadataProblems();
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        assertTrue(twinsCompared >= 150, "twins compared " + twinsCompared);
        // today 7 of the 200 twins have a hash: most constructed finds and aggregates name keys that are data, or parts
        // that defaults() redacts (let, collation), so their copy shows no shape; these floors keep the checks from emptying
        assertTrue(twinHashesCompared >= 5, "twins with a query shape hash compared " + twinHashesCompared);
        assertTrue(fingerprintProblems.isEmpty(), "a fingerprint or a query shape hash took a value:\n"
                + String.join("\n", fingerprintProblems));
        assertEquals(0, listener.getCounters().getRedactionFailures(), listener.getCounters().toString());
        assertEquals(0, listener.getCounters().getSinkFailures(), listener.getCounters().toString());
        assertEquals(0, log.getFailures());

        SinkOutputs outputs = new SinkOutputs();
        List<Leak> leaks = findLeaks(outputs);
        LeakTable.write(Paths.get("target", "deny-leaks.md"), leaks);
        System.out.println("deny by default: " + cases.size() + " constructed commands and the driver workload, "
                + planted.count() + " planted values, " + twinsCompared + " twins compared (" + twinHashesCompared
                + " with a query shape hash), " + logged.lines().size() + " log lines (" + outputs.shapedLines
                + " with queryShape and queryShapeHash), " + registry.getMeters().size() + " meters ("
                + outputs.hashTags.size() + " query.shape.hash values, " + outputs.fingerprintTags.size()
                + " command.fingerprint values), " + leaks.size() + " leaks");
        // the derived outputs searched must not be empty, or the check could pass by having nothing to search (today: 19
        // lines with a shape, 13 hashes)
        assertTrue(outputs.shapedLines >= 15, "log lines with a query shape: " + outputs.shapedLines);
        assertTrue(outputs.hashTags.size() >= 10, "query.shape.hash values: " + outputs.hashTags);
        List<String> unexpected = new ArrayList<>();
        for (Leak leak : leaks) {
            if (KnownLeaks.ENTRIES.stream().noneMatch(entry -> entry.matches(leak))) {
                unexpected.add(leak.toString());
            }
        }
        List<String> fixed = new ArrayList<>();
        for (KnownLeaks.Entry entry : KnownLeaks.ENTRIES) {
            if (leaks.stream().noneMatch(entry::matches)) {
                fixed.add(entry.pattern);
            }
        }
        assertTrue(unexpected.isEmpty(), unexpected.size() + " leaks not in KnownLeaks:\n"
                + String.join("\n", unexpected.subList(0, Math.min(60, unexpected.size()))));
        assertTrue(fixed.isEmpty(), "now fixed: remove from KnownLeaks:\n" + String.join("\n", fixed));
    }

    private int runDriverWorkload() {
        MongoServer server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        MongoClient client = null;
        try {
            String uri = "mongodb://127.0.0.1:" + server.getLocalAddress().getPort();
            client = MongoClients.create(MongoClientSettings.builder().applyConnectionString(new ConnectionString(uri))
                    .addCommandListener(reference).addCommandListener(listener).build());
            return new DriverWorkload(data, pipelines).run(client);
        } finally {
            if (client != null) {
                client.close();
            }
            server.shutdownNow();
        }
    }

    private void send(final Case c) {
        reference.label(c.family);
        forwarded.label(c.family);
        if (!c.firstIsCollection) {
            notCollection.add(c.family);
        }
        DriverShapes.Backing backing = planted.pick(COMMAND_BACKINGS);
        String name = c.commandName();
        BsonDocument command = input(c.top, c.documents, c.documents2, c, backing);
        dispatch(DriverShapes.started(++requestId, name, command), null);
        compareWithTwin(c, backing);
        BsonDocument reply = c.reply != null ? c.reply : c.failure == null ? Replies.ok(new BsonDocument()) : null;
        if (reply != null) {
            dispatch(null, DriverShapes.succeeded(requestId, name, new RawBsonDocument(DriverShapes.encode(reply))));
            if (c.failure != null) {
                dispatch(DriverShapes.started(++requestId, name, DriverShapes.byteBacked(c.top, backing)), null);
            }
        }
        if (c.failure != null) {
            both(reference, listener).commandFailed(DriverShapes.failed(requestId, name, c.failure));
        }
    }

    static BsonDocument input(final BsonDocument top, @Nullable final List<BsonDocument> documents,
                                      @Nullable final List<BsonDocument> documents2, final Case c,
                                      final DriverShapes.Backing backing) {
        return c.sequence == null ? DriverShapes.byteBacked(top, backing)
                : c.sequence2 == null ? DriverShapes.withSequences(top, backing, c.sequence, documents)
                : DriverShapes.withSequences(top, backing, c.sequence, documents, c.sequence2, documents2);
    }

    /** The fingerprint of the command and of its twin (other values, other data in its keys) must be one. */
    private void compareWithTwin(final Case c, final DriverShapes.Backing backing) {
        if (SENSITIVE.contains(c.commandName())) {
            return;
        }
        String name = c.commandName();
        fingerprints.commandStarted(DriverShapes.started(1, name, input(c.top, c.documents, c.documents2, c, backing)));
        long original = lastFingerprint[0];
        String originalHash = lastShapeHash[0];
        BsonDocument top = twins.of(c.top);
        List<BsonDocument> documents = twinsOf(c.documents);
        List<BsonDocument> documents2 = twinsOf(c.documents2);
        fingerprints.commandStarted(DriverShapes.started(2, name, input(top, documents, documents2, c, backing)));
        twinsCompared++;
        if (original == 0 || original != lastFingerprint[0]) {
            fingerprintProblems.add(c.family + ": " + c.top.toJson() + "\ntwin: " + top.toJson());
        }
        if (originalHash != null) {
            twinHashesCompared++;
        }
        if (!java.util.Objects.equals(originalHash, lastShapeHash[0])) {
            fingerprintProblems.add(c.family + " query shape hash " + originalHash + ", twin's " + lastShapeHash[0] + ": "
                    + c.top.toJson() + "\ntwin: " + top.toJson());
        }
    }

    @Nullable
    private List<BsonDocument> twinsOf(@Nullable final List<BsonDocument> documents) {
        if (documents == null) {
            return null;
        }
        List<BsonDocument> twin = new ArrayList<>();
        for (BsonDocument document : documents) {
            twin.add(twins.of(document));
        }
        return twin;
    }

    private void dispatch(@Nullable final CommandStartedEvent started, @Nullable final CommandSucceededEvent succeeded) {
        CommandListener both = both(reference, listener);
        if (started != null) {
            both.commandStarted(started);
        } else {
            both.commandSucceeded(succeeded);
        }
    }

    private static CommandListener both(final CommandListener first, final CommandListener second) {
        return new CommandListener() {
            @Override
            public void commandStarted(final CommandStartedEvent event) {
                first.commandStarted(event);
                second.commandStarted(event);
            }

            @Override
            public void commandSucceeded(final CommandSucceededEvent event) {
                first.commandSucceeded(event);
                second.commandSucceeded(event);
            }

            @Override
            public void commandFailed(final CommandFailedEvent event) {
                first.commandFailed(event);
                second.commandFailed(event);
            }
        };
    }

    private List<Leak> findLeaks(final SinkOutputs outputs) {
        LeakFinder finder = new LeakFinder(planted);
        for (Recorder.Entry entry : forwarded.started) {
            finder.document(entry.family, "command", entry.document);
        }
        for (Recorder.Entry entry : forwarded.succeeded) {
            finder.document(entry.family, "reply", entry.document);
        }
        for (Recorder.Entry entry : forwarded.failed) {
            finder.failure(entry.family, "failure", entry.failure);
        }
        for (String[] collection : sink.collections) {
            finder.text(collection[0], "sink.getCollectionName()", collection[1]);
        }
        List<SpanData> traced = spans.commands();
        assertTrue(traced.size() > 100, "spans: " + traced.size());
        assertEquals(0, tracing.getFailures() + conventions.getFailures() + otelMetrics.getFailures());
        for (SpanData span : traced) {
            for (String text : Spans.allTexts(span)) {
                finder.text("span " + span.getName(), "span", text);
            }
        }
        NewAttributes.assertCovered(traced);
        otelReadings.collect();
        List<String> metricTexts = otelReadings.allTexts();
        assertTrue(otelReadings.points(OpenTelemetryMetricsSink.RETURNED_ROWS).size() > 0, "returned rows recorded");
        for (String text : metricTexts) {
            finder.text("otel metrics", "metric attribute", text);
        }
        System.out.println("deny by default, OpenTelemetry: " + traced.size() + " spans (" + NewAttributes.describe(traced)
                + "), " + metricTexts.size() + " metric names and attributes searched");
        spans.close();
        outputs.scanLog(finder, logged);
        outputs.scanMeters(finder, registry);
        otelReadings.close();
        return finder.leaks();
    }

    /** What must survive: otherwise the check could pass by forwarding nothing. */
    private List<String> metadataProblems() {
        List<String> problems = new ArrayList<>();
        assertEquals(reference.started.size(), forwarded.started.size(), "started events forwarded");
        assertEquals(reference.succeeded.size(), forwarded.succeeded.size(), "succeeded events forwarded");
        assertEquals(reference.failed.size(), forwarded.failed.size(), "failed events forwarded");
        for (int i = 0; i < reference.started.size(); i++) {
            Recorder.Entry driver = reference.started.get(i);
            Recorder.Entry ours = forwarded.started.get(i);
            String at = driver.family + " command " + i + ": ";
            if (!driver.commandName.equals(ours.commandName)) {
                problems.add(at + "event name " + ours.commandName);
            }
            if (SENSITIVE.contains(driver.commandName)) {
                continue;
            }
            BsonDocument command = ours.document;
            String first = driver.document.getFirstKey();
            if (command == null || command.isEmpty() || !command.getFirstKey().equals(first)) {
                problems.add(at + "first key lost: " + (command == null ? null : command.toJson()));
                continue;
            }
            BsonValue value = driver.document.get(first);
            if (!notCollection.contains(driver.family) && (value.isString() || value.isNumber())
                    && !value.equals(command.get(first))) {
                problems.add(at + "collection lost: " + command.get(first) + " instead of " + value);
            }
            if (driver.document.containsKey("$db") && !driver.document.get("$db").equals(command.get("$db"))) {
                problems.add(at + "$db lost");
            }
        }
        for (int i = 0; i < reference.succeeded.size(); i++) {
            Recorder.Entry driver = reference.succeeded.get(i);
            BsonDocument reply = forwarded.succeeded.get(i).document;
            if (!SENSITIVE.contains(driver.commandName) && driver.document.containsKey("ok")
                    && !driver.document.get("ok").equals(reply.get("ok"))) {
                problems.add(driver.family + " reply " + i + ": ok lost: " + reply.toJson());
            }
        }
        for (int i = 0; i < reference.failed.size(); i++) {
            Throwable driver = reference.failed.get(i).failure;
            Throwable ours = forwarded.failed.get(i).failure;
            if (ours == null) {
                problems.add(reference.failed.get(i).family + " failure " + i + ": none forwarded");
            } else if (driver instanceof MongoException && (!(ours instanceof MongoException)
                    || ((MongoException) driver).getCode() != ((MongoException) ours).getCode())) {
                problems.add(reference.failed.get(i).family + " failure " + i + ": code lost: " + ours.getClass());
            }
        }
        return problems;
    }
}
