package io.github.mongoredact.jmh;

import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;

import static io.github.mongoredact.jmh.support.Checks.check;

/** A listener that renders command and reply as JSON (what log sinks do), inside the real driver's callbacks. */
public class DriverToJsonBenchmark extends DriverBenchmark {
    private String command;
    private String reply;

    @Override
    protected CommandListener listener() {
        return new CommandListener() {
            @Override
            public void commandStarted(final CommandStartedEvent event) {
                command = event.getCommand().toJson();
            }

            @Override
            public void commandSucceeded(final CommandSucceededEvent event) {
                reply = event.getResponse().toJson();
            }
        };
    }

    @Override
    protected void checkSubject() {
        check(command != null && reply != null, "listener not called");
    }
}
