package io.github.mongoredact.jmh;

import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.jmh.support.Inputs;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A driver-shaped {@code find} whose filter has {@code predicates} equality predicates (strings and numbers, in turn), with a
 * sort and a limit, and its empty-batch reply: a command the server shapes, for the query shape's cost beside the copy.
 */
@State(Scope.Benchmark)
public class ShapeInput {
    /** The predicates of the filter. */
    @Param({"1", "20"})
    public int predicates;

    /** The started event. */
    public CommandStartedEvent started;
    /** The succeeded event. */
    public CommandSucceededEvent succeeded;

    /** Builds the events. */
    @Setup
    public void setUp() {
        BsonDocument filter = new BsonDocument();
        for (int i = 0; i < predicates; i++) {
            filter.append("field" + i, i % 2 == 0 ? new BsonString("value-" + i + "@example.org") : new BsonInt32(i));
        }
        BsonDocument find = new BsonDocument("find", new BsonString(Inputs.COLLECTION)).append("filter", filter)
                .append("sort", new BsonDocument("field0", new BsonInt32(1))).append("limit", new BsonInt32(10))
                .append("$db", new BsonString(Inputs.DATABASE));
        // as the driver hands it: raw bytes (a document the listener must encode first is not shaped)
        started = Inputs.started("find", new RawBsonDocument(find, new BsonDocumentCodec()));
        succeeded = Inputs.succeeded("find", Inputs.findReply(Inputs.DocSize.SMALL, 0));
    }
}
