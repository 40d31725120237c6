package io.github.mongoredact.jmh.roundtrip;

import com.mongodb.event.CommandListener;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.log.CommandLogSink;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import static io.github.mongoredact.jmh.support.Checks.check;
import static io.github.mongoredact.jmh.support.Checks.noFailures;

/**
 * The round trip with ours as a deployment would run it: {@link RedactionPolicy#defaults()}, our {@link CommandLogSink} with
 * its logger off (the benchmarks log through slf4j-nop) and our {@link MicrometerCommandSink} on a {@link SimpleMeterRegistry};
 * no plain downstream listener.
 */
public class OursBenchmark extends RoundTripBenchmark {
    private RedactingCommandListener listener;
    private CommandLogSink log;
    private SimpleMeterRegistry registry;

    @Override
    protected CommandListener listener() {
        registry = new SimpleMeterRegistry();
        log = CommandLogSink.builder().build();
        listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults()).addSink(log)
                .addSink(MicrometerCommandSink.builder(registry).build()).build();
        return listener;
    }

    @Override
    protected void checkSubject() {
        checkRoundTrip();
        noFailures(listener);
        check(!log.needsDocuments(), "the log sink's logger is on: this subject measures it off");
        Timer timer = registry.find(MicrometerCommandSink.COMMANDS).timer();
        check(timer != null && timer.count() > 0, "no command timed: " + registry.getMetersAsString());
    }
}
