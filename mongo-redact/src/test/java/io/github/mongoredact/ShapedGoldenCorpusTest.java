package io.github.mongoredact;

import io.github.mongoredact.DriverShapes.Backing;
import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Random;

/**
 * The shaped generator's golden corpus ({@link ShapedCommands}: the commands the driver sends, with filters, pipelines,
 * explain, sequences and sessions) under the defaults, the spec-only policy and a policy that keeps every value but walks
 * every element, in every backing. Compared with {@code golden/shaped.tsv} ({@link GoldenCorpus}).
 */
class ShapedGoldenCorpusTest {
    private static final int COMMANDS = 600;
    private static final long SEED = 0x601D_2026L;

    @Test
    void forwardsWhatTheRecordedWalkForwarded() throws IOException {
        RedactionPolicy[] policies = {RedactionPolicy.defaults(), RedactionPolicy.specOnly(),
                RedactionPolicy.builder(RedactionPolicy.specOnly()).maxSequenceDocuments(1_000_000).build()};
        Random random = new Random(SEED);
        GoldenCorpus corpus = new GoldenCorpus("shaped");
        for (int i = 0; i < COMMANDS; i++) {
            BsonDocument command = new ShapedCommands(SEED + i, random.nextLong(), 0).command();
            Backing backing = Backing.values()[i % Backing.values().length];
            corpus.started("shaped-" + i, policies[i % policies.length], () -> DriverShapes.started(1,
                    command.getFirstKey(), FingerprintPropertiesTest.input(command, backing)));
        }
        corpus.check(4 * COMMANDS);
    }
}
