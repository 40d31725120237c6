package io.github.mongoredact.spec;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.connection.ConnectionDescription;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.Events;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.observation.DriverTracing;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.github.mongoredact.otel.OpenTelemetryCommandSink;
import io.github.mongoredact.otel.Spans;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The clients of an OpenTelemetry spec test, each with OUR listener and OUR {@link OpenTelemetryCommandSink} (query text on,
 * 10,000 characters, when the client observes the command payload), and the test's operations: run through the real driver
 * against the embedded server, or fed as constructed driver events built from the expected command spans.
 */
final class TracingRun implements AutoCloseable {
    static final int QUERY_TEXT_MAX_LENGTH = 10_000;

    private final TracingSpecCase specCase;
    private final RedactionPolicy policy;
    private final Map<String, Spans> spans = new LinkedHashMap<>();
    private final Map<String, RedactingCommandListener.Builder> listeners = new LinkedHashMap<>();
    private final Map<String, RedactingCommandListener> built = new LinkedHashMap<>();
    private final Map<String, MongoClient> clients = new LinkedHashMap<>();
    private final Map<String, String[]> databases = new LinkedHashMap<>();
    private final Map<String, String[]> collections = new LinkedHashMap<>();
    /** Session entity id to its lsid as a span carries it. */
    final Map<String, String> sessions = new LinkedHashMap<>();

    /** The registries and tracing of the clients that trace with the driver's own tracing, by client id. */
    private final Map<String, ObservationRegistry> registries = new LinkedHashMap<>();
    private final Map<String, DriverTracing> ownTracing = new LinkedHashMap<>();

    TracingRun(final TracingSpecCase specCase, final RedactionPolicy policy) {
        this(specCase, policy, false);
    }

    /**
     * @param driversOwnTracing whether the observing clients trace with the driver's own tracing (5.7+) made safe by
     *                          {@link DriverTracing}, into OpenTelemetry through Micrometer Tracing, rather than with the sink
     */
    TracingRun(final TracingSpecCase specCase, final RedactionPolicy policy, final boolean driversOwnTracing) {
        this.specCase = specCase;
        this.policy = policy;
        for (BsonValue value : specCase.createEntities()) {
            BsonDocument entity = value.asDocument();
            String type = entity.getFirstKey();
            BsonDocument spec = entity.getDocument(type);
            String id = spec.getString("id").getValue();
            if (type.equals("client")) {
                RedactingCommandListener.Builder builder = RedactingCommandListener.builder().policy(policy);
                if (spec.containsKey("observeTracingMessages")) {
                    Spans clientSpans = new Spans();
                    boolean payload = spec.getDocument("observeTracingMessages")
                            .getBoolean("enableCommandPayload", org.bson.BsonBoolean.FALSE).getValue();
                    if (driversOwnTracing) {
                        DriverTracing tracing = DriverTracing.builder().policy(policy)
                                .queryTextMaxLength(payload ? QUERY_TEXT_MAX_LENGTH : 0).build();
                        ObservationRegistry registry = ObservationRegistry.create();
                        tracing.register(registry);
                        registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(new OtelTracer(
                                clientSpans.openTelemetry.getTracer("micrometer"), new OtelCurrentTraceContext(), event -> { })));
                        registries.put(id, registry);
                        ownTracing.put(id, tracing);
                    } else {
                        builder.addSink(OpenTelemetryCommandSink.builder(clientSpans.openTelemetry)
                                .queryTextMaxLength(payload ? QUERY_TEXT_MAX_LENGTH : 0).build());
                    }
                    spans.put(id, clientSpans);
                }
                listeners.put(id, builder);
            } else if (type.equals("database")) {
                databases.put(id, new String[]{spec.getString("client").getValue(), spec.getString("databaseName").getValue()});
            } else if (type.equals("collection")) {
                collections.put(id, new String[]{spec.getString("database").getValue(),
                        spec.getString("collectionName").getValue()});
            } else if (type.equals("session")) {
                sessions.put(id, UUID.nameUUIDFromBytes(id.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString());
            }
        }
    }

    private RedactingCommandListener listener(final String client) {
        return built.computeIfAbsent(client, id -> listeners.get(id).build());
    }

    /** @return every span the client's tracer made (the driver's own tracing: operation and command spans) */
    List<SpanData> allSpans(final String client) {
        Spans clientSpans = spans.get(client);
        return clientSpans == null ? new ArrayList<>() : clientSpans.finished();
    }

    /** @return the command spans the client made, in the order they ended */
    List<SpanData> commandSpans(final String client) {
        Spans clientSpans = spans.get(client);
        return clientSpans == null ? new ArrayList<>() : clientSpans.commands();
    }

    // ---- real runs ----

    void runReal(final String uri, final List<Mismatch> out) {
        for (Map.Entry<String, RedactingCommandListener.Builder> client : listeners.entrySet()) {
            MongoClientSettings.Builder settings = MongoClientSettings.builder().applyConnectionString(new ConnectionString(uri));
            DriverTracing tracing = ownTracing.get(client.getKey());
            if (tracing != null) {
                tracing.apply(settings, registries.get(client.getKey()), client.getValue());
            }
            clients.put(client.getKey(), MongoClients.create(settings.addCommandListener(listener(client.getKey())).build()));
        }
        BsonArray operations = specCase.operations();
        for (int i = 0; i < operations.size(); i++) {
            BsonDocument operation = operations.get(i).asDocument();
            try {
                run(operation);
                if (operation.containsKey("expectError")) {
                    out.add(Mismatch.other("operations[" + i + "]: expected an error"));
                }
            } catch (RuntimeException e) {
                if (!operation.containsKey("expectError")) {
                    out.add(Mismatch.other("operations[" + i + "] " + operation.getString("name").getValue()
                            + ": unexpected error " + e));
                }
            }
        }
    }

    private void run(final BsonDocument operation) {
        String name = operation.getString("name").getValue();
        String object = operation.getString("object").getValue();
        BsonDocument arguments = operation.getDocument("arguments", new BsonDocument());
        switch (name) {
            case "listDatabases":
                clients.get(object).listDatabases(BsonDocument.class).into(new ArrayList<>());
                return;
            case "listCollections":
                database(object).listCollections(BsonDocument.class).into(new ArrayList<>());
                return;
            case "dropCollection":
                database(object).getCollection(arguments.getString("collection").getValue()).drop();
                return;
            case "createCollection":
                database(object).createCollection(arguments.getString("collection").getValue());
                return;
            default:
                break;
        }
        MongoCollection<BsonDocument> collection = collection(object);
        switch (name) {
            case "aggregate":
                collection.aggregate(documents(arguments.getArray("pipeline"))).into(new ArrayList<>());
                break;
            case "estimatedDocumentCount":
                collection.estimatedDocumentCount();
                break;
            case "createIndex":
                IndexOptions options = new IndexOptions();
                if (arguments.containsKey("name")) {
                    options.name(arguments.getString("name").getValue());
                }
                collection.createIndex(arguments.getDocument("keys"), options);
                break;
            case "dropIndexes":
                collection.dropIndexes();
                break;
            case "listIndexes":
                collection.listIndexes(BsonDocument.class).into(new ArrayList<>());
                break;
            case "deleteMany":
                collection.deleteMany(arguments.getDocument("filter"));
                break;
            case "distinct":
                collection.distinct(arguments.getString("fieldName").getValue(), arguments.getDocument("filter"),
                        BsonValue.class).into(new ArrayList<>());
                break;
            case "find":
                collection.find(arguments.getDocument("filter")).into(new ArrayList<>());
                break;
            case "findOneAndUpdate":
                FindOneAndUpdateOptions findOptions = new FindOneAndUpdateOptions();
                if (arguments.containsKey("comment")) {
                    findOptions.comment(arguments.getString("comment").getValue());
                }
                BsonValue update = arguments.get("update");
                if (update.isArray()) {
                    collection.findOneAndUpdate(arguments.getDocument("filter"), documents(update.asArray()), findOptions);
                } else {
                    collection.findOneAndUpdate(arguments.getDocument("filter"), update.asDocument(), findOptions);
                }
                break;
            case "insertOne":
                collection.insertOne(arguments.getDocument("document"));
                break;
            case "updateOne":
                collection.updateOne(arguments.getDocument("filter"), arguments.getDocument("update"));
                break;
            case "mapReduce":
                collection.mapReduce(arguments.get("map").asJavaScript().getCode(), arguments.get("reduce").asJavaScript().getCode())
                        .into(new ArrayList<>());
                break;
            default:
                throw new UnsupportedOperationException("the runner does not run " + name + " for real");
        }
    }

    private MongoDatabase database(final String databaseId) {
        String[] database = databases.get(databaseId);
        return clients.get(database[0]).getDatabase(database[1]);
    }

    private MongoCollection<BsonDocument> collection(final String collectionId) {
        String[] collection = collections.get(collectionId);
        return database(collection[0]).getCollection(collection[1], BsonDocument.class);
    }

    private static List<BsonDocument> documents(final BsonArray array) {
        List<BsonDocument> documents = new ArrayList<>();
        array.forEach(value -> documents.add(value.asDocument()));
        return documents;
    }

    // ---- constructed runs ----

    /**
     * Feeds, for each expected command span of each client, the started event of the command its expected text shows (with
     * {@code $db}, and the session's {@code lsid} in a transaction), then its success, or its failure with the expected code.
     *
     * @return the number of events fed
     */
    int runConstructed() {
        ConnectionDescription connection = Events.connection(27L, null);
        int requestId = 500;
        int fed = 0;
        String session = sessions.isEmpty() ? null : sessions.keySet().iterator().next();
        for (TracingSpecCase.Expected expected : specCase.expected()) {
            RedactingCommandListener listener = listener(expected.client);
            for (BsonDocument span : expected.commandSpans) {
                BsonDocument attributes = span.getDocument("attributes");
                String name = attributes.getString("db.command.name").getValue();
                String database = attributes.getString("db.namespace").getValue();
                BsonDocument command = command(attributes, name);
                command.append("$db", new BsonString(database));
                if (session != null && attributes.containsKey("db.mongodb.lsid")) {
                    command.append("lsid", new BsonDocument("id", new BsonBinary(UUID.fromString(sessions.get(session)))));
                }
                int request = requestId++;
                CommandStartedEvent started = new CommandStartedEvent(null, 40, request, connection, database, name,
                        new RawBsonDocument(command, new BsonDocumentCodec()));
                listener.commandStarted(started);
                BsonValue code = attributes.get("db.response.status_code");
                boolean fails = code != null && !(code.isDocument() && code.asDocument().containsKey("$$exists")
                        && !code.asDocument().getBoolean("$$exists").getValue());
                if (fails) {
                    BsonDocument response = new BsonDocument("ok", new BsonDouble(0))
                            .append("errmsg", new BsonString("Failing command via 'failCommand' failpoint"))
                            .append("code", new BsonInt32(code.isString() ? Integer.parseInt(code.asString().getValue()) : 115))
                            .append("codeName", new BsonString(code.isString() ? "NotPrimaryOrSecondary" : "CommandNotSupported"));
                    listener.commandFailed(new CommandFailedEvent(null, 40, request, connection, database, name, 2_000_000L,
                            new MongoCommandException(response, Events.SERVER_ID.getAddress())));
                } else {
                    listener.commandSucceeded(new CommandSucceededEvent(null, 40, request, connection, database, name,
                            new RawBsonDocument(reply(name, command, database), new BsonDocumentCodec()), 1_500_000L));
                }
                fed += 2;
            }
        }
        return fed;
    }

    /** The command the expected text shows; without a text, the command name with its collection (or 1). */
    private static BsonDocument command(final BsonDocument attributes, final String name) {
        BsonValue text = attributes.get("db.query.text");
        if (text != null && text.isDocument() && text.asDocument().containsKey("$$matchAsDocument")) {
            BsonDocument root = text.asDocument().getDocument("$$matchAsDocument");
            return materialize(root.containsKey("$$matchAsRoot") ? root.getDocument("$$matchAsRoot") : root).asDocument();
        }
        BsonValue collection = attributes.get("db.collection.name");
        return new BsonDocument(name, collection != null && collection.isString() ? collection : new BsonInt32(1));
    }

    /** The expected document with each {@code $$unsetOrMatches} replaced by its value. */
    static BsonValue materialize(final BsonValue expected) {
        if (expected.isDocument()) {
            BsonDocument document = expected.asDocument();
            if (document.size() == 1 && document.getFirstKey().equals("$$unsetOrMatches")) {
                return materialize(document.get("$$unsetOrMatches"));
            }
            BsonDocument out = new BsonDocument();
            document.forEach((key, value) -> out.append(key, materialize(value)));
            return out;
        }
        if (expected.isArray()) {
            BsonArray out = new BsonArray();
            expected.asArray().forEach(value -> out.add(materialize(value)));
            return out;
        }
        return expected;
    }

    private static BsonDocument reply(final String name, final BsonDocument command, final String database) {
        BsonDocument reply = new BsonDocument();
        if (name.equals("find") || name.equals("aggregate")) {
            reply.append("cursor", new BsonDocument("firstBatch", new BsonArray()).append("id", new BsonInt64(0))
                    .append("ns", new BsonString(database + "." + command.get(name).asString().getValue())));
        } else if (name.equals("insert") || name.equals("update") || name.equals("delete")) {
            reply.append("n", new BsonInt32(1));
        }
        return reply.append("ok", new BsonDouble(1));
    }

    @Nullable
    RedactionPolicy policy() {
        return policy;
    }

    @Override
    public void close() {
        clients.values().forEach(MongoClient::close);
        spans.values().forEach(Spans::close);
    }
}
