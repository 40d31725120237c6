package it.mongoredact;

import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.log.CommandLogSink;
import io.github.mongoredact.micrometer.ListenerCountersMetrics;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The producer of docs/quarkus.md, word for word: Quarkus puts every CommandListener bean on the clients it makes. */
public class MongoRedactProducer {

    @Produces
    @Singleton
    RedactingCommandListener redactingCommandListener(final MeterRegistry registry) {
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .addSink(CommandLogSink.builder().build())
                .addSink(MicrometerCommandSink.builder(registry).build())
                .build();
        new ListenerCountersMetrics(listener.getCounters()).bindTo(registry);
        return listener;
    }
}
