package io.github.mongoredact;

import io.github.mongoredact.DriverShapes.Backing;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * After a metrics-only callback (no sink reads documents, so the listener only analyses), the thread's state references no
 * byte of the command or reply it analysed: the driver's buffer can be collected.
 */
class WalkerStateReleaseTest {

    /** A sink that wants the facts, not the documents: the listener analyses without copying. */
    static final class MetricsOnlySink implements CommandSink {
        final List<String> collections = new ArrayList<>();

        @Override
        public boolean needsDocuments() {
            return false;
        }

        @Override
        public void started(final StartedCommand command) {
            collections.add(String.valueOf(command.getCollectionName()));
        }
    }

    @Test
    void metricsOnlyCallbackKeepsNoReferenceToTheCommandBuffer() {
        MetricsOnlySink sink = new MetricsOnlySink();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addSink(sink).build();
        WeakReference<byte[]> buffer = startOverOwnBuffer(listener);
        assertEquals(List.of("users"), sink.collections);
        assertTrue(collected(buffer), "the walker's per-thread state still references the command's buffer");
    }

    @Test
    void metricsOnlyCallbackKeepsNoReferenceToTheReplyBuffer() {
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addSink(new MetricsOnlySink()).build();
        WeakReference<byte[]> buffer = replyOverOwnBuffer(listener);
        assertTrue(collected(buffer), "the per-thread state still references the reply's buffer");
    }

    /** Sends a started event over the driver's buffer-backed document; only a weak reference to its array is returned. */
    private static WeakReference<byte[]> startOverOwnBuffer(final RedactingCommandListener listener) {
        byte[] array = DriverShapes.encode(new BsonDocument("find", new BsonString("users"))
                .append("filter", new BsonDocument("email", new BsonString("alice@example.com")))
                .append("$db", new BsonString("shop")));
        BsonDocument command = DriverShapes.byteBufDocument(ByteBuffer.wrap(array), 0);
        listener.commandStarted(DriverShapes.started(7, "find", command));
        return new WeakReference<>(array);
    }

    private static WeakReference<byte[]> replyOverOwnBuffer(final RedactingCommandListener listener) {
        byte[] array = DriverShapes.encode(new BsonDocument("cursor", new BsonDocument("id", new BsonInt64(0))
                .append("ns", new BsonString("shop.users"))).append("ok", new BsonInt32(1)));
        listener.commandStarted(DriverShapes.started(8, "find", Backing.RAW.apply(DriverShapes.encode(
                new BsonDocument("find", new BsonString("users")).append("$db", new BsonString("shop"))))));
        listener.commandSucceeded(DriverShapes.succeeded(8, "find", new RawBsonDocument(array)));
        return new WeakReference<>(array);
    }

    /** Whether the collector clears the reference within a bounded number of collections. */
    private static boolean collected(final WeakReference<byte[]> reference) {
        for (int i = 0; i < 50 && reference.get() != null; i++) {
            System.gc();
            byte[][] pressure = new byte[16][];
            for (int j = 0; j < pressure.length; j++) {
                pressure[j] = new byte[64 * 1024];
            }
            Thread.onSpinWait();
        }
        return reference.get() == null;
    }
}
