package io.github.mongoredact;

import com.mongodb.ServerAddress;
import com.mongodb.connection.ClusterId;
import com.mongodb.connection.ConnectionDescription;
import com.mongodb.connection.ServerId;
import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fingerprint is computed only when a sink reads it; everything else a sink is given stays the same. */
class FingerprintOnlyWhenReadTest {

    @Test
    void sinkThatReadsNoFingerprintGetsZeroAndTheSameCollectionAndSize() {
        for (RedactionPolicy policy : new RedactionPolicy[]{RedactionPolicy.specOnly(), RedactionPolicy.defaults()}) {
            for (boolean documents : new boolean[]{true, false}) {
                String label = "policy=" + policy + " documents=" + documents;
                StartedCommand read = start(policy, documents, true);
                StartedCommand unread = start(policy, documents, false);
                assertNotEquals(0, read.getFingerprint(), label);
                assertEquals(0, unread.getFingerprint(), label);
                assertEquals("customers", unread.getCollectionName(), label);
                assertEquals(read.getCollectionName(), unread.getCollectionName(), label);
                assertEquals(read.getCommandSize(), unread.getCommandSize(), label);
                assertEquals(read.getCommand(), unread.getCommand(), label);
            }
        }
    }

    @Test
    void fingerprintCollectionAndSizeAreTheSameWhetherTheCommandIsCopiedOrNot() {
        for (RedactionPolicy policy : new RedactionPolicy[]{RedactionPolicy.specOnly(), RedactionPolicy.defaults()}) {
            String label = "policy=" + policy;
            StartedCommand copied = start(policy, true, true);
            StartedCommand notCopied = start(policy, false, true);
            assertNotEquals(0, copied.getFingerprint(), label);
            assertEquals(copied.getFingerprint(), notCopied.getFingerprint(), label);
            assertEquals("customers", copied.getCollectionName(), label);
            assertEquals(copied.getCollectionName(), notCopied.getCollectionName(), label);
            assertEquals(copied.getCommandSize(), notCopied.getCommandSize(), label);
        }
    }

    @Test
    void metricsSinkReadsTheFingerprintOnlyWhenItTagsWithIt() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        assertFalse(MicrometerCommandSink.builder(registry).build().needsFingerprint());
        assertTrue(MicrometerCommandSink.builder(registry).fingerprintTag(true).build().needsFingerprint());
    }

    @Test
    void anySinkThatReadsTheFingerprintGetsIt() {
        StartedCommand[] last = new StartedCommand[2];
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addSink(sink(false, false, last, 0)).addSink(sink(false, true, last, 1)).build();
        listener.commandStarted(event(insert(3)));
        assertNotEquals(0, last[0].getFingerprint());
        assertEquals(last[0].getFingerprint(), last[1].getFingerprint());
    }

    private static StartedCommand start(final RedactionPolicy policy, final boolean documents, final boolean fingerprint) {
        StartedCommand[] last = new StartedCommand[1];
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy)
                .addSink(sink(documents, fingerprint, last, 0)).build();
        listener.commandStarted(event(insert(5)));
        return last[0];
    }

    private static CommandSink sink(final boolean documents, final boolean fingerprint, final StartedCommand[] last,
                                    final int slot) {
        return new CommandSink() {
            @Override
            public boolean needsDocuments() {
                return documents;
            }

            @Override
            public boolean needsFingerprint() {
                return fingerprint;
            }

            @Override
            public void started(final StartedCommand started) {
                last[slot] = started;
            }
        };
    }

    private static CommandStartedEvent event(final BsonDocument command) {
        return new CommandStartedEvent(null, 1, 7, new ConnectionDescription(new ServerId(new ClusterId(),
                new ServerAddress())), "shop", "insert", command);
    }

    private static BsonDocument insert(final int count) {
        BsonArray documents = new BsonArray();
        for (int i = 0; i < count; i++) {
            documents.add(new RawBsonDocument(new BsonDocument("_id", new BsonInt32(i))
                    .append("email", new BsonString("c" + i + "@example.com")), new BsonDocumentCodec()));
        }
        return new BsonDocument("insert", new BsonString("customers")).append("ordered", BsonBoolean.TRUE)
                .append("$db", new BsonString("shop")).append("documents", documents);
    }
}
