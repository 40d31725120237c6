package io.github.mongoredact.jmh;

import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.jmh.support.Inputs;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** A driver-shaped insert of {@code count} small documents (plain top level) and its succeeded event, for the metrics path. */
@State(Scope.Benchmark)
public class MetricsInput {
    /** The number of documents in the sequence. */
    @Param({"1", "1000"})
    public int count;

    /** The started event. */
    public CommandStartedEvent started;
    /** The succeeded event. */
    public CommandSucceededEvent succeeded;

    /** Builds the events. */
    @Setup
    public void setUp() {
        started = Inputs.started("insert", Inputs.insert(Inputs.Shape.PLAIN, Inputs.DocSize.SMALL, count));
        succeeded = Inputs.succeeded("insert", Inputs.insertReply(count));
    }
}
