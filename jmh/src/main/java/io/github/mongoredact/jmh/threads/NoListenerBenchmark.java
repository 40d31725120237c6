package io.github.mongoredact.jmh.threads;

import com.mongodb.event.CommandListener;
import io.github.mongoredact.jmh.support.LastEventListener;

import static io.github.mongoredact.jmh.support.Checks.check;

/**
 * The baseline of {@link ThreadKindBenchmark}: the same events handed straight to the plain downstream, no listener of ours
 * between; on a virtual thread, what is measured is the thread's start and join.
 */
public class NoListenerBenchmark extends ThreadKindBenchmark {
    @Override
    protected CommandListener listener(final LastEventListener downstream) {
        return downstream;
    }

    @Override
    protected void checkSubject() {
        check(downstream.started == started && downstream.succeeded == succeeded, "the downstream got other events");
    }
}
