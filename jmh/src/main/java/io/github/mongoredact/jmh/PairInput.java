package io.github.mongoredact.jmh;

import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.jmh.support.Inputs;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Locale;

/** A started insert of {@code count} small documents and its succeeded event ({@code {n: count, ok: 1.0}}). */
@State(Scope.Benchmark)
public class PairInput {
    /** {@code bytebuf} or {@code plain}, as in {@link CommandInput}. */
    @Param({"bytebuf", "plain"})
    public String shape;

    /** The number of documents in the sequence. */
    @Param({"0", "1", "5", "10", "100", "1000"})
    public int count;

    /** The started event. */
    public CommandStartedEvent started;
    /** The succeeded event. */
    public CommandSucceededEvent succeeded;

    /** Builds the events. */
    @Setup
    public void setUp() {
        Inputs.Shape s = Inputs.Shape.valueOf(shape.toUpperCase(Locale.ROOT));
        started = Inputs.started("insert", Inputs.insert(s, Inputs.DocSize.SMALL, count));
        CommandInput.checkShape(s, started.getCommand(), count);
        succeeded = Inputs.succeeded("insert", Inputs.insertReply(count));
    }
}
