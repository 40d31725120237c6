package io.github.mongoredact.internal.json;

import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;

import java.util.function.Function;

/**
 * OpenTelemetry's {@code db.query.text} as the specification describes it: the command as relaxed JSON without
 * {@code lsid}, {@code $db}, {@code $clusterTime} and {@code signature}, cut as the logging specification cuts; its length
 * from the specification's environment variable when the application sets none. Stateless.
 */
public final class QueryText {
    /** The specification's environment variable that turns the text on, with its maximum length. */
    public static final String MAX_LENGTH_VARIABLE = "OTEL_JAVA_INSTRUMENTATION_MONGODB_QUERY_TEXT_MAX_LENGTH";
    private static final String[] LEFT_OUT = {"lsid", "$db", "$clusterTime", "signature"};
    /** The first characters of the names left out, by byte: most names are told apart by their first byte. */
    private static final boolean[] LEFT_OUT_FIRST = new boolean[256];

    static {
        for (String name : LEFT_OUT) {
            LEFT_OUT_FIRST[name.charAt(0)] = true;
        }
    }

    private QueryText() {
    }

    /** @return the text of a redacted, owned command */
    public static String render(final BsonDocument command, final int maxLength) {
        return TruncatedJson.render(command, maxLength, LEFT_OUT);
    }

    /** Whether the top-level name {@code src[from, to)} is one the text leaves out. */
    static boolean isLeftOut(final byte[] src, final int from, final int to) {
        return to > from && LEFT_OUT_FIRST[src[from] & 0xFF] && RawJson.isSkipped(src, from, to, LEFT_OUT);
    }

    /**
     * @param configured the length the application set, or null
     * @param environment where environment variables are read
     * @return the configured length, else {@value #MAX_LENGTH_VARIABLE}'s, else 0 (off)
     * @throws IllegalArgumentException if the variable holds no length (the message names it and the value)
     */
    public static int maxLength(@Nullable final Integer configured, final Function<String, String> environment) {
        if (configured != null) {
            return configured;
        }
        String value = environment.apply(MAX_LENGTH_VARIABLE);
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
        throw new IllegalArgumentException(MAX_LENGTH_VARIABLE + " must be 0 (off) or a positive number of characters; was \""
                + value + "\"");
    }
}
