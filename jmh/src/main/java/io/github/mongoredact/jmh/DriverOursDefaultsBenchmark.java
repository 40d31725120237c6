package io.github.mongoredact.jmh;

import com.mongodb.event.CommandListener;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.jmh.support.Checks;
import io.github.mongoredact.jmh.support.LastEventListener;

/** Ours with {@link RedactionPolicy#defaults()} inside the real driver's callbacks, forwarding to a plain listener. */
public class DriverOursDefaultsBenchmark extends DriverBenchmark {
    private RedactingCommandListener listener;

    @Override
    protected CommandListener listener() {
        listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults()).addListener(new LastEventListener()).build();
        return listener;
    }

    @Override
    protected void checkSubject() {
        Checks.noFailures(listener);
    }
}
