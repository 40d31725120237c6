package io.github.mongoredact.otel;

import com.mongodb.lang.Nullable;

import java.util.Locale;
import java.util.function.Function;

/**
 * Whether the sink makes spans: the application's choice, else the environment variable
 * {@value OpenTelemetryCommandSink#ENABLED_VARIABLE} ({@code 1}, {@code true}, {@code yes}; {@code 0}, {@code false},
 * {@code no}), else on. Stateless.
 */
final class TracingEnabled {
    private TracingEnabled() {
    }

    /**
     * @param configured the application's choice, or null
     * @param environment where environment variables are read
     * @return whether spans are made
     * @throws IllegalArgumentException if the variable holds another word (the message names it and the value)
     */
    static boolean of(@Nullable final Boolean configured, final Function<String, String> environment) {
        if (configured != null) {
            return configured;
        }
        String variable = OpenTelemetryCommandSink.ENABLED_VARIABLE;
        String value = environment.apply(variable);
        if (value == null || value.trim().isEmpty()) {
            return true;
        }
        String word = value.trim().toLowerCase(Locale.ROOT);
        if (word.equals("1") || word.equals("true") || word.equals("yes")) {
            return true;
        }
        if (word.equals("0") || word.equals("false") || word.equals("no")) {
            return false;
        }
        throw new IllegalArgumentException(variable + " must be one of 1, true, yes, 0, false, no; was \"" + value + "\"");
    }
}
