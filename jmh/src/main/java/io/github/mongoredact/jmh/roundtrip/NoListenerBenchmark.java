package io.github.mongoredact.jmh.roundtrip;

import com.mongodb.event.CommandListener;

/** The round trip with no command listener: the baseline (the driver then builds no command events at all). */
public class NoListenerBenchmark extends RoundTripBenchmark {
    @Override
    protected CommandListener listener() {
        return null;
    }

    @Override
    protected void checkSubject() {
        checkRoundTrip();
    }
}
