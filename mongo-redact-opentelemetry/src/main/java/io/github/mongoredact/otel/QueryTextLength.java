package io.github.mongoredact.otel;

import com.mongodb.lang.Nullable;

import java.util.function.Function;

/**
 * The length of {@code db.query.text}: the application's, else the environment variable's
 * ({@value OpenTelemetryCommandSink#QUERY_TEXT_MAX_LENGTH_VARIABLE}). Read by {@link OpenTelemetryCommandSink} and by the
 * driver-tracing bridge ({@code io.github.mongoredact.observation.DriverTracing}), so that both read the variable one way.
 * Stateless.
 *
 * @since 0.5
 */
public final class QueryTextLength {
    private QueryTextLength() {
    }

    /**
     * @param configured the length the application set, or null
     * @param environment where environment variables are read
     * @return the configured length, else {@value OpenTelemetryCommandSink#QUERY_TEXT_MAX_LENGTH_VARIABLE}'s, else 0 (off)
     * @throws IllegalArgumentException if the variable holds no length (the message names it and the value)
     * @since 0.5
     */
    public static int of(@Nullable final Integer configured, final Function<String, String> environment) {
        if (configured != null) {
            return configured;
        }
        String variable = OpenTelemetryCommandSink.QUERY_TEXT_MAX_LENGTH_VARIABLE;
        String value = environment.apply(variable);
        if (value == null || value.trim().isEmpty()) {
            return 0;
        }
        try {
            int length = Integer.parseInt(value.trim());
            if (length >= 0) {
                return length;
            }
        } catch (NumberFormatException e) {
            // reported below with the value
        }
        throw new IllegalArgumentException(variable + " must be 0 (off) or a positive number of characters; was \"" + value
                + "\"");
    }
}
