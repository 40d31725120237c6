package io.github.mongoredact.spec;

import com.mongodb.ConnectionString;
import com.mongodb.LoggerSettings;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.Events;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The spec README's logging prose tests on truncation, against our log sink: 1 (default limit, real), 2 (limit 5: hello with
 * constructed events, as the embedded server has no hello; the failure of a command the server does not know, real), 3
 * (multi-byte code points, real: a cut inside a surrogate pair, and a document of exactly the limit, which stays whole).
 */
final class ProseTests {
    static final String ELLIPSIS = " ...";
    static final String FAILURE_CUT = "prose 2: Explicitly configured truncation limit, server error of notARealCommand [real]";
    static final String EXACT_LIMIT = "prose 3: Truncation with multi-byte codepoints, a document of exactly the limit [real]";
    private static final String MULTI_BYTE = "a\u00e9\u65e5\u672c\ud83d\ude00\ud83d\ude00\ud83d\ude00z";
    /** A partial escape, or the escaped first half of a surrogate pair, at the end of a text. */
    private static final Pattern PARTIAL_CHARACTER = Pattern.compile("(\\\\(u[0-9a-fA-F]{0,3})?|\\\\ud[89abAB][0-9a-fA-F]{2})$");
    private static final String DATABASE = "prose-tests";
    private final String uri;
    private final MongoClient setup;

    ProseTests(final String uri, final MongoClient setup) {
        this.uri = uri;
        this.setup = setup;
    }

    Map<String, Supplier<List<Mismatch>>> all() {
        Map<String, Supplier<List<Mismatch>>> tests = new LinkedHashMap<>();
        tests.put("prose 1: Default truncation limit [real]", this::defaultLimit);
        tests.put("prose 2: Explicitly configured truncation limit, hello [constructed events: the embedded server has no"
                + " hello command]", ProseTests::explicitLimit);
        tests.put(FAILURE_CUT, this::explicitLimitFailure);
        tests.put("prose 3: Truncation with multi-byte codepoints, cut inside a surrogate pair [real]", this::multiByte);
        tests.put(EXACT_LIMIT, this::exactLimit);
        return tests;
    }

    private List<Mismatch> defaultLimit() {
        List<Mismatch> out = new ArrayList<>();
        setup.getDatabase(DATABASE).getCollection("truncation").drop();
        LogCapture log = new LogCapture(LoggerSettings.builder().build());
        withClient(log, database -> {
            MongoCollection<BsonDocument> collection = database.getCollection("truncation", BsonDocument.class);
            List<BsonDocument> docs = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                docs.add(new BsonDocument("x", new BsonString("y")));
            }
            collection.insertMany(docs);
            collection.find().into(new ArrayList<>());
        });
        List<Observed.LogMessage> messages = Observed.toSpec(log.lines);
        expectCount(messages, 4, out);
        if (messages.size() == 4) {
            expectCut(messages.get(0), "command", 1000, out);
            String reply = text(messages.get(1), "reply");
            if (reply.length() > 1000 + ELLIPSIS.length()) {
                out.add(Mismatch.other("insert reply longer than 1000 + ellipsis: " + reply.length()));
            }
            expectCut(messages.get(3), "reply", 1000, out);
        }
        return out;
    }

    private static List<Mismatch> explicitLimit() {
        List<Mismatch> out = new ArrayList<>();
        LogCapture log = new LogCapture(5);
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                .addSink(log.sink).build();
        BsonDocument hello = new BsonDocument("hello", BsonBoolean.TRUE).append("$db", new BsonString("admin"));
        CommandStartedEvent started = new CommandStartedEvent(null, 1, 2, Events.connection(), "admin", "hello",
                Shapes.driverShape(hello));
        listener.commandStarted(started);
        listener.commandSucceeded(new CommandSucceededEvent(null, 1, 2, Events.connection(), "admin", "hello",
                new RawBsonDocument(Shapes.serverReply("hello", hello), new BsonDocumentCodec()), 1_000_000L));
        List<Observed.LogMessage> messages = Observed.toSpec(log.lines);
        expectCount(messages, 2, out);
        if (messages.size() == 2) {
            expectCut(messages.get(0), "command", 5, out);
            expectCut(messages.get(1), "reply", 5, out);
        }
        return out;
    }

    private List<Mismatch> explicitLimitFailure() {
        List<Mismatch> out = new ArrayList<>();
        LogCapture log = new LogCapture(5);
        withClient(log, database -> {
            try {
                database.runCommand(new BsonDocument("notARealCommand", BsonBoolean.TRUE));
                out.add(Mismatch.other("notARealCommand did not fail"));
            } catch (com.mongodb.MongoCommandException expected) {
                // the failure is what the log must show cut
            }
        });
        List<Observed.LogMessage> messages = Observed.toSpec(log.lines);
        expectCount(messages, 2, out);
        if (messages.size() == 2) {
            String failure = text(messages.get(1), "failure");
            if (failure.length() != 5 + ELLIPSIS.length() || !failure.endsWith(ELLIPSIS)) {
                out.add(new Mismatch(Mismatch.Kind.FAILURE_TEXT_NOT_CUT, "the failure is " + failure.length()
                        + " characters, expected 5 + ellipsis: " + failure));
            }
        }
        return out;
    }

    /**
     * The relaxed JSON writer shows a code point above U+FFFF as two escapes ({@code \\ud83d\\ude00}); cuts inside the first
     * escape, between the two, and inside the second leave neither part of an escape nor the first escape of a pair, and the
     * shown text is a prefix of the whole text, at most the limit long. Characters of two and three UTF-8 bytes come before.
     */
    private List<Mismatch> multiByte() {
        List<Mismatch> out = new ArrayList<>();
        String[] whole = wholeFindTexts();
        for (int field = 0; field < 2; field++) {
            int escape = whole[field].indexOf("\\ud83d");
            if (escape < 0 || whole[field].indexOf('\u65e5') < 0) {
                out.add(Mismatch.other("the whole text does not show the characters as expected: " + whole[field]));
                continue;
            }
            for (int max : new int[]{escape + 3, escape + 6, escape + 9}) {
                LogCapture log = new LogCapture(max);
                withClient(log, this::findMultiByte);
                List<Observed.LogMessage> messages = Observed.toSpec(log.lines);
                expectCount(messages, 2, out);
                if (messages.size() == 2) {
                    expectPrefixCut(text(messages.get(field), field == 0 ? "command" : "reply"), whole[field], max, out);
                }
            }
        }
        return out;
    }

    /** A document of exactly the limit is shown whole; one character less is cut. */
    private List<Mismatch> exactLimit() {
        List<Mismatch> out = new ArrayList<>();
        String command = wholeFindTexts()[0];
        LogCapture exact = new LogCapture(command.length());
        withClient(exact, this::findMultiByte);
        String shown = text(Observed.toSpec(exact.lines).get(0), "command");
        if (shown.equals(command + ELLIPSIS)) {
            out.add(new Mismatch(Mismatch.Kind.EXACT_LENGTH_CUT, "a command of exactly " + command.length()
                    + " characters is shown as " + shown));
        } else if (!shown.equals(command)) {
            out.add(Mismatch.other("expected the whole command " + command + " but got " + shown));
        }
        LogCapture shorter = new LogCapture(command.length() - 1);
        withClient(shorter, this::findMultiByte);
        expectPrefixCut(text(Observed.toSpec(shorter.lines).get(0), "command"), command, command.length() - 1, out);
        return out;
    }

    /** @return the whole command and reply texts of the multi-byte find */
    private String[] wholeFindTexts() {
        MongoCollection<BsonDocument> collection = setup.getDatabase(DATABASE).getCollection("multibyte",
                BsonDocument.class);
        collection.drop();
        collection.insertOne(new BsonDocument("_id", new BsonInt32(1)).append("s", new BsonString(MULTI_BYTE)));
        LogCapture log = new LogCapture(1_000_000);
        withClient(log, this::findMultiByte);
        List<Observed.LogMessage> messages = Observed.toSpec(log.lines);
        return new String[]{text(messages.get(0), "command"), text(messages.get(1), "reply")};
    }

    private void findMultiByte(final MongoDatabase database) {
        database.getCollection("multibyte", BsonDocument.class).find(new BsonDocument("s", new BsonString(MULTI_BYTE)))
                .into(new ArrayList<>());
    }

    private static void expectPrefixCut(final String shown, final String whole, final int max, final List<Mismatch> out) {
        if (!shown.endsWith(ELLIPSIS)) {
            out.add(Mismatch.other("expected a cut text at " + max + ", got " + shown));
            return;
        }
        String body = shown.substring(0, shown.length() - ELLIPSIS.length());
        if (!whole.startsWith(body) || body.length() > max || body.length() < max - 12) {
            out.add(Mismatch.other("the cut text at " + max + " is not a prefix of at most " + max + " characters of "
                    + whole + ": " + shown));
        }
        if ((!body.isEmpty() && Character.isHighSurrogate(body.charAt(body.length() - 1)))
                || PARTIAL_CHARACTER.matcher(body).find()) {
            out.add(Mismatch.other("the cut text at " + max + " ends inside a character: " + shown));
        }
    }

    private static void expectCut(final Observed.LogMessage message, final String field, final int max,
                                  final List<Mismatch> out) {
        String text = text(message, field);
        if (text.length() != max + ELLIPSIS.length() || !text.endsWith(ELLIPSIS)) {
            out.add(Mismatch.other(field + " is " + text.length() + " characters, expected " + max + " + ellipsis: " + text));
        }
    }

    private static void expectCount(final List<Observed.LogMessage> messages, final int count, final List<Mismatch> out) {
        if (messages.size() != count) {
            out.add(Mismatch.other("expected " + count + " log messages, got " + messages));
        }
    }

    private static String text(final Observed.LogMessage message, final String field) {
        return message.data.containsKey(field) ? message.data.getString(field).getValue() : "<no " + field + ">";
    }

    private void withClient(final LogCapture log, final Consumer<MongoDatabase> body) {
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                .addSink(log.sink).build();
        try (MongoClient client = MongoClients.create(MongoClientSettings.builder().applyConnectionString(
                new ConnectionString(uri)).addCommandListener(listener).build())) {
            body.accept(client.getDatabase(DATABASE));
        }
    }
}
