package io.github.mongoredact.observation;

import com.mongodb.MongoClientSettings;
import io.micrometer.observation.ObservationRegistry;

/**
 * The driver's own tracing turned on as an application does without this library (command payload on), by reflection: the
 * tests compile against driver 4.11, which lacks the API, and run where it exists.
 */
final class DriverTracingApi {
    private DriverTracingApi() {
    }

    static void payloadOn(final MongoClientSettings.Builder settings, final ObservationRegistry registry,
                          final int maxQueryTextLength) {
        try {
            Class<?> type = Class.forName("com.mongodb.observability.ObservabilitySettings");
            Object builder = type.getMethod("micrometerBuilder").invoke(null);
            builder.getClass().getMethod("observationRegistry", ObservationRegistry.class).invoke(builder, registry);
            builder.getClass().getMethod("enableCommandPayloadTracing", boolean.class).invoke(builder, true);
            builder.getClass().getMethod("maxQueryTextLength", int.class).invoke(builder, maxQueryTextLength);
            Object built = builder.getClass().getMethod("build").invoke(builder);
            MongoClientSettings.Builder.class.getMethod("observabilitySettings", type).invoke(settings, built);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("the driver's tracing API (5.7+) is missing", e);
        }
    }
}
