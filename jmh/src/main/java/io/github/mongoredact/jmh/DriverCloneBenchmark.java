package io.github.mongoredact.jmh;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import org.bson.BsonDocument;

import static io.github.mongoredact.jmh.support.Checks.check;

/** A listener that keeps {@code getCommand().clone()} and {@code getResponse().clone()}, inside the real driver's callbacks. */
public class DriverCloneBenchmark extends DriverBenchmark {
    private BsonDocument command;
    private BsonDocument reply;

    @Override
    protected CommandListener listener() {
        return new CommandListener() {
            @Override
            public void commandStarted(final CommandStartedEvent event) {
                command = event.getCommand().clone();
            }

            @Override
            public void commandSucceeded(final CommandSucceededEvent event) {
                reply = event.getResponse().clone();
            }
        };
    }

    @Override
    protected void checkSubject() {
        check(command != null && reply != null, "listener not called");
    }
}
