package io.github.mongoredact.jmh;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.jmh.support.DriverDocuments;
import io.github.mongoredact.jmh.support.Forwarded;
import io.github.mongoredact.jmh.support.LastEventListener;
import io.github.mongoredact.jmh.support.MixCommands;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import static io.github.mongoredact.jmh.support.Checks.check;

/**
 * One command of the typical mix ({@link MixCommands}) as the driver hands it to a listener: its started and succeeded events.
 * The item's event, which the single-event subjects handle, is the started one, but for {@code getMore}, whose item is its
 * reply of 100 documents. One event per trial: the subjects read it, they do not change it.
 */
@State(Scope.Benchmark)
public class MixInput {
    /**
     * The command: {@code findById}, {@code findIndexed}, {@code updateOne}, {@code insertOne}, {@code aggregate},
     * {@code getMore}.
     */
    @Param({"findById", "findIndexed", "updateOne", "insertOne", "aggregate", "getMore"})
    public String command;

    /** The started event. */
    public CommandStartedEvent started;
    /** The succeeded event. */
    public CommandSucceededEvent succeeded;
    /** Whether the item's event is the succeeded one (the getMore reply). */
    public boolean reply;

    /** Builds the events and checks their shapes are the driver's. */
    @Setup
    public void setUp() {
        MixCommands.Command c = MixCommands.Command.of(command);
        started = MixCommands.started(c);
        succeeded = MixCommands.succeeded(c);
        reply = c == MixCommands.Command.GET_MORE;
        String top = started.getCommand().getClass().getName();
        if (c == MixCommands.Command.UPDATE_ONE || c == MixCommands.Command.INSERT_ONE) {
            String sequence = c == MixCommands.Command.UPDATE_ONE ? "updates" : "documents";
            check(top.equals(BsonDocument.class.getName()), command + " has top level " + top);
            String element = started.getCommand().getArray(sequence).get(0).getClass().getName();
            check(element.equals(DriverDocuments.byteBackedClassName()), command + " has " + sequence + " of " + element);
        } else {
            check(top.equals(DriverDocuments.byteBackedClassName()), command + " has top level " + top);
        }
        check(succeeded.getResponse() instanceof RawBsonDocument, command + " reply is " + succeeded.getResponse().getClass());
    }

    /**
     * Hands the item's event to a listener: the started event, or for {@code getMore} the succeeded one.
     *
     * @param listener the listener
     */
    public void send(final CommandListener listener) {
        if (reply) {
            listener.commandSucceeded(succeeded);
        } else {
            listener.commandStarted(started);
        }
    }

    /**
     * @param downstream the listener our listener forwards to
     * @return the event of the item's kind it received last
     */
    public Object last(final LastEventListener downstream) {
        return reply ? downstream.succeeded : downstream.started;
    }

    /** @return the document of the item's event: the command, or the getMore reply */
    public BsonDocument document() {
        return reply ? succeeded.getResponse() : started.getCommand();
    }

    /**
     * @param policy the policy
     * @return the bytes our listener forwards for the item's event under the policy
     */
    public byte[] forwarded(final RedactionPolicy policy) {
        return reply ? Forwarded.succeeded(policy, succeeded) : Forwarded.started(policy, started);
    }
}
