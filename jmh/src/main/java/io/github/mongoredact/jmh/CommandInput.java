package io.github.mongoredact.jmh;

import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.jmh.support.DriverDocuments;
import io.github.mongoredact.jmh.support.Inputs;
import org.bson.BsonDocument;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Locale;

import static io.github.mongoredact.jmh.support.Checks.check;

/**
 * A started insert event with {@code count} user documents, in one of the driver's two shapes. One event per trial: the
 * subjects read the command, they do not change it.
 */
@State(Scope.Benchmark)
public class CommandInput {
    /** {@code bytebuf}: one {@code ByteBufBsonDocument}; {@code plain}: plain top level, sequence of byte-backed documents. */
    @Param({"bytebuf", "plain"})
    public String shape;

    /** {@code small} (~60 B) or {@code kib} (1 KiB) user documents. */
    @Param({"small", "kib"})
    public String docSize;

    /** The number of documents in the sequence. */
    @Param({"0", "1", "5", "10", "100", "1000"})
    public int count;

    /** The command, as the event carries it. */
    public BsonDocument command;
    /** The event. */
    public CommandStartedEvent event;

    /** Builds the event and checks its shape is the driver's. */
    @Setup
    public void setUp() {
        Inputs.Shape s = Inputs.Shape.valueOf(shape.toUpperCase(Locale.ROOT));
        command = Inputs.insert(s, Inputs.DocSize.valueOf(docSize.toUpperCase(Locale.ROOT)), count);
        event = Inputs.started("insert", command);
        checkShape(s, command, count);
    }

    static void checkShape(final Inputs.Shape shape, final BsonDocument command, final int count) {
        String top = command.getClass().getName();
        if (shape == Inputs.Shape.BYTEBUF) {
            check(top.equals(DriverDocuments.byteBackedClassName()), "bytebuf shape has top level " + top);
        } else {
            check(top.equals(BsonDocument.class.getName()), "plain shape has top level " + top);
            if (count > 0) {
                String element = command.getArray("documents").get(0).getClass().getName();
                check(element.equals(DriverDocuments.byteBackedClassName()), "plain shape has documents of " + element);
                check(command.getFirstKey().equals("insert") && lastKey(command).equals("documents"),
                        "documents must follow $db: " + command.keySet());
            }
        }
    }

    private static String lastKey(final BsonDocument document) {
        String last = null;
        for (String key : document.keySet()) {
            last = key;
        }
        return last;
    }
}
