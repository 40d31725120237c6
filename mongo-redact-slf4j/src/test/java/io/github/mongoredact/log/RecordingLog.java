package io.github.mongoredact.log;

import com.mongodb.lang.Nullable;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link CommandLog} on at every level that keeps each line's structured form, as the spec's prose tests read it. */
final class RecordingLog implements CommandLog {
    final List<Line> lines = new CopyOnWriteArrayList<>();

    /** One line: its message, its key-value pairs in order, its attached throwable. */
    static final class Line {
        final String message;
        final Map<String, Object> fields = new LinkedHashMap<>();
        @Nullable
        final Throwable cause;

        Line(final String message, final List<Object> keyValues, @Nullable final Throwable cause) {
            this.message = message;
            for (int i = 0; i + 1 < keyValues.size(); i += 2) {
                fields.put((String) keyValues.get(i), keyValues.get(i + 1));
            }
            this.cause = cause;
        }

        String field(final String name) {
            return String.valueOf(fields.get(name));
        }

        @Override
        public String toString() {
            return message + " " + fields;
        }
    }

    @Override
    public boolean isEnabled(final CommandLogSink.Level level) {
        return true;
    }

    @Override
    public void log(final CommandLogSink.Level level, final String message, final List<Object> keyValues,
                    @Nullable final Throwable cause) {
        lines.add(new Line(message, keyValues, cause));
    }

    /** @return the lines whose message starts so */
    List<Line> startingWith(final String prefix) {
        List<Line> found = new java.util.ArrayList<>();
        for (Line line : lines) {
            if (line.message.startsWith(prefix)) {
                found.add(line);
            }
        }
        return found;
    }
}
