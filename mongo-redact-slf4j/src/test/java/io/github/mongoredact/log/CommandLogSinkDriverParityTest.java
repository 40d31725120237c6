package io.github.mongoredact.log;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Filters;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.simple.SimpleLogger;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Our lines against the driver's own command log, side by side on the same commands: with the spec-only policy the
 * documents are the same, so the messages must be the same, character for character.
 */
class CommandLogSinkDriverParityTest {
    private static final String DRIVER_LOGGER = "org.mongodb.driver.protocol.command";

    /** slf4j-simple fixes a logger's level when it is made; the driver's may exist already, so set it on the instance. */
    private static int setLevel(final String name, final int level) throws ReflectiveOperationException {
        SimpleLogger logger = (SimpleLogger) LoggerFactory.getLogger(name);
        Field field = SimpleLogger.class.getDeclaredField("currentLogLevel");
        field.setAccessible(true);
        int before = field.getInt(logger);
        field.setInt(logger, level);
        return before;
    }

    private static List<String> messages(final CapturedLog log, final String loggerName) {
        List<String> messages = new ArrayList<>();
        for (String line : log.text().split("\n")) {
            int at = line.indexOf(" " + loggerName + " - ");
            if (at >= 0) {
                String rest = line.substring(at + loggerName.length() + 4);
                messages.add(rest.substring(rest.indexOf("Command \"")));
            }
        }
        return messages;
    }

    @Test
    void writesTheDriversOwnMessagesCharacterForCharacter() throws Exception {
        int before = setLevel(DRIVER_LOGGER, 10); // slf4j-simple's DEBUG
        try (CapturedLog log = new CapturedLog("debug"); EmbeddedServer server = new EmbeddedServer()) {
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                    .addSink(CommandLogSink.builder().loggerName(log.loggerName).build()).build();
            MongoDatabase db = server.client(listener).getDatabase("test");
            MongoCollection<Document> users = db.getCollection("users");
            users.insertOne(new Document("_id", 1).append("name", "Ann").append("note", "x".repeat(1500)));
            users.find(Filters.eq("name", "Ann")).first();
            try {
                db.runCommand(new Document("noSuchCommand", 1));
            } catch (RuntimeException expected) {
                // a failed command
            }
            List<String> driver = messages(log, DRIVER_LOGGER);
            List<String> ours = messages(log, log.loggerName);
            assertTrue(driver.size() >= 6, "the driver logged: " + log.text());
            assertEquals(driver, ours);
            System.out.println("parity: " + driver.size() + " lines, e.g. " + driver.get(driver.size() - 1));
            assertTrue(ours.stream().anyMatch(m -> m.contains("Command \"insert\" started") && m.endsWith(" ...")));
            assertTrue(ours.stream().anyMatch(m -> m.startsWith("Command \"noSuchCommand\" failed")));
        } finally {
            setLevel(DRIVER_LOGGER, before);
        }
    }
}
