package io.github.mongoredact;

import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonString;

import java.util.ArrayList;
import java.util.List;

/**
 * Run in a child JVM with a small heap by {@link NeverThrowsIntoTheDriverTest}: a 40 MB command in the driver's own buffer
 * type, with the heap filled until about 16 MB are left, so that the listener's exact copy can not be allocated. Prints what
 * the two downstreams received and the listener's counters.
 */
public final class HugeCommandUnderSmallHeap {
    private static final int PAYLOAD = 40 << 20;
    private static final int LEFT_FREE = 16 << 20;

    private HugeCommandUnderSmallHeap() {
    }

    public static void main(final String[] args) {
        BsonDocument command = new BsonDocument("insert", new BsonString("customers"))
                .append("blob", new BsonBinary(new byte[PAYLOAD])).append("$db", new BsonString("shop"));
        BsonDocument huge = DriverShapes.byteBacked(command, DriverShapes.Backing.BYTE_BUF_HEAP);
        command = null;
        LastEventListener first = new LastEventListener();
        LastEventListener second = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                .addListener(first).addListener(second).build();
        // warm up the listener's own classes and per-thread state with a small command
        listener.commandStarted(DriverShapes.started(1, "ping", DriverShapes.byteBacked(
                new BsonDocument("ping", new BsonString("x")).append("$db", new BsonString("admin")),
                DriverShapes.Backing.BYTE_BUF_HEAP)));
        List<byte[]> ballast = fill();
        listener.commandStarted(DriverShapes.started(2, "insert", huge));
        ballast.clear();
        System.out.println("returned normally");
        System.out.println("first: " + first.started.getCommand().toJson());
        System.out.println("second: " + second.started.getCommand().toJson());
        System.out.println("redactionFailures=" + listener.getCounters().getRedactionFailures());
        listener.commandStarted(DriverShapes.started(3, "find", DriverShapes.byteBacked(
                new BsonDocument("find", new BsonString("customers")).append("$db", new BsonString("shop")),
                DriverShapes.Backing.BYTE_BUF_HEAP)));
        System.out.println("after: " + second.started.getCommand().toJson());
    }

    /** Takes the heap in 1 MB pieces until it is full, then gives back {@link #LEFT_FREE}. */
    private static List<byte[]> fill() {
        List<byte[]> ballast = new ArrayList<>();
        try {
            while (true) {
                ballast.add(new byte[1 << 20]);
            }
        } catch (OutOfMemoryError full) {
            for (int i = 0; i < LEFT_FREE >> 20; i++) {
                ballast.remove(ballast.size() - 1);
            }
        }
        return ballast;
    }
}
