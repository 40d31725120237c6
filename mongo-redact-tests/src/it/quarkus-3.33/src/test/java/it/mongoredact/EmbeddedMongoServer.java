package it.mongoredact;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/** The embedded server on a free port, its address handed to Quarkus; shut down after the application has stopped. */
public class EmbeddedMongoServer implements QuarkusTestResourceLifecycleManager {
    private MongoServer server;

    @Override
    public Map<String, String> start() {
        server = new MongoServer(new MemoryBackend());
        server.bind("127.0.0.1", 0);
        return Map.of("quarkus.mongodb.connection-string", "mongodb://127.0.0.1:" + server.getLocalAddress().getPort());
    }

    @Override
    public void stop() {
        if (server != null) {
            server.shutdownNow();
        }
    }
}
