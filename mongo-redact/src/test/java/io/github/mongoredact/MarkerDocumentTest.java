package io.github.mongoredact;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The marker forwarded in place of a document that could not be copied is immutable: no sink can change what the next sees. */
class MarkerDocumentTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();


    @Test
    void markerCannotBeChangedByOneSinkForTheNext() {
        BsonDocument[] seen = new BsonDocument[2];
        CommandListener meddling = new CommandListener() {
            @Override
            public void commandStarted(final CommandStartedEvent event) {
                seen[0] = event.getCommand();
                assertThrows(UnsupportedOperationException.class,
                        () -> event.getCommand().put("$redactionError", new BsonString("changed by a sink")));
                assertThrows(UnsupportedOperationException.class, () -> event.getCommand().put("extra", new BsonInt32(1)));
            }
        };
        KeepingListener next = new KeepingListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().addListener(meddling).addListener(next).build();
        listener.commandStarted(DriverShapes.started(1, "find", DriverShapes.byteBufDocument(ByteBuffer.wrap(corrupt()), 0)));
        seen[1] = next.started.get(0).getCommand();
        assertTrue(seen[0] instanceof RawBsonDocument, seen[0].getClass().getName());
        assertTrue(seen[1].containsKey("$redactionError"), seen[1].toJson());
        assertEquals(1, seen[1].size(), seen[1].toJson());
        assertEquals(1, listener.getCounters().getRedactionFailures());
        warnings.assertSaid("a marker document was forwarded in its place");
    }

    /** {"find": "c", ...} whose second element claims a string longer than the document. */
    private static byte[] corrupt() {
        byte[] valid = DriverShapes.encode(new BsonDocument("find", new BsonString("customers"))
                .append("filter", new BsonDocument("email", new BsonString("alice@example.com")))
                .append("$db", new BsonString("shop")));
        ByteBuffer bytes = ByteBuffer.wrap(valid).order(ByteOrder.LITTLE_ENDIAN);
        // the length of "customers" (at 4 type + "find\0" = 10) made larger than the document
        bytes.putInt(10, 10_000);
        return valid;
    }
}
