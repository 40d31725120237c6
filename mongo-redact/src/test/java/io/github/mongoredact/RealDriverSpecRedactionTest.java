package io.github.mongoredact;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.event.CommandFailedEvent;
import io.github.mongoredact.internal.bson.DriverApi;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sensitive commands sent by the real driver to the embedded server (which refuses them): the forwarded command is the empty
 * document, and the failure's response holds only code, code name and error labels: the server's on driver 5.x; on 4.11 the
 * driver has blanked them (code -1, an empty code name, no labels) before any listener sees the failure.
 */
class RealDriverSpecRedactionTest {
    private static final String SECRET = "s3cr3t-pa55word";

    @Test
    void createUserAndSaslStartAreForwardedRedactedWithTheirFailures() {
        for (RedactionPolicy policy : new RedactionPolicy[]{RedactionPolicy.specOnly(), RedactionPolicy.defaults()}) {
            KeepingListener kept = new KeepingListener();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(kept).build();
            try (EmbeddedServer server = new EmbeddedServer()) {
                MongoClient client = server.client(listener);
                assertThrows(MongoCommandException.class, () -> client.getDatabase("admin").runCommand(
                        new Document("createUser", "alice").append("pwd", SECRET).append("roles", java.util.List.of())));
                assertThrows(MongoCommandException.class, () -> client.getDatabase("admin").runCommand(
                        new Document("saslStart", 1).append("mechanism", "PLAIN")
                                .append("payload", new org.bson.types.Binary(("\0alice\0" + SECRET).getBytes(
                                        java.nio.charset.StandardCharsets.UTF_8)))));
                // ping shows the listener is still at work and not everything is emptied
                client.getDatabase("admin").runCommand(new Document("ping", 1));
            }
            assertEquals(3, kept.started.size(), policy.toString());
            assertEquals("createUser", kept.started.get(0).getCommandName());
            assertEquals("saslStart", kept.started.get(1).getCommandName());
            assertTrue(kept.started.get(0).getCommand().isEmpty());
            assertTrue(kept.started.get(1).getCommand().isEmpty());
            assertEquals("ping", kept.started.get(2).getCommandName());
            assertFalse(kept.started.get(2).getCommand().isEmpty());
            assertEquals(2, kept.failed.size());
            for (CommandFailedEvent failed : kept.failed) {
                MongoCommandException e = assertInstanceOf(MongoCommandException.class, failed.getThrowable());
                assertEquals(Set.of("code", "codeName", "errorLabels"), e.getResponse().keySet(),
                        () -> e.getResponse().toJson());
                // the driver hands listeners the failure of a sensitive command already rebuilt: 5.x keeps the code, code
                // name and labels; 4.11 blanks them (a MongoCommandException over an empty response), so that no code and no
                // code name reach any listener there, and none can be forwarded
                boolean blankedByTheDriver = DriverApi.driverVersion().startsWith("4.");
                assertEquals(blankedByTheDriver ? -1 : 59, e.getErrorCode(), e.getMessage());
                assertEquals(blankedByTheDriver ? "" : "CommandNotFound", e.getErrorCodeName(), e.getMessage());
                assertTrue(e.getErrorLabels().isEmpty(), e.getMessage());
                assertFalse(e.getMessage().contains(SECRET));
                assertFalse(e.getMessage().contains("alice"), e.getMessage());
            }
            assertEquals(0, listener.getCounters().getRedactionFailures());
        }
    }
}
