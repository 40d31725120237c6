package io.github.mongoredact;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.event.CommandListener;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The embedded server on 127.0.0.1 and a free port, with real driver clients over TCP. Closing closes the clients first,
 * then shuts the server down.
 */
public final class EmbeddedServer implements AutoCloseable {
    private final MongoServer server;
    private final String uri;
    private final List<MongoClient> clients = new ArrayList<>();

    public EmbeddedServer() {
        server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        InetSocketAddress address = server.getLocalAddress();
        uri = "mongodb://127.0.0.1:" + address.getPort();
    }

    public String uri() {
        return uri;
    }

    public MongoClient client(final CommandListener... listeners) {
        MongoClientSettings.Builder builder = MongoClientSettings.builder().applyConnectionString(new ConnectionString(uri));
        for (CommandListener listener : listeners) {
            builder.addCommandListener(listener);
        }
        MongoClient client = MongoClients.create(builder.build());
        clients.add(client);
        return client;
    }

    /**
     * Runs an operation the embedded server may refuse (it does not implement every command): the driver has sent the command,
     * and listeners have seen its started event, by then.
     */
    public static void tolerate(final Runnable operation) {
        try {
            operation.run();
        } catch (com.mongodb.MongoException e) {
            // refused by the embedded server
        }
    }

    @Override
    public void close() {
        for (MongoClient client : clients) {
            client.close();
        }
        server.shutdownNow();
    }
}
