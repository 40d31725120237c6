package it.mongoredact;

import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Updates;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.log.CommandLogSink;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.bson.Document;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Quarkus application of docs/quarkus.md (JVM mode, sync client, the producer in src/main/java) against the embedded server:
 * each command counted once in mongodb.driver.commands, and the command log's lines redacted, on JBoss LogManager, each with
 * the command once.
 */
@QuarkusTest
@WithTestResource(EmbeddedMongoServer.class)
class QuarkusApplicationTest {
    private static final String PLANTED_EMAIL = "planted-7f3a@example.invalid";
    private static final String PLANTED_NAME = "Planted-Name-91c2";
    /** createIndexes, insert, insert (duplicate key), find, update, aggregate (count), delete. */
    private static final int COMMANDS = 7;

    @Inject
    MongoClient client;

    @Inject
    MeterRegistry registry;

    @Inject
    RedactingCommandListener listener;

    @Test
    void eachCommandIsCountedOnceAndLoggedRedactedWithTheCommandOnce() throws IOException {
        MongoCollection<Document> users = client.getDatabase("test").getCollection("users");
        users.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true));
        users.insertOne(new Document("email", PLANTED_EMAIL).append("name", "Ada"));
        assertThrows(MongoWriteException.class, () -> users.insertOne(new Document("email", PLANTED_EMAIL)));
        assertNotNull(users.find(Filters.eq("email", PLANTED_EMAIL)).first());
        users.updateOne(Filters.eq("email", PLANTED_EMAIL), Updates.set("name", PLANTED_NAME));
        assertEquals(1, users.countDocuments(Filters.eq("email", PLANTED_EMAIL)));
        users.deleteOne(Filters.eq("email", PLANTED_EMAIL));

        long counted = 0;
        for (Timer timer : registry.find("mongodb.driver.commands").timers()) {
            counted += timer.count();
        }
        assertEquals(COMMANDS, counted, "mongodb.driver.commands counts each command once");
        assertTrue(listener.getCounters().getValuesRedacted() > 0);
        CommandLogSink logSink = (CommandLogSink) listener.getSinks().stream().filter(CommandLogSink.class::isInstance)
                .findFirst().orElseThrow();
        assertFalse(logSink.isKeyValuePairs(), "JBoss LogManager, which would write key-value pairs into the line: the message alone");

        String log = Files.readString(Paths.get("target/quarkus-test.log"), StandardCharsets.UTF_8);
        List<String> lines = log.lines().filter(line -> line.contains(" " + CommandLogSink.DEFAULT_LOGGER_NAME + " - "))
                .collect(Collectors.toList());
        assertEquals(2 * COMMANDS, lines.size(), String.join("\n", lines));
        assertTrue(log.contains("Command \"insert\" started on database \"test\""), log);
        assertTrue(log.contains("\"updates\": [{\"q\": {\"email\": \"?string\"}, \"u\": {\"$set\": {\"name\": \"?string\"}}"), log);
        assertTrue(log.contains("dup key: { email: ? }"), log);
        for (String line : lines) {
            assertFalse(line.contains("commandName="), line);
            // the command (its "$db") or the reply (its "ok") once per line
            String once = line.contains(" started on ") ? "\"$db\": \"test\"" : "\"ok\": ";
            assertEquals(2, line.split(java.util.regex.Pattern.quote(once), -1).length, line);
        }
        assertFalse(log.contains(PLANTED_EMAIL), "planted e-mail in the log");
        assertFalse(log.contains(PLANTED_NAME), "planted name in the log");
    }
}
