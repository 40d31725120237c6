package io.github.mongoredact.observation;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.otel.Spans;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;

/**
 * A sync client on the embedded server whose driver traces itself through Micrometer Observation into OpenTelemetry (Micrometer
 * Tracing's bridge, as Spring Boot sets it up), made safe by {@link DriverTracing} or, with {@code tracing} null, as the
 * driver does it alone with its command payload on.
 */
public final class TracedDriver implements AutoCloseable {
    public final Spans spans = new Spans();
    public final ObservationRegistry registry = ObservationRegistry.create();
    private final EmbeddedServer server = new EmbeddedServer();
    public final MongoClient client;

    public TracedDriver(@Nullable final DriverTracing tracing) {
        if (tracing != null) {
            tracing.register(registry);
        }
        OtelTracer tracer = new OtelTracer(spans.openTelemetry.getTracer("micrometer"), new OtelCurrentTraceContext(),
                event -> { });
        registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
        MongoClientSettings.Builder settings = MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(server.uri()));
        if (tracing != null) {
            RedactingCommandListener.Builder listener = RedactingCommandListener.builder();
            tracing.apply(settings, registry, listener);
            settings.addCommandListener(listener.build());
        } else {
            DriverTracingApi.payloadOn(settings, registry, 100_000);
        }
        client = MongoClients.create(settings.build());
    }

    @Override
    public void close() {
        client.close();
        server.close();
        spans.close();
    }
}
