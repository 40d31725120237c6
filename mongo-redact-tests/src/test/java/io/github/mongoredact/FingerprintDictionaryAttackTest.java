package io.github.mongoredact;

import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import io.github.mongoredact.DriverShapes.Backing;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.bson.BsonDocument;
import org.bson.BsonJavaScript;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The attack of the report: the fingerprint is public and unkeyed, so if it hashed a value, sending candidates through any
 * listener and comparing fingerprints would find it. The secret's command goes through the real driver to the embedded
 * server; 1,500 candidates, the secret among them, are sent as constructed events through listeners under
 * {@code defaults()} and {@code specOnly()}. The attack finds nothing: every candidate has the secret's fingerprint. And the
 * {@code command.fingerprint} tag takes one value for all of them, not one per user name.
 */
class FingerprintDictionaryAttackTest {
    private static final String SECRET = "grace.hopper@navy.example";
    private static final int CANDIDATES = 1_500;

    /** The last fingerprint a listener's sink was given. */
    private static final class LastFingerprint implements CommandSink {
        final List<Long> seen = new ArrayList<>();

        @Override
        public boolean needsDocuments() {
            return false;
        }

        @Override
        public void started(final StartedCommand command) {
            seen.add(command.getFingerprint());
        }
    }

    private static List<String> candidates() {
        List<String> candidates = new ArrayList<>();
        for (int i = 0; i < CANDIDATES - 1; i++) {
            candidates.add((i % 3 == 0 ? "ada.lovelace" : i % 3 == 1 ? "alan.turing" : "grace.hopper") + i
                    + "@navy.example");
        }
        candidates.add(CANDIDATES / 2, SECRET);
        return candidates;
    }

    @ParameterizedTest
    @ValueSource(strings = {"usersInfo", "dropUser", "grantRolesToUser", "revokeRolesFromUser", "createRole", "rolesInfo",
            "logApplicationMessage", "eval", "myCommand"})
    void candidatesCannotBeToldApartByTheirFingerprint(final String commandName) {
        Function<String, Document> command = value -> new Document(commandName, commandName.equals("eval")
                ? new org.bson.types.Code("function() { return '" + value + "'; }") : value);
        for (RedactionPolicy policy : new RedactionPolicy[]{RedactionPolicy.defaults(), RedactionPolicy.specOnly()}) {
            // the victim's command, through the real driver
            LastFingerprint observed = new LastFingerprint();
            RedactingCommandListener victim = RedactingCommandListener.builder().policy(policy).addSink(observed).build();
            try (EmbeddedServer server = new EmbeddedServer()) {
                MongoClient client = server.client(victim);
                try {
                    client.getDatabase("admin").runCommand(command.apply(SECRET));
                } catch (MongoException e) {
                    // the embedded server runs none of these: the command was sent and seen all the same
                }
            }
            assertEquals(1, observed.seen.size(), commandName);
            long target = observed.seen.get(0);
            assertTrue(target != 0, "a fingerprint was computed");

            // the attacker's candidates, through a listener of their own
            LastFingerprint attacker = new LastFingerprint();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addSink(attacker).build();
            List<String> candidates = candidates();
            Set<String> matching = new HashSet<>();
            for (int i = 0; i < candidates.size(); i++) {
                BsonValue value = commandName.equals("eval")
                        ? new BsonJavaScript("function() { return '" + candidates.get(i) + "'; }")
                        : new BsonString(candidates.get(i));
                BsonDocument sent = new BsonDocument(commandName, value).append("$db", new BsonString("admin"));
                listener.commandStarted(DriverShapes.started(i, commandName, DriverShapes.byteBacked(sent,
                        Backing.values()[i % Backing.values().length])));
                if (attacker.seen.get(i) == target) {
                    matching.add(candidates.get(i));
                }
            }
            // every candidate matches: the fingerprint says nothing about which one was sent
            assertEquals(candidates.size(), matching.size(), commandName + " under " + policy);
        }
    }

    @Test
    void userNamesTakeOneFingerprintTagValue() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .addSink(MicrometerCommandSink.builder(registry).fingerprintTag(true).maxFingerprints(5).build()).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(listener);
            for (int i = 0; i < 50; i++) {
                try {
                    client.getDatabase("admin").runCommand(new Document("usersInfo", "user" + i + "@navy.example"));
                } catch (MongoException e) {
                    // refused by the embedded server: the failure is timed with the command's tags
                }
            }
        }
        List<Timer> timers = new ArrayList<>(registry.find(MicrometerCommandSink.COMMANDS).tags("command", "usersInfo")
                .timers());
        assertEquals(1, timers.size(), registry.getMetersAsString());
        assertTrue(timers.get(0).getId().getTag("command.fingerprint").matches("[0-9a-f]{16}"), timers.get(0).getId().toString());
        assertEquals(50, timers.get(0).count());
    }
}
