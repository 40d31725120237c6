package io.github.mongoredact.jmh;

import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.jmh.support.Inputs;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import static io.github.mongoredact.jmh.support.Checks.check;

/**
 * The input of the floor prototypes: the same started insert as {@link CommandInput} at {@code shape=plain docSize=small}
 * ({@code Inputs.insert(PLAIN, SMALL, count)}), the only shape and size the prototypes are written for. {@code shape} and
 * {@code docSize} are parameters with one value so that the floors' results carry the same parameters as ours and fall in the
 * same report section.
 */
@State(Scope.Benchmark)
public class FloorInput {
    /** Only {@code plain}: a plain top level with the documents appended as byte-backed documents. */
    @Param({"plain"})
    public String shape;

    /** Only {@code small}: flat documents (id, name, age, flag). */
    @Param({"small"})
    public String docSize;

    /** The number of documents in the sequence. */
    @Param({"1", "1000"})
    public int count;

    /** The event. */
    public CommandStartedEvent event;

    /** Builds the event and checks its shape is the driver's. */
    @Setup
    public void setUp() {
        check(shape.equals("plain") && docSize.equals("small"),
                "the floor prototypes are written for shape=plain docSize=small only: shape=" + shape + " docSize=" + docSize);
        event = Inputs.started("insert", Inputs.insert(Inputs.Shape.PLAIN, Inputs.DocSize.SMALL, count));
        CommandInput.checkShape(Inputs.Shape.PLAIN, event.getCommand(), count);
    }
}
