package io.github.mongoredact.deny;

import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.GoldenCorpus;
import io.github.mongoredact.RedactionPolicy;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The deny-by-default cases' golden corpus: every constructed command family (CRUD and administration, with planted values
 * in every position), its reply and its failure, under the defaults, in the backings the driver hands over. Compared with
 * {@code golden/deny.tsv}, the failures with {@code golden/deny-failures-<driver line>.tsv} ({@link GoldenCorpus}).
 */
class DenyGoldenCorpusTest {
    private static final long SEED = 0x5EED_10L;
    private static final DriverShapes.Backing[] BACKINGS = {DriverShapes.Backing.BYTE_BUF_HEAP,
            DriverShapes.Backing.BYTE_BUF_HEAP_IN_MESSAGE, DriverShapes.Backing.BYTE_BUF_DIRECT};

    @Test
    void forwardsWhatTheRecordedWalkForwarded() throws IOException {
        Planted planted = new Planted(SEED);
        UserData data = new UserData(planted);
        Pipelines pipelines = new Pipelines(data);
        Replies replies = new Replies(data);
        Failures failures = new Failures(data, replies);
        List<Case> cases = new ArrayList<>(new CrudCases(data, pipelines, replies, failures).all());
        cases.addAll(new AdminCases(data, pipelines, replies, failures).all());
        GoldenCorpus corpus = new GoldenCorpus("deny");
        // failure text holds the driver's own templates, which changed between lines: one corpus per line
        GoldenCorpus failed = new GoldenCorpus("deny-failures-" + GoldenCorpus.driverLine());
        RedactionPolicy policy = RedactionPolicy.defaults();
        int i = 0;
        for (Case c : cases) {
            DriverShapes.Backing backing = BACKINGS[i % BACKINGS.length];
            String id = "deny-" + i + "-" + c.family;
            String name = c.commandName();
            corpus.started(id, policy, () -> DriverShapes.started(1, name,
                    DenyByDefaultTest.input(c.top, c.documents, c.documents2, c, backing)));
            if (c.reply != null) {
                byte[] reply = DriverShapes.encode(c.reply);
                corpus.replied(id, policy, () -> DriverShapes.started(1, name, DriverShapes.byteBacked(c.top, backing)),
                        () -> DriverShapes.succeeded(1, name, new RawBsonDocument(reply)));
            }
            if (c.failure != null) {
                failed.failed(id, policy, () -> DriverShapes.started(1, name, DriverShapes.byteBacked(c.top, backing)),
                        () -> DriverShapes.failed(1, name, c.failure));
            }
            i++;
        }
        corpus.check(4 * cases.size());
        failed.check(100);
    }
}
