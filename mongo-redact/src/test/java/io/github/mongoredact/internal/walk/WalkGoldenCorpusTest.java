package io.github.mongoredact.internal.walk;

import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.DriverShapes.Backing;
import io.github.mongoredact.GoldenCorpus;
import io.github.mongoredact.KeyMasking;
import io.github.mongoredact.RedactionPolicy;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;

/**
 * The walk's golden corpus: the random generator's commands and replies (every BSON type, every backing the driver hands
 * over, document sequences) under the defaults, the spec-only policy, policies that keep {@code filter}, and random
 * policies with caps, sequence limits and masked keys; and the same commands with one byte changed, held as the driver's
 * buffer-backed document (the marker, or a copy the walk accepts). Compared with {@code golden/walk.tsv}
 * ({@link GoldenCorpus}).
 */
class WalkGoldenCorpusTest {
    private static final int COMMANDS = 500;
    private static final int CORRUPTED = 300;
    private static final int REPLIES = 200;

    @Test
    void forwardsWhatTheRecordedWalkForwarded() throws IOException {
        GoldenCorpus corpus = new GoldenCorpus("walk");
        for (long seed = 1; seed <= COMMANDS; seed++) {
            RandomCommands generator = new RandomCommands(seed);
            RandomCommands.Command command = generator.command();
            RedactionPolicy policy = policy(seed, generator.random);
            Backing backing = Backing.values()[generator.random.nextInt(Backing.values().length)];
            corpus.started("command-" + seed, policy, () -> DriverShapes.started(1, command.name, command.hasSequences()
                    ? DriverShapes.withSequences(command.top, backing, command.sequencePairs())
                    : DriverShapes.byteBacked(command.top, backing)));
        }
        for (long seed = 1; seed <= CORRUPTED; seed++) {
            RandomCommands generator = new RandomCommands(seed + 1_000_000);
            RandomCommands.Command command = generator.command();
            RedactionPolicy policy = policy(seed, generator.random);
            byte[] bytes = DriverShapes.encode(RedactionPropertiesTest.merged(command));
            // one byte changed past the length prefix, to a value that breaks text, framing or types as it falls
            int at = 4 + generator.random.nextInt(bytes.length - 4);
            byte[] values = {0x00, (byte) 0xFF, (byte) 0x80, 0x7F, 0x01, 0x03, 0x10, (byte) 0xC0};
            bytes[at] = values[generator.random.nextInt(values.length)];
            corpus.started("corrupted-" + seed + "-at-" + at, policy, () -> DriverShapes.started(1, command.name,
                    DriverShapes.byteBufDocument(ByteBuffer.wrap(bytes.clone()), 0)));
        }
        for (long seed = 1; seed <= REPLIES; seed++) {
            RandomCommands generator = new RandomCommands(seed + 2_000_000);
            BsonDocument reply = generator.reply();
            RedactionPolicy policy = policy(seed, generator.random);
            Backing backing = Backing.values()[generator.random.nextInt(Backing.values().length)];
            BsonDocument find = new BsonDocument("find", new BsonString("coll")).append("batchSize", new BsonInt32(2))
                    .append("$db", new BsonString("shop"));
            corpus.replied("reply-" + seed, policy, () -> DriverShapes.started(1, "find", DriverShapes.byteBacked(find,
                    Backing.BYTE_BUF_HEAP)), () -> DriverShapes.succeeded(1, "find", DriverShapes.byteBacked(reply, backing)));
        }
        corpus.check(4 * (COMMANDS + CORRUPTED) + 3 * REPLIES);
    }

    /** The seed's policy: the defaults, the spec's, the defaults keeping {@code filter} (also unmasked), or a random one. */
    private static RedactionPolicy policy(final long seed, final Random random) {
        switch ((int) (seed % 6)) {
            case 0:
                return RedactionPolicy.defaults();
            case 1:
                return RedactionPolicy.specOnly();
            case 2:
                return RedactionPolicy.builder(RedactionPolicy.defaults()).keep("filter").build();
            case 3:
                return RedactionPolicy.builder(RedactionPolicy.defaults()).keep("filter").keyMasking(KeyMasking.NONE).build();
            case 4:
                return RedactionPropertiesTest.randomPolicy(random, false, false, false);
            default:
                return RedactionPropertiesTest.randomPolicy(random, random.nextBoolean(), random.nextBoolean(), true);
        }
    }
}
