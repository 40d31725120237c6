package io.github.mongoredact.jmh;

import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.jmh.support.Inputs;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Locale;

/** A driver-shaped insert of {@code count} documents (plain top level) and its succeeded event, for the metrics path. */
@State(Scope.Benchmark)
public class MetricsInput {
    /** {@code small} (~60 B) or {@code kib} (1 KiB) user documents. */
    @Param({"small", "kib"})
    public String docSize;

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
        started = Inputs.started("insert", Inputs.insert(Inputs.Shape.PLAIN,
                Inputs.DocSize.valueOf(docSize.toUpperCase(Locale.ROOT)), count));
        succeeded = Inputs.succeeded("insert", Inputs.insertReply(count));
    }
}
