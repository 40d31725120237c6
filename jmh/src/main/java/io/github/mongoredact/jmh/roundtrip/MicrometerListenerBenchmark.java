package io.github.mongoredact.jmh.roundtrip;

import com.mongodb.event.CommandListener;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.mongodb.MongoMetricsCommandListener;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import static io.github.mongoredact.jmh.support.Checks.check;

/** The round trip with Micrometer's own {@link MongoMetricsCommandListener} on a {@link SimpleMeterRegistry}. */
public class MicrometerListenerBenchmark extends RoundTripBenchmark {
    private SimpleMeterRegistry registry;

    @Override
    protected CommandListener listener() {
        registry = new SimpleMeterRegistry();
        return new MongoMetricsCommandListener(registry);
    }

    @Override
    protected void checkSubject() {
        checkRoundTrip();
        Timer timer = registry.find("mongodb.driver.commands").timer();
        check(timer != null && timer.count() > 0, "no command timed: " + registry.getMetersAsString());
    }
}
