package io.github.mongoredact;

import org.bson.BsonDocument;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriter;
import org.bson.json.JsonWriterSettings;

import java.io.StringWriter;

/** The driver's way of cutting a document for its command log, and where the characters of a JSON text begin. */
public final class Json {
    private Json() {
    }

    /** @return the driver's text: a relaxed {@link JsonWriter} with a maximum length, {@code " ..."} appended when cut */
    public static String driverLog(final BsonDocument document, final int maxLength) {
        StringWriter out = new StringWriter();
        JsonWriter writer = new JsonWriter(out, JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).maxLength(maxLength)
                .build());
        writer.pipe(document.asBsonReader());
        return writer.isTruncated() ? out + " ..." : out.toString();
    }

    /** @return the whole relaxed JSON text */
    public static String whole(final BsonDocument document) {
        return driverLog(document, 0);
    }

    /**
     * @return the longest prefix of the JSON text {@code json} of at most {@code max} characters that ends between two
     *         characters: not inside an escape ({@code \"}, {@code \\ud83d}) nor between the two escapes or the two chars of a
     *         surrogate pair
     */
    public static String wholeCharacters(final String json, final int max) {
        int boundary = 0;
        int i = 0;
        while (i < json.length()) {
            int unit;
            char c = json.charAt(i);
            if (c == '\\') {
                if (json.charAt(i + 1) == 'u') {
                    unit = 6;
                    char escaped = (char) Integer.parseInt(json.substring(i + 2, i + 6), 16);
                    if (Character.isHighSurrogate(escaped) && json.startsWith("\\u", i + 6)) {
                        unit = 12;
                    }
                } else {
                    unit = 2;
                }
            } else {
                unit = Character.isHighSurrogate(c) ? 2 : 1;
            }
            if (i + unit > max) {
                break;
            }
            i += unit;
            boundary = i;
        }
        return json.substring(0, boundary);
    }
}
