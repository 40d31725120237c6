package io.github.mongoredact.jmh;

import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.jmh.support.Inputs;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Locale;

import static io.github.mongoredact.jmh.support.Checks.check;

/**
 * The input of the floor prototypes: the same started insert as {@link CommandInput} at {@code shape=plain}
 * ({@code Inputs.insert(PLAIN, docSize, count)}), the only shape the prototypes are written for. {@code shape} is a parameter
 * with one value so that the floors' results carry the same parameters as ours and fall in the same report section.
 */
@State(Scope.Benchmark)
public class FloorInput {
    /** Only {@code plain}: a plain top level with the documents appended as byte-backed documents. */
    @Param({"plain"})
    public String shape;

    /** {@code small} (flat: id, name, age, flag) or {@code kib} (1 KiB, with nested documents and arrays). */
    @Param({"small", "kib"})
    public String docSize;

    /** The number of documents in the sequence. */
    @Param({"1", "1000"})
    public int count;

    /** The event. */
    public CommandStartedEvent event;

    /** Builds the event and checks its shape is the driver's. */
    @Setup
    public void setUp() {
        check(shape.equals("plain"), "the floor prototypes are written for shape=plain only: shape=" + shape);
        event = Inputs.started("insert", Inputs.insert(Inputs.Shape.PLAIN, size(), count));
        CommandInput.checkShape(Inputs.Shape.PLAIN, event.getCommand(), count);
    }

    /** @return the size of the documents */
    public Inputs.DocSize size() {
        return Inputs.DocSize.valueOf(docSize.toUpperCase(Locale.ROOT));
    }
}
