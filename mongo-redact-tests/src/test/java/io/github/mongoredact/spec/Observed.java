package io.github.mongoredact.spec;

import com.mongodb.event.CommandEvent;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one client entity observed: the command events our {@code RedactingCommandListener} forwarded to a capturing
 * downstream listener, and the lines our {@code CommandLogSink} wrote, mapped to the specification's structured log fields.
 */
final class Observed implements CommandListener {
    private static final Pattern MESSAGE = Pattern.compile("^Command \"[^\"]*\" (started|succeeded|failed) ");

    /** The forwarded events, in order. */
    final List<CommandEvent> events = new CopyOnWriteArrayList<>();

    @Override
    public void commandStarted(final CommandStartedEvent event) {
        events.add(event);
    }

    @Override
    public void commandSucceeded(final CommandSucceededEvent event) {
        events.add(event);
    }

    @Override
    public void commandFailed(final CommandFailedEvent event) {
        events.add(event);
    }

    /** @return the spec's name of the event type */
    static String typeOf(final CommandEvent event) {
        if (event instanceof CommandStartedEvent) {
            return "commandStartedEvent";
        }
        return event instanceof CommandSucceededEvent ? "commandSucceededEvent" : "commandFailedEvent";
    }

    /** A captured log line as the specification describes a log message. */
    static final class LogMessage {
        final String level;
        final String component;
        final BsonDocument data;
        @Nullable
        final Throwable cause;

        LogMessage(final String level, final String component, final BsonDocument data, @Nullable final Throwable cause) {
            this.level = level;
            this.component = component;
            this.data = data;
            this.cause = cause;
        }

        @Override
        public String toString() {
            return level + " " + component + " " + data.toJson();
        }
    }

    /**
     * The spec's view of a line of our sink: {@code message} is "Command started|succeeded|failed" (from the driver's text the
     * sink writes), every key-value pair becomes a data field (numbers keep their Java type: int, long, double).
     */
    static LogMessage toSpec(final LogCapture.Line line) {
        BsonDocument data = new BsonDocument();
        Matcher matcher = MESSAGE.matcher(line.message);
        data.put("message", new BsonString(matcher.find() ? "Command " + matcher.group(1) : line.message));
        for (int i = 0; i + 1 < line.keyValues.size(); i += 2) {
            data.put((String) line.keyValues.get(i), toBson(line.keyValues.get(i + 1)));
        }
        return new LogMessage(line.level.name().toLowerCase(Locale.ROOT), "command", data, line.cause);
    }

    static List<LogMessage> toSpec(final List<LogCapture.Line> lines) {
        List<LogMessage> messages = new ArrayList<>();
        for (LogCapture.Line line : lines) {
            messages.add(toSpec(line));
        }
        return messages;
    }

    private static BsonValue toBson(final Object value) {
        if (value instanceof Integer) {
            return new BsonInt32((Integer) value);
        }
        if (value instanceof Long) {
            return new BsonInt64((Long) value);
        }
        if (value instanceof Double) {
            return new BsonDouble((Double) value);
        }
        return new BsonString(String.valueOf(value));
    }
}
