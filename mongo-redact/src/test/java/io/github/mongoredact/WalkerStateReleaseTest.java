package io.github.mongoredact;

import io.github.mongoredact.DriverShapes.Backing;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * After a callback, the pooled state it borrowed references no byte of the command or reply it read, nor the copy it handed
 * on: the driver's buffers and the forwarded copy can be collected. Checked after a metrics-only callback (no sink reads
 * documents, so the listener only analyses) and after copies by both kinds of policy, of a byte-backed command and of a plain
 * top level with a document sequence (whose top level is encoded into a scratch's own array, which the pooled state keeps).
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

    /**
     * @param specOnly the verbatim policy, else the redacting one
     * @param sequence a plain top level with a document sequence, else a byte-backed command
     */
    @ParameterizedTest(name = "specOnly={0} sequence={1}")
    @CsvSource({"true, true", "false, true", "true, false", "false, false"})
    void copyingCallbackKeepsNoReferenceToTheDriverBufferNorTheCopy(final boolean specOnly, final boolean sequence) {
        KeptCopy downstream = new KeptCopy();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .policy(specOnly ? RedactionPolicy.specOnly() : RedactionPolicy.defaults()).addListener(downstream).build();
        WeakReference<byte[]> buffer = sequence ? insertOverOwnBuffer(listener) : startOverOwnBuffer(listener);
        assertTrue(downstream.copy != null && downstream.copy.get() != null, "a copy was forwarded");
        assertTrue(collected(buffer), "the pooled state still references the driver's buffer");
        assertTrue(collected(downstream.copy), "the pooled state still references the copy it forwarded");
    }

    /** A downstream listener that keeps only a weak reference to the array of the copy it was handed. */
    static final class KeptCopy implements CommandListener {
        WeakReference<byte[]> copy;

        @Override
        public void commandStarted(final CommandStartedEvent event) {
            copy = new WeakReference<>(DriverShapes.ownedBytes(event.getCommand()));
        }
    }

    /**
     * Sends an insert whose documents are a sequence of the driver's buffer-backed documents in one array, after a plain top
     * level, as the driver hands them over; only a weak reference to that array is returned.
     */
    private static WeakReference<byte[]> insertOverOwnBuffer(final RedactingCommandListener listener) {
        byte[] first = DriverShapes.encode(new BsonDocument("email", new BsonString("alice@example.com")));
        byte[] second = DriverShapes.encode(new BsonDocument("email", new BsonString("bob@example.com")));
        byte[] array = new byte[first.length + second.length];
        System.arraycopy(first, 0, array, 0, first.length);
        System.arraycopy(second, 0, array, first.length, second.length);
        BsonDocument command = new BsonDocument("insert", new BsonString("users")).append("ordered", new BsonInt32(1))
                .append("$db", new BsonString("shop"))
                .append("documents", new BsonArray(List.of(DriverShapes.byteBufDocument(ByteBuffer.wrap(array), 0),
                        DriverShapes.byteBufDocument(ByteBuffer.wrap(array), first.length))));
        listener.commandStarted(DriverShapes.started(9, "insert", command));
        return new WeakReference<>(array);
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
