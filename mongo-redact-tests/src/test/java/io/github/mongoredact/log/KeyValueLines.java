package io.github.mongoredact.log;

import com.mongodb.LoggerSettings;
import com.mongodb.lang.Nullable;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The lines a {@link CommandLogSink} writes, kept with their key-value pairs, for tests outside this package (the
 * deny-by-default generator): a log on at every level that keeps the pairs apart, as Logback and Log4j 2 do, with documents
 * uncut, so that every value a line carries can be searched. Each line is labelled when written, by its command's name.
 */
public final class KeyValueLines implements CommandLog {
    /** One line: its label, its message, its key-value pairs in order. */
    public static final class Line {
        /** The label the line was given when written. */
        public final String label;
        /** The message, as the driver's log writes it. */
        public final String message;
        /** The key-value pairs, in order. */
        public final Map<String, Object> fields;

        Line(final String label, final String message, final List<Object> keyValues) {
            this.label = label;
            this.message = message;
            Map<String, Object> pairs = new LinkedHashMap<>();
            for (int i = 0; i + 1 < keyValues.size(); i += 2) {
                pairs.put((String) keyValues.get(i), keyValues.get(i + 1));
            }
            this.fields = Collections.unmodifiableMap(pairs);
        }

        @Override
        public String toString() {
            return label + ": " + message + " " + fields;
        }
    }

    private final Function<String, String> label;
    private final List<Line> lines = new CopyOnWriteArrayList<>();

    /** @param label the label of a line, from its command's name (the pair {@code commandName}) */
    public KeyValueLines(final Function<String, String> label) {
        this.label = label;
    }

    /** @return a sink that writes here, every field as a key-value pair, documents and the query shape uncut */
    public CommandLogSink sink() {
        return CommandLogSink.builder().log(this).keyValuePairs(true)
                .loggerSettings(LoggerSettings.builder().maxDocumentLength(0).build()).build();
    }

    /** @return the lines written so far */
    public List<Line> lines() {
        return lines;
    }

    @Override
    public boolean isEnabled(final CommandLogSink.Level level) {
        return true;
    }

    @Override
    public void log(final CommandLogSink.Level level, final String message, final List<Object> keyValues,
                    @Nullable final Throwable cause) {
        Object commandName = null;
        for (int i = 0; i + 1 < keyValues.size(); i += 2) {
            if ("commandName".equals(keyValues.get(i))) {
                commandName = keyValues.get(i + 1);
            }
        }
        lines.add(new Line(label.apply(String.valueOf(commandName)), message, keyValues));
    }
}
