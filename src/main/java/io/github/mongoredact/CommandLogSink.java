package io.github.mongoredact;

import com.mongodb.LoggerSettings;
import com.mongodb.MongoClientSettings;
import com.mongodb.ServerAddress;
import com.mongodb.connection.ConnectionDescription;
import com.mongodb.connection.ConnectionId;
import io.github.mongoredact.internal.DriverApi;
import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import org.bson.types.ObjectId;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * A {@link CommandSink} that logs the redacted commands and replies in the driver's own command log format, through SLF4J.
 *
 * <pre>{@code
 * RedactingCommandListener listener = RedactingCommandListener.builder()
 *         .addListener(CommandLogSink.builder().loggerSettings(settings).build())
 *         .build();
 * }</pre>
 *
 * <p>Each line has the driver's message text, word for word ({@code Command "find" started on database "test" using a
 * connection with driver-generated ID 3 and server-generated ID 12 to localhost:27017. The request ID is 9 and the operation
 * ID is 7. Command: {...}}, its siblings for success and failure, optional parts dropped when absent), and the same data as
 * SLF4J key-value pairs named as the specification's structured fields ({@code commandName}, {@code databaseName},
 * {@code requestId}, {@code operationId}, {@code driverConnectionId}, {@code serverConnectionId}, {@code serverHost},
 * {@code serverPort}, {@code serviceId}, {@code durationMS}, {@code command}, {@code reply}, {@code failure}), plus
 * {@code queryShapeHash} (the query-shape fingerprint, 16 hex digits) and, for errors, {@code errorCode} and
 * {@code errorCodeName}. A reply that reports {@code writeErrors} or {@code writeConcernError} under {@code ok: 1} is logged
 * as an error: at {@link Builder#errorLevel(Level)}, with its code.</p>
 *
 * <p>Documents are relaxed extended JSON cut at {@link LoggerSettings#getMaxDocumentLength()} characters with {@code " ..."}
 * appended, in time proportional to that limit. Nothing is rendered, and no document is copied for this sink, when its level is
 * off.</p>
 *
 * <p>In {@linkplain Builder#onlySlowOrFailed(long, TimeUnit) slow-or-failed mode}, nothing is written at the start; at the
 * completion of a command that failed, reported an error, or ran at least as long as the threshold, the started line (with the
 * command) and the completion line are written together. The command comes from the owned copy the listener keeps with the
 * started command until its completion, in its bounded in-flight table.</p>
 *
 * <p>SLF4J is optional: without SLF4J 2 on the class path this sink is off, after one warning through
 * {@code java.util.logging}, as the driver is.</p>
 *
 * <p>Threading: thread-safe and immutable; called on the driver's threads. Rendering and logging run on the calling thread;
 * wrap the sink in a {@link HandOffSink} to move them off it.</p>
 *
 * @since 0.1
 */
public final class CommandLogSink implements CommandSink {
    /** The default logger name: apart from the driver's {@code org.mongodb.driver.protocol.command}. */
    public static final String DEFAULT_LOGGER_NAME = "io.github.mongoredact.command";

    private final String loggerName;
    private final LoggerSettings loggerSettings;
    private final int maxDocumentLength;
    private final Level level;
    private final Level errorLevel;
    private final long slowThresholdNanos;
    private final CommandLog log;

    private CommandLogSink(final Builder builder) {
        this.loggerName = builder.loggerName;
        this.loggerSettings = builder.loggerSettings;
        this.maxDocumentLength = loggerSettings.getMaxDocumentLength();
        this.level = builder.level;
        this.errorLevel = builder.errorLevel == null ? builder.level : builder.errorLevel;
        this.slowThresholdNanos = builder.slowThresholdNanos;
        this.log = builder.log == null ? CommandLog.create(loggerName) : builder.log;
    }

    /**
     * @return a new builder
     * @since 0.1
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return true only when a line may be written: its logger is enabled at the level (or at the error level)
     * @since 0.1
     */
    @Override
    public boolean needsDocuments() {
        return log.isEnabled(level) || (errorLevel != level && log.isEnabled(errorLevel));
    }

    @Override
    public void started(final StartedCommand command) {
        if (slowThresholdNanos >= 0 || !log.isEnabled(level)) {
            return;
        }
        logStarted(level, command);
    }

    @Override
    public void completed(final CompletedCommand command) {
        Level lineLevel = command.hasError() ? errorLevel : level;
        if (!log.isEnabled(lineLevel)) {
            return;
        }
        if (slowThresholdNanos >= 0) {
            if (!command.hasError() && command.getElapsedNanos() < slowThresholdNanos) {
                return;
            }
            logStarted(lineLevel, command.getStarted());
        }
        StartedCommand started = command.getStarted();
        String duration = String.valueOf(command.getElapsedNanos() / 1_000_000.0);
        StringBuilder message = new StringBuilder(128 + (maxDocumentLength == 0 ? 256 : maxDocumentLength));
        List<Object> keyValues = new ArrayList<>(36);
        message.append("Command \"").append(started.getCommandName()).append("\" ")
                .append(command.isSucceeded() ? "succeeded" : "failed")
                .append(" on database \"").append(started.getDatabaseName()).append("\" in ").append(duration).append(" ms");
        connectionPart(message, started);
        keyValues(keyValues, started);
        keyValues.add("durationMS");
        keyValues.add(command.getElapsedNanos() / 1_000_000.0);
        if (command.isSucceeded()) {
            String reply = render(command.getReply());
            message.append(" Command reply: ").append(reply);
            keyValues.add("reply");
            keyValues.add(reply);
        } else {
            keyValues.add("failure");
            keyValues.add(String.valueOf(command.getFailure()));
        }
        if (command.hasError()) {
            keyValues.add("errorCode");
            keyValues.add(command.getErrorCode());
            if (command.getErrorCodeName() != null) {
                keyValues.add("errorCodeName");
                keyValues.add(command.getErrorCodeName());
            }
        }
        log.log(lineLevel, message.toString(), keyValues, command.getFailure());
    }

    private void logStarted(final Level lineLevel, final StartedCommand started) {
        String json = render(started.getCommand());
        StringBuilder message = new StringBuilder(160 + json.length());
        List<Object> keyValues = new ArrayList<>(28);
        message.append("Command \"").append(started.getCommandName()).append("\" started on database \"")
                .append(started.getDatabaseName()).append('"');
        connectionPart(message, started);
        message.append(" Command: ").append(json);
        keyValues(keyValues, started);
        keyValues.add("command");
        keyValues.add(json);
        log.log(lineLevel, message.toString(), keyValues, null);
    }

    /** The driver's middle part, from " using a connection" to "the operation ID is N.". */
    private static void connectionPart(final StringBuilder message, final StartedCommand started) {
        ConnectionDescription description = started.getConnectionDescription();
        ConnectionId connectionId = description.getConnectionId();
        ServerAddress address = description.getServerAddress();
        message.append(" using a connection with driver-generated ID ").append(DriverApi.localValue(connectionId));
        Long serverValue = DriverApi.serverValue(connectionId);
        if (serverValue != null) {
            message.append(" and server-generated ID ").append(serverValue.longValue());
        }
        message.append(" to ").append(address.getHost()).append(':').append(address.getPort());
        ObjectId serviceId = description.getServiceId();
        if (serviceId != null) {
            message.append(" with service ID ").append(serviceId);
        }
        message.append(". The request ID is ").append(started.getRequestId()).append(" and the operation ID is ")
                .append(started.getOperationId()).append('.');
    }

    private static void keyValues(final List<Object> keyValues, final StartedCommand started) {
        ConnectionDescription description = started.getConnectionDescription();
        ConnectionId connectionId = description.getConnectionId();
        ServerAddress address = description.getServerAddress();
        keyValues.add("commandName");
        keyValues.add(started.getCommandName());
        keyValues.add("databaseName");
        keyValues.add(started.getDatabaseName());
        keyValues.add("requestId");
        keyValues.add(started.getRequestId());
        keyValues.add("operationId");
        keyValues.add(started.getOperationId());
        keyValues.add("driverConnectionId");
        keyValues.add(DriverApi.localValue(connectionId));
        Long serverValue = DriverApi.serverValue(connectionId);
        if (serverValue != null) {
            keyValues.add("serverConnectionId");
            keyValues.add(serverValue);
        }
        keyValues.add("serverHost");
        keyValues.add(address.getHost());
        keyValues.add("serverPort");
        keyValues.add(address.getPort());
        if (description.getServiceId() != null) {
            keyValues.add("serviceId");
            keyValues.add(description.getServiceId().toHexString());
        }
        if (started.getFingerprint() != 0) {
            keyValues.add("queryShapeHash");
            keyValues.add(hex(started.getFingerprint()));
        }
    }

    private String render(@Nullable final BsonDocument document) {
        return document == null ? "{}" : TruncatedJson.render(document, maxDocumentLength);
    }

    private static String hex(final long value) {
        String digits = Long.toHexString(value);
        return "0000000000000000".substring(digits.length()) + digits;
    }

    /**
     * @return the logger name
     * @since 0.1
     */
    public String getLoggerName() {
        return loggerName;
    }

    /**
     * @return the logger settings; their {@code maxDocumentLength} bounds each rendered document
     * @since 0.1
     */
    public LoggerSettings getLoggerSettings() {
        return loggerSettings;
    }

    /**
     * @return the level of the lines
     * @since 0.1
     */
    public Level getLevel() {
        return level;
    }

    /**
     * @return the level of the lines of failed commands and of replies that report errors
     * @since 0.1
     */
    public Level getErrorLevel() {
        return errorLevel;
    }

    /**
     * @param unit the unit
     * @return the slow-or-failed threshold in the unit, or -1 when every command is logged
     * @since 0.1
     */
    public long getSlowThreshold(final TimeUnit unit) {
        return slowThresholdNanos < 0 ? -1 : unit.convert(slowThresholdNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public String toString() {
        return "CommandLogSink{loggerName=" + loggerName + ", level=" + level + ", errorLevel=" + errorLevel
                + ", maxDocumentLength=" + maxDocumentLength + ", slowThresholdNanos=" + slowThresholdNanos + "}";
    }

    /**
     * The level of a log line, mapped to the SLF4J level of the same name.
     *
     * @since 0.1
     */
    public enum Level {
        /** TRACE. */
        TRACE,
        /** DEBUG, the driver's level for its command log. */
        DEBUG,
        /** INFO. */
        INFO,
        /** WARN. */
        WARN,
        /** ERROR. */
        ERROR
    }

    /**
     * Builds a {@link CommandLogSink}. Not thread-safe.
     *
     * @since 0.1
     */
    public static final class Builder {
        private String loggerName = DEFAULT_LOGGER_NAME;
        private LoggerSettings loggerSettings = LoggerSettings.builder().build();
        private Level level = Level.DEBUG;
        @Nullable
        private Level errorLevel;
        private long slowThresholdNanos = -1;
        @Nullable
        private CommandLog log;

        private Builder() {
        }

        /**
         * @param loggerName the SLF4J logger name; {@value CommandLogSink#DEFAULT_LOGGER_NAME} if not set
         * @return this
         * @since 0.1
         */
        public Builder loggerName(final String loggerName) {
            this.loggerName = notNull("loggerName", loggerName);
            return this;
        }

        /**
         * @param loggerSettings the settings whose {@code maxDocumentLength} (default 1000) bounds each rendered document
         * @return this
         * @since 0.1
         */
        public Builder loggerSettings(final LoggerSettings loggerSettings) {
            this.loggerSettings = notNull("loggerSettings", loggerSettings);
            return this;
        }

        /**
         * Takes the logger settings of the client's settings, so that this log cuts documents where the driver's does.
         *
         * @param clientSettings the client's settings
         * @return this
         * @since 0.1
         */
        public Builder loggerSettings(final MongoClientSettings clientSettings) {
            return loggerSettings(notNull("clientSettings", clientSettings).getLoggerSettings());
        }

        /**
         * @param level the level of the lines; {@link Level#DEBUG} (the driver's) if not set
         * @return this
         * @since 0.1
         */
        public Builder level(final Level level) {
            this.level = notNull("level", level);
            return this;
        }

        /**
         * @param errorLevel the level of the lines of failed commands and of replies that report write errors or a write concern
         *                   error under {@code ok: 1}; the {@linkplain #level(Level) level} if not set
         * @return this
         * @since 0.1
         */
        public Builder errorLevel(final Level errorLevel) {
            this.errorLevel = notNull("errorLevel", errorLevel);
            return this;
        }

        /**
         * Logs only commands that failed, reported an error under {@code ok: 1}, or ran at least {@code threshold}: their
         * started line (with the command) and completion line are written together at the completion.
         *
         * @param threshold the threshold, 0 or more (0 logs every completed command at its completion)
         * @param unit the unit of the threshold
         * @return this
         * @since 0.1
         */
        public Builder onlySlowOrFailed(final long threshold, final TimeUnit unit) {
            if (threshold < 0) {
                throw new IllegalArgumentException("threshold must be 0 or more, was " + threshold);
            }
            this.slowThresholdNanos = notNull("unit", unit).toNanos(threshold);
            return this;
        }

        /** For tests: the log to write to. */
        Builder log(final CommandLog log) {
            this.log = notNull("log", log);
            return this;
        }

        /**
         * @return the sink
         * @since 0.1
         */
        public CommandLogSink build() {
            return new CommandLogSink(this);
        }
    }
}
