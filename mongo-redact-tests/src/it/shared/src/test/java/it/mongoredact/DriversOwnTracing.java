package it.mongoredact;

import com.mongodb.MongoClientSettings;
import io.micrometer.observation.ObservationRegistry;

/**
 * Turns the driver's own tracing (5.7+) on as an application does, command payload on, by reflection: the shared tests
 * compile against the driver each Spring Boot line manages, which may predate the API.
 */
final class DriversOwnTracing {
    private DriversOwnTracing() {
    }

    static void turnOn(final MongoClientSettings.Builder settings, final ObservationRegistry registry) {
        try {
            Class<?> type = Class.forName("com.mongodb.observability.ObservabilitySettings");
            Object builder = type.getMethod("micrometerBuilder").invoke(null);
            builder.getClass().getMethod("observationRegistry", ObservationRegistry.class).invoke(builder, registry);
            builder.getClass().getMethod("enableCommandPayloadTracing", boolean.class).invoke(builder, true);
            Object built = builder.getClass().getMethod("build").invoke(builder);
            MongoClientSettings.Builder.class.getMethod("observabilitySettings", type).invoke(settings, built);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the driver's tracing API (5.7+) is missing", e);
        }
    }
}
