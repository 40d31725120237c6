package io.github.mongoredact.jmh.support;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.event.CommandListener;
import com.mongodb.lang.Nullable;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import org.bson.BsonDocument;

/**
 * The embedded server (mongo-java-server, memory backend, its default server version) bound to 127.0.0.1 on a free port,
 * and a sync client of the real driver connected to it over TCP, with the given command listener. {@link #close} closes the
 * client, then shuts the server down (its Netty threads would keep the JVM alive).
 */
public final class EmbeddedDeployment implements AutoCloseable {
    private final MongoServer server;
    private final MongoClient client;

    /** @param listener the client's command listener, or null for none */
    public EmbeddedDeployment(@Nullable final CommandListener listener) {
        server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        MongoClientSettings.Builder settings = MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString("mongodb://127.0.0.1:" + server.getLocalAddress().getPort()));
        if (listener != null) {
            settings.addCommandListener(listener);
        }
        MongoClient created;
        try {
            created = MongoClients.create(settings.build());
        } catch (RuntimeException e) {
            server.shutdownNow();
            throw e;
        }
        client = created;
    }

    /**
     * @param name the collection's name, in {@link Inputs#DATABASE}
     * @return the collection, of {@code BsonDocument}s
     */
    public MongoCollection<BsonDocument> collection(final String name) {
        return client.getDatabase(Inputs.DATABASE).getCollection(name, BsonDocument.class);
    }

    /** Closes the client, then the server. */
    @Override
    public void close() {
        try {
            client.close();
        } finally {
            server.shutdownNow();
        }
    }
}
