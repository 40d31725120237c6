package io.github.mongoredact.jmh;

import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.jmh.support.Inputs;
import org.bson.RawBsonDocument;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** A succeeded {@code find} event whose reply, a heap {@code RawBsonDocument} as the driver's, has {@code batch} small documents. */
@State(Scope.Benchmark)
public class ReplyInput {
    /** The number of documents in {@code cursor.firstBatch}. */
    @Param({"0", "1", "5", "10", "100", "1000"})
    public int batch;

    /** The reply. */
    public RawBsonDocument reply;
    /** The event. */
    public CommandSucceededEvent event;

    /** Builds the event. */
    @Setup
    public void setUp() {
        reply = Inputs.findReply(Inputs.DocSize.SMALL, batch);
        event = Inputs.succeeded("find", reply);
    }
}
