package io.github.mongoredact.internal.walk;

import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.DriverShapes.Backing;
import io.github.mongoredact.FieldAction;
import io.github.mongoredact.OwnedDocument;
import io.github.mongoredact.RecordingSink;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.StartedCommand;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What a sink is given besides the copy (collection and database names, the query shape and its hash, the fingerprint, the
 * views' JSON and query text, a reply's error code name) tells nothing the redacted copy hides, also where the command or reply
 * is corrupt: the subjects and byte flips of {@link CorruptInputFuzzTest}, each sent to a listener whose sink asks for every
 * document and fact, and to one whose sink asks for facts alone (no copy is made for it). A 6-byte piece of a secret in a fact
 * fails the test unless the copy holds the same piece (the documented keys read from a corrupt string's text, counted apart by
 * the fuzz). Rerun one case with {@code -Dfacts.seed=<seed> -Dfacts.cases=1}.
 */
class DerivedFactsOfCorruptInputTest {
    private static final long BASE_SEED = Long.getLong("facts.seed", 0xFAC7L);
    private static final int CASES = Integer.getInteger("facts.cases", 1500);

    /** Asks for every document and fact, or for the facts alone. */
    private static final class FactsSink extends RecordingSink {
        FactsSink(final boolean documents) {
            super(documents, documents, true);
        }

        @Override
        public boolean needsQueryShape() {
            return true;
        }

        @Override
        public boolean needsCommandSize() {
            return true;
        }
    }

    static Stream<Arguments> policies() {
        return Stream.of(Arguments.of("defaults", RedactionPolicy.defaults(), true),
                Arguments.of("cap 300", RedactionPolicy.builder(RedactionPolicy.defaults()).maxDocumentBytes(300).build(), true),
                // a masked key gives no shape
                Arguments.of("keys redacted", RedactionPolicy.builder(RedactionPolicy.defaults())
                        .unmatchedCommandAction(FieldAction.REDACT_KEYS).build(), false));
    }

    /** A find or an aggregation that has a query shape, the secret in each of its values. */
    private static CorruptInputFuzzTest.Subject shaped(final Random random) {
        BsonDocument planted = CorruptInputFuzzTest.planted();
        BsonDocument filter = new BsonDocument("s", planted.get("s"))
                .append("date", new BsonDocument("$gte", planted.get("date")))
                .append("long", new BsonDocument("$in", new BsonArray(List.of(planted.get("long"), planted.get("s")))))
                .append("oid", planted.get("oid"));
        BsonDocument command = random.nextBoolean()
                ? new BsonDocument("find", new BsonString("c")).append("filter", filter)
                        .append("sort", new BsonDocument("s", new BsonInt32(1))).append("limit", new BsonInt32(5))
                : new BsonDocument("aggregate", new BsonString("c")).append("pipeline", new BsonArray(List.of(
                        new BsonDocument("$match", filter), new BsonDocument("$group", new BsonDocument("_id",
                                new BsonString("$s")).append("n", new BsonDocument("$sum", new BsonInt32(1)))))))
                        .append("cursor", new BsonDocument());
        command.append("$db", new BsonString("shop"));
        CorruptInputFuzzTest.Subject s = new CorruptInputFuzzTest.Subject(command.getFirstKey(), false, null,
                new byte[][]{CorruptInputFuzzTest.SECRET});
        s.parts.add(DriverShapes.encode(command));
        return s;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void factsOfCorruptInputTellNothingTheCopyHides(final String name, final RedactionPolicy policy, final boolean shaped) {
        int[] shapes = new int[2];
        for (int i = 0; i < CASES; i++) {
            long seed = BASE_SEED + i;
            Random random = new Random(seed);
            CorruptInputFuzzTest.Subject s = random.nextInt(3) == 0 ? shaped(random) : CorruptInputFuzzTest.subject(random);
            CorruptInputFuzzTest.flip(s.parts, random);
            Backing backing = Backing.values()[i % Backing.values().length];
            String context = name + " seed=" + seed + " backing=" + backing + " " + s.name + (s.reply ? " reply" : "");
            FactsSink all = send(policy, s, backing, true);
            FactsSink factsOnly = send(policy, s, backing, false);
            StartedCommand started = all.started.get(0);
            CompletedCommand completed = all.completed.get(0);
            byte[] copy = DriverShapes.ownedBytes(s.reply ? completed.getReply() : started.getCommand());
            List<String> facts = new ArrayList<>(facts(started, completed));
            facts.addAll(facts(factsOnly.started.get(0), factsOnly.completed.get(0)));
            for (String fact : facts) {
                onlyWhatTheCopyShows(fact, copy, s.secrets, context);
            }
            if (!s.reply && started.getQueryShape() != null) {
                shapes[started.getCommand().containsKey("$redactionError") ? 1 : 0]++;
            }
            assertEquals(started.getQueryShape(), factsOnly.started.get(0).getQueryShape(), context);
        }
        // shapes were given, so that their text was looked at; never for a command forwarded as the marker
        assertTrue(shaped ? shapes[0] > CASES / 50 : shapes[0] == 0, () -> "shapes=" + Arrays.toString(shapes));
        assertEquals(0, shapes[1], () -> "shapes of marker copies=" + shapes[1]);
    }

    private static FactsSink send(final RedactionPolicy policy, final CorruptInputFuzzTest.Subject s, final Backing backing,
                                  final boolean documents) {
        FactsSink sink = new FactsSink(documents);
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addSink(sink).build();
        BsonDocument input = CorruptInputFuzzTest.input(s, backing);
        if (s.reply) {
            listener.commandStarted(DriverShapes.started(1, s.name, new BsonDocument("find", new BsonString("c"))
                    .append("$db", new BsonString("shop"))));
            listener.commandSucceeded(DriverShapes.succeeded(1, s.name, input));
        } else {
            listener.commandStarted(DriverShapes.started(1, s.name, input));
            listener.commandSucceeded(DriverShapes.succeeded(1, s.name, new BsonDocument("ok", new BsonInt32(1))));
        }
        assertEquals(1, sink.started.size());
        assertEquals(1, sink.completed.size());
        return sink;
    }

    private static List<String> facts(final StartedCommand started, final CompletedCommand completed) {
        List<String> facts = new ArrayList<>(Arrays.asList(started.getCollectionName(), started.getDatabaseName(),
                started.getQueryShape(), started.getQueryShapeHash(), started.getFingerprintHex(), started.toString(),
                completed.getErrorCodeName(), completed.toString()));
        OwnedDocument command = started.getCommandView();
        if (command != null) {
            facts.add(command.toJson(0));
            facts.add(command.toQueryText(0));
            facts.add(command.getFirstKey());
        }
        OwnedDocument reply = completed.getReplyView();
        if (reply != null) {
            facts.add(reply.toJson(0));
            facts.add(reply.toQueryText(0));
        }
        return facts;
    }

    private static void onlyWhatTheCopyShows(final String fact, final byte[] copy, final byte[][] secrets, final String context) {
        if (fact == null) {
            return;
        }
        byte[] text = fact.getBytes(StandardCharsets.UTF_8);
        for (byte[] secret : secrets) {
            for (int at = CorruptInputFuzzTest.window(text, secret, 0); at >= 0;
                 at = CorruptInputFuzzTest.window(text, secret, at + 1)) {
                byte[] piece = Arrays.copyOfRange(text, at, at + 6);
                if (CorruptInputFuzzTest.window(copy, piece) < 0) {
                    fail(context + ": a piece of a secret the copy does not hold, in " + fact);
                }
            }
        }
    }
}
