package io.github.mongoredact.spec;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.WriteConcern;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.event.ConnectionCreatedEvent;
import com.mongodb.event.ConnectionPoolListener;
import com.mongodb.event.ConnectionReadyEvent;
import com.mongodb.event.ServerDescriptionChangedEvent;
import com.mongodb.event.ServerListener;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The entities of a test: clients (our listener with {@link RedactionPolicy#specOnly()}, a capturing downstream listener,
 * and our log sink when the client observes log messages; a real driver client only in a real run), databases, collections
 * and sessions (names only).
 */
final class Entities implements AutoCloseable {
    /** The logging tests run with a large max document length, as the spec's README asks. */
    static final int LOGGING_MAX_DOCUMENT_LENGTH = 10_000;

    /** A client entity. */
    static final class Client {
        final String id;
        final BsonDocument spec;
        final Observed observed = new Observed();
        @Nullable
        final LogCapture log;
        final RedactingCommandListener listener;
        @Nullable
        MongoClient driverClient;
        final Map<String, AtomicInteger> otherEvents = new LinkedHashMap<>();

        Client(final BsonDocument spec) {
            this.id = spec.getString("id").getValue();
            this.spec = spec;
            this.log = spec.containsKey("observeLogMessages") ? new LogCapture(LOGGING_MAX_DOCUMENT_LENGTH) : null;
            RedactingCommandListener.Builder builder = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                    .addListener(observed);
            if (log != null) {
                builder.addSink(log.sink);
            }
            this.listener = builder.build();
            for (String name : new String[]{"connectionCreatedEvent", "connectionReadyEvent", "serverDescriptionChangedEvent"}) {
                otherEvents.put(name, new AtomicInteger());
            }
        }

        boolean observes(final String eventType) {
            for (BsonValue type : spec.getArray("observeEvents", new org.bson.BsonArray())) {
                if (type.asString().getValue().equals(eventType)) {
                    return true;
                }
            }
            return false;
        }

        boolean observesSensitiveCommands() {
            return spec.getBoolean("observeSensitiveCommands", org.bson.BsonBoolean.FALSE).getValue();
        }

        void connect(final String uri) {
            StringBuilder connection = new StringBuilder(uri).append("/?");
            for (Map.Entry<String, BsonValue> option : spec.getDocument("uriOptions", new BsonDocument()).entrySet()) {
                BsonValue value = option.getValue();
                connection.append(option.getKey()).append('=')
                        .append(value.isString() ? value.asString().getValue() : value.isNumber()
                                ? String.valueOf(value.asNumber().longValue()) : value.toString()).append('&');
            }
            MongoClientSettings settings = MongoClientSettings.builder()
                    .applyConnectionString(new ConnectionString(connection.toString()))
                    .addCommandListener(listener)
                    .applyToConnectionPoolSettings(pool -> pool.addConnectionPoolListener(new ConnectionPoolListener() {
                        @Override
                        public void connectionCreated(final ConnectionCreatedEvent event) {
                            otherEvents.get("connectionCreatedEvent").incrementAndGet();
                        }

                        @Override
                        public void connectionReady(final ConnectionReadyEvent event) {
                            otherEvents.get("connectionReadyEvent").incrementAndGet();
                        }
                    }))
                    .applyToServerSettings(server -> server.addServerListener(new ServerListener() {
                        @Override
                        public void serverDescriptionChanged(final ServerDescriptionChangedEvent event) {
                            otherEvents.get("serverDescriptionChangedEvent").incrementAndGet();
                        }
                    }))
                    .build();
            driverClient = MongoClients.create(settings);
        }
    }

    final Map<String, Client> clients = new LinkedHashMap<>();
    /** Database entity id to {client id, database name}. */
    final Map<String, String[]> databases = new LinkedHashMap<>();
    /** Collection entity id to {database entity id, collection name}, with its options. */
    final Map<String, String[]> collections = new LinkedHashMap<>();
    final Map<String, BsonDocument> collectionOptions = new LinkedHashMap<>();
    @Nullable
    private final String uri;

    /** @param uri the server to connect the clients to, or null for a run with constructed events */
    Entities(@Nullable final String uri) {
        this.uri = uri;
    }

    void create(final Iterable<BsonValue> entities) {
        for (BsonValue value : entities) {
            BsonDocument entity = value.asDocument();
            String type = entity.getFirstKey();
            BsonDocument spec = entity.getDocument(type);
            String id = spec.getString("id").getValue();
            switch (type) {
                case "client":
                    Client client = new Client(spec);
                    if (uri != null) {
                        client.connect(uri);
                    }
                    clients.put(id, client);
                    break;
                case "database":
                    databases.put(id, new String[]{spec.getString("client").getValue(),
                            spec.getString("databaseName").getValue()});
                    break;
                case "collection":
                    collections.put(id, new String[]{spec.getString("database").getValue(),
                            spec.getString("collectionName").getValue()});
                    collectionOptions.put(id, spec.getDocument("collectionOptions", new BsonDocument()));
                    break;
                case "session":
                    break;
                default:
                    throw new AssertionError("the runner does not support the entity type " + type);
            }
        }
    }

    String databaseName(final String databaseId) {
        return databases.get(databaseId)[1];
    }

    String collectionName(final String collectionId) {
        return collections.get(collectionId)[1];
    }

    /** @return the database entity of the collection or database entity {@code objectId} */
    String databaseIdOf(final String objectId) {
        return collections.containsKey(objectId) ? collections.get(objectId)[0] : objectId;
    }

    Client clientOf(final String objectId) {
        return clients.get(databases.get(databaseIdOf(objectId))[0]);
    }

    MongoDatabase database(final String objectId) {
        Client client = clientOf(objectId);
        if (client.driverClient == null) {
            throw new AssertionError("no driver client in a run with constructed events");
        }
        return client.driverClient.getDatabase(databaseName(databaseIdOf(objectId)));
    }

    MongoCollection<BsonDocument> collection(final String collectionId) {
        MongoCollection<BsonDocument> collection = database(collectionId).getCollection(collectionName(collectionId),
                BsonDocument.class);
        BsonDocument options = collectionOptions.get(collectionId);
        if (options.containsKey("writeConcern")) {
            BsonDocument concern = options.getDocument("writeConcern");
            collection = collection.withWriteConcern(new WriteConcern(concern.getNumber("w").intValue()));
        }
        return collection;
    }

    @Override
    public void close() {
        for (Client client : clients.values()) {
            if (client.driverClient != null) {
                client.driverClient.close();
            }
        }
    }
}
