package io.github.mongoredact;

import com.mongodb.ServerAddress;
import com.mongodb.connection.ClusterId;
import com.mongodb.connection.ConnectionDescription;
import com.mongodb.connection.ServerId;
import com.mongodb.event.CommandStartedEvent;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A sink that needs no documents gets the same analysis as one that does, though nothing is copied for it. */
class AnalysisWithoutCopyTest {

    @Test
    void sinkWithoutDocumentsGetsTheSameFingerprintCollectionAndSizeAsOneWithDocuments() {
        for (int count : new int[]{0, 1, 5, 1000}) {
            for (RedactionPolicy policy : new RedactionPolicy[]{RedactionPolicy.specOnly(), RedactionPolicy.defaults()}) {
                StartedCommand withDocuments = start(policy, true, insert(count));
                StartedCommand withoutDocuments = start(policy, false, insert(count));
                assertNotNull(withDocuments.getCommand());
                assertNull(withoutDocuments.getCommand());
                String label = "count=" + count + " policy=" + policy;
                assertEquals(withDocuments.getFingerprint(), withoutDocuments.getFingerprint(), label);
                assertEquals("customers", withoutDocuments.getCollectionName(), label);
                assertEquals(withDocuments.getCommandSize(), withoutDocuments.getCommandSize(), label);
                assertEquals(RawBytes.length(new RawBsonDocument(insert(count), new BsonDocumentCodec())),
                        withoutDocuments.getCommandSize(), label);
            }
        }
    }

    private static StartedCommand start(final RedactionPolicy policy, final boolean documents, final BsonDocument command) {
        StartedCommand[] last = new StartedCommand[1];
        CommandSink sink = new CommandSink() {
            @Override
            public boolean needsDocuments() {
                return documents;
            }

            @Override
            public void started(final StartedCommand started) {
                last[0] = started;
            }
        };
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addSink(sink).build();
        listener.commandStarted(new CommandStartedEvent(null, 1, 7,
                new ConnectionDescription(new ServerId(new ClusterId(), new ServerAddress())), "shop", "insert", command));
        return last[0];
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
