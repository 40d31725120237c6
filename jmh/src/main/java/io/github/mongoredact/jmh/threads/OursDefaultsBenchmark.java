package io.github.mongoredact.jmh.threads;

import com.mongodb.event.CommandListener;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.jmh.support.LastEventListener;
import org.bson.RawBsonDocument;

import static io.github.mongoredact.jmh.support.Checks.check;
import static io.github.mongoredact.jmh.support.Checks.noFailures;

/**
 * Ours with {@link RedactionPolicy#defaults()} and a plain downstream that keeps the forwarded events (each owns its redacted
 * copy), on a platform thread and on a fresh virtual thread per command: see {@link ThreadKindBenchmark}.
 */
public class OursDefaultsBenchmark extends ThreadKindBenchmark {
    private RedactingCommandListener listener;

    @Override
    protected CommandListener listener(final LastEventListener downstream) {
        listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults()).addListener(downstream).build();
        return listener;
    }

    @Override
    protected void checkSubject() {
        noFailures(listener);
        check(listener.getCounters().getValuesRedacted() > 0, "defaults redacted no value");
        check(downstream.started != started && downstream.started.getCommand() instanceof RawBsonDocument,
                "the downstream got no owned copy: " + downstream.started.getCommand().getClass());
    }
}
