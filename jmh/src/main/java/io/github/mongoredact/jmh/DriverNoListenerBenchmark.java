package io.github.mongoredact.jmh;

import com.mongodb.event.CommandListener;

/** The driver with no command listener: the baseline of the captured case. */
public class DriverNoListenerBenchmark extends DriverBenchmark {
    @Override
    protected CommandListener listener() {
        return null;
    }

    @Override
    protected void checkSubject() {
    }
}
