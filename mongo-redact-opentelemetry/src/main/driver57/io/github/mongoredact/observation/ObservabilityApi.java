package io.github.mongoredact.observation;

import com.mongodb.MongoClientSettings;
import com.mongodb.lang.Nullable;
import com.mongodb.observability.ObservabilitySettings;
import com.mongodb.observability.micrometer.MicrometerObservabilitySettings;
import io.micrometer.observation.ObservationRegistry;

/**
 * The calls into the driver's observability API (5.7 and later), kept apart so that {@link DriverTracing} loads on any
 * driver line and reaches here only where the API exists. Stateless.
 */
final class ObservabilityApi {
    private ObservabilityApi() {
    }

    /** Turns the driver's tracing on with the registry, its command payload off. */
    static void tracePayloadOff(final MongoClientSettings.Builder builder, final ObservationRegistry registry) {
        builder.observabilitySettings(MicrometerObservabilitySettings.builder().observationRegistry(registry)
                .enableCommandPayloadTracing(false).build());
    }

    /**
     * @return the registry of the settings' own tracing, when the settings trace with Micrometer; else null
     */
    @Nullable
    static ObservationRegistry tracingRegistry(final MongoClientSettings settings) {
        ObservabilitySettings observability = settings.getObservabilitySettings();
        return observability instanceof MicrometerObservabilitySettings
                ? ((MicrometerObservabilitySettings) observability).getObservationRegistry() : null;
    }

    /** Keeps the settings' own tracing (registry, convention, length) with its command payload off. */
    static void payloadOff(final MongoClientSettings.Builder builder, final MongoClientSettings settings) {
        ObservabilitySettings observability = settings.getObservabilitySettings();
        if (observability instanceof MicrometerObservabilitySettings) {
            builder.observabilitySettings(MicrometerObservabilitySettings.builder(
                    (MicrometerObservabilitySettings) observability).enableCommandPayloadTracing(false).build());
        }
    }
}
