package io.github.mongoredact.spec;

import com.mongodb.MongoCommandException;
import com.mongodb.event.CommandEvent;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.DriverApi;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks {@code expectEvents} against the events our listener forwarded and {@code expectLogMessages} against the lines our
 * log sink wrote. Counts what it checked, so that a test that checks nothing is caught.
 */
final class Expectations {
    private static final Set<String> SENSITIVE = new HashSet<>(Arrays.asList("authenticate", "saslstart", "saslcontinue",
            "getnonce", "createuser", "updateuser", "copydbgetnonce", "copydbsaslstart", "copydb"));
    private static final Set<String> KEPT_IN_REDACTED_FAILURE = new HashSet<>(Arrays.asList("code", "codeName",
            "errorLabels"));

    private final Entities entities;
    private final List<Mismatch> out;
    /** Values the original failures quoted, which no redacted failure may show. */
    private final List<String> redactedTexts;
    int checked;

    Expectations(final Entities entities, final List<Mismatch> out, final List<String> redactedTexts) {
        this.entities = entities;
        this.out = out;
        this.redactedTexts = redactedTexts;
    }

    void checkAll(final SpecCase specCase) {
        for (BsonValue value : specCase.expectEvents()) {
            checkEvents(value.asDocument());
        }
        for (BsonValue value : specCase.expectLogMessages()) {
            checkLogMessages(value.asDocument());
        }
        if (checked == 0) {
            out.add(Mismatch.other("the test checked no event and no log message"));
        }
    }

    private void checkEvents(final BsonDocument expectation) {
        Entities.Client client = entities.clients.get(expectation.getString("client").getValue());
        if (!expectation.getString("eventType", new BsonString("command")).getValue().equals("command")) {
            out.add(Mismatch.other("the runner supports only command events: " + expectation));
            return;
        }
        List<CommandEvent> actual = new ArrayList<>();
        for (CommandEvent event : client.observed.events) {
            if (client.observes(Observed.typeOf(event)) && (client.observesSensitiveCommands() || !isSensitive(event))) {
                actual.add(event);
            }
        }
        List<BsonValue> expected = expectation.getArray("events");
        boolean ignoreExtra = expectation.getBoolean("ignoreExtraEvents", org.bson.BsonBoolean.FALSE).getValue();
        if (ignoreExtra ? actual.size() < expected.size() : actual.size() != expected.size()) {
            out.add(Mismatch.other("client " + client.id + ": expected " + expected.size() + " events, got " + actual.size()
                    + ": " + describe(actual)));
        }
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            checkEvent(expected.get(i).asDocument(), actual.get(i), "events[" + i + "]");
        }
    }

    private static boolean isSensitive(final CommandEvent event) {
        String name = event.getCommandName();
        return SENSITIVE.contains(name.toLowerCase(java.util.Locale.ROOT))
                || (event instanceof CommandStartedEvent && (name.equals("hello") || name.equalsIgnoreCase("ismaster"))
                && ((CommandStartedEvent) event).getCommand().isEmpty());
    }

    private void checkEvent(final BsonDocument expected, final CommandEvent actual, final String path) {
        String type = expected.getFirstKey();
        BsonDocument fields = expected.getDocument(type);
        if (!type.equals(Observed.typeOf(actual))) {
            out.add(Mismatch.other(path + ": expected " + type + " but got " + Observed.typeOf(actual) + " for "
                    + actual.getCommandName()));
            return;
        }
        checked++;
        for (String key : fields.keySet()) {
            BsonValue value = fields.get(key);
            String at = path + "." + type + "." + key;
            switch (key) {
                case "command":
                    Matcher.matchRoot(value.asDocument(), ((CommandStartedEvent) actual).getCommand(), at, out);
                    break;
                case "reply":
                    Matcher.matchRoot(value.asDocument(), ((CommandSucceededEvent) actual).getResponse(), at, out);
                    break;
                case "commandName":
                    Matcher.matchValue(value, new BsonString(actual.getCommandName()), at, false, out);
                    break;
                case "databaseName":
                    Matcher.matchValue(value, new BsonString(actual.getDatabaseName()), at, false, out);
                    break;
                case "hasServerConnectionId":
                    boolean has = DriverApi.serverValue(actual.getConnectionDescription().getConnectionId()) != null;
                    if (has != value.asBoolean().getValue()) {
                        out.add(Mismatch.other(at + ": expected " + value + " got " + has));
                    }
                    break;
                case "hasServiceId":
                    if ((actual.getConnectionDescription().getServiceId() != null) != value.asBoolean().getValue()) {
                        out.add(Mismatch.other(at + ": expected " + value));
                    }
                    break;
                default:
                    out.add(Mismatch.other(at + ": the runner does not support this event field"));
            }
        }
        if (actual instanceof CommandFailedEvent && ((CommandFailedEvent) actual).getThrowable() == null) {
            out.add(Mismatch.other(path + ": a failed event without its failure"));
        }
    }

    private void checkLogMessages(final BsonDocument expectation) {
        Entities.Client client = entities.clients.get(expectation.getString("client").getValue());
        if (client.log == null) {
            out.add(Mismatch.other("client " + client.id + " does not observe log messages"));
            return;
        }
        List<Observed.LogMessage> actual = Observed.toSpec(client.log.lines);
        List<BsonValue> expected = expectation.getArray("messages");
        boolean ignoreExtra = expectation.getBoolean("ignoreExtraMessages", org.bson.BsonBoolean.FALSE).getValue();
        if (ignoreExtra ? actual.size() < expected.size() : actual.size() != expected.size()) {
            out.add(Mismatch.other("client " + client.id + ": expected " + expected.size() + " log messages, got "
                    + actual.size() + ": " + actual));
        }
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            checkLogMessage(expected.get(i).asDocument(), actual.get(i), "messages[" + i + "]");
        }
    }

    private void checkLogMessage(final BsonDocument expected, final Observed.LogMessage actual, final String path) {
        checked++;
        Matcher.matchValue(expected.get("level"), new BsonString(actual.level), path + ".level", false, out);
        Matcher.matchValue(expected.get("component"), new BsonString(actual.component), path + ".component", false, out);
        Matcher.matchRoot(expected.getDocument("data"), actual.data, path + ".data", out);
        if (expected.containsKey("failureIsRedacted")) {
            checkFailureRedaction(expected.getBoolean("failureIsRedacted").getValue(), actual, path + ".failure");
        }
    }

    /**
     * The spec: a redacted server failure keeps only {@code code}, {@code codeName} and {@code errorLabels}; a failure that is
     * not redacted (a network error) is logged as it was raised.
     */
    private void checkFailureRedaction(final boolean redacted, final Observed.LogMessage actual, final String path) {
        BsonValue text = actual.data.get("failure");
        Throwable cause = actual.cause;
        if (text == null || cause == null) {
            out.add(Mismatch.other(path + ": expected a failure, got text " + text + " and throwable " + cause));
            return;
        }
        if (!redacted) {
            if (cause instanceof MongoCommandException || !text.asString().getValue().contains(String.valueOf(
                    rootMessage(cause)))) {
                out.add(Mismatch.other(path + ": expected the failure as raised, got " + text));
            }
            return;
        }
        if (!(cause instanceof MongoCommandException)) {
            out.add(Mismatch.other(path + ": expected a redacted server failure, got " + cause));
            return;
        }
        for (String secret : redactedTexts) {
            if (text.asString().getValue().contains(secret) || String.valueOf(cause.getMessage()).contains(secret)) {
                out.add(Mismatch.other(path + ": the redacted failure still quotes \"" + secret + "\": " + text));
            }
        }
        BsonDocument response = ((MongoCommandException) cause).getResponse();
        Set<String> extra = new TreeSet<>(response.keySet());
        extra.removeAll(KEPT_IN_REDACTED_FAILURE);
        if (extra.equals(Set.of("ok"))) {
            out.add(new Mismatch(Mismatch.Kind.REDACTED_FAILURE_KEEPS_OK, path + ": the redacted failure keeps "
                    + extra + " besides code, codeName, errorLabels: " + response.toJson()));
        } else if (!extra.isEmpty()) {
            out.add(Mismatch.other(path + ": the redacted failure keeps " + extra + ": " + response.toJson()));
        }
    }

    @Nullable
    private static String rootMessage(final Throwable failure) {
        return failure.getMessage();
    }

    private static String describe(final List<CommandEvent> events) {
        StringBuilder text = new StringBuilder();
        for (CommandEvent event : events) {
            text.append(Observed.typeOf(event)).append(' ').append(event.getCommandName()).append("; ");
        }
        return text.toString();
    }
}
