package io.github.mongoredact.log;

import com.mongodb.LoggerSettings;
import com.mongodb.MongoClientSettings;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.CallbackGuard;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.StartedCommand;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * A {@link CommandSink} that logs the redacted commands and replies in the driver's own command log format, through SLF4J.
 *
 * <pre>{@code
 * RedactingCommandListener listener = RedactingCommandListener.builder()
 *         .addSink(CommandLogSink.builder().loggerSettings(settings).build())
 *         .build();
 * }</pre>
 *
 * <p>Each line has the driver's message text, word for word ({@code Command "find" started on database "test" using a
 * connection with driver-generated ID 3 and server-generated ID 12 to localhost:27017. The request ID is 9 and the operation
 * ID is 7. Command: {...}}, its siblings for success and failure, optional parts dropped when absent), and, where the SLF4J
 * back end keeps them apart from the message ({@link Builder#keyValuePairs(boolean)}), the same data as SLF4J key-value
 * pairs named as the specification's structured fields ({@code commandName}, {@code databaseName}, {@code requestId},
 * {@code operationId}, {@code driverConnectionId}, {@code serverConnectionId}, {@code serverHost}, {@code serverPort},
 * {@code serviceId}, {@code durationMS}, {@code command}, {@code reply}, {@code failure}), plus {@code fingerprint} (this
 * library's query fingerprint, {@link StartedCommand#getFingerprintHex()}: 16 lower-case hex digits, on every line of a
 * command), on a started line MongoDB's own {@code queryShapeHash} and {@code queryShape} where the listener gives them
 * ({@link StartedCommand#getQueryShapeHash()}: 64 upper-case hex digits, the value MongoDB 8.0 and later report for the same
 * find, aggregate and distinct, and 8.1 and later for count; {@link StartedCommand#getQueryShape()}: the debug shape, cut
 * as a document is), and, for errors, {@code errorCode} and {@code errorCodeName}. Before 0.6 the fingerprint was written
 * under the server's key {@code queryShapeHash}. A reply that reports
 * {@code writeErrors} or {@code writeConcernError} under {@code ok: 1} is logged as an error: at
 * {@link Builder#errorLevel(Level)}, with its code.</p>
 *
 * <p>Documents are relaxed extended JSON cut at {@link LoggerSettings#getMaxDocumentLength()} characters with {@code " ..."}
 * appended when longer (a document of exactly that length is shown whole), in time and memory proportional to that limit
 * whatever the document's size or depth. A failure's text (the {@code failure} field, and the attached throwable's and its
 * causes' texts, which may hold the server's whole response) is cut the same way. Nothing is rendered, and no document is
 * copied for this sink, when its level is off.</p>
 *
 * <p>In {@linkplain Builder#onlySlowOrFailed(long, TimeUnit) slow-or-failed mode}, nothing is written at the start; at the
 * completion of a command that failed, reported an error, or ran at least as long as the threshold, the started line (with the
 * command) and the completion line are written together. The command comes from the owned copy the listener keeps with the
 * started command until its completion, in its bounded in-flight table.</p>
 *
 * <p>SLF4J is optional: when SLF4J 2 is not visible to this library (neither on the class path nor resolved on the module
 * path) this sink is off, after one warning through {@code java.util.logging}, as the driver is.</p>
 *
 * <p>It never throws into its caller: whatever fails while a line is made or written (a corrupt document, a logging backend
 * that throws, even an {@link Error}) is caught, counted ({@link #getFailures()}) and reported through {@code System.Logger}
 * (a warning the first time, then at debug level); a document that cannot be read is shown as
 * {@code {"$renderError": "<exception class>"}}.</p>
 *
 * <p>Threading: thread-safe; called on the driver's threads. Rendering and logging run on the calling thread;
 * wrap the sink in a {@link io.github.mongoredact.handoff.HandOffSink} to move them off it.</p>
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
    private final boolean keyValuePairs;
    private final CommandLogLines lines;
    private final LongAdder failures = new LongAdder();
    private final CallbackGuard guard = new CallbackGuard(CommandLogSink.class);

    private CommandLogSink(final Builder builder) {
        this.loggerName = builder.loggerName;
        this.loggerSettings = builder.loggerSettings;
        this.maxDocumentLength = loggerSettings.getMaxDocumentLength();
        this.level = builder.level;
        this.errorLevel = builder.errorLevel == null ? builder.level : builder.errorLevel;
        this.slowThresholdNanos = builder.slowThresholdNanos;
        this.log = builder.log == null ? CommandLog.create(loggerName) : builder.log;
        this.keyValuePairs = builder.keyValuePairs == null ? log.keepsKeyValuePairsApart() : builder.keyValuePairs;
        this.lines = new CommandLogLines(maxDocumentLength, keyValuePairs, (e, document) -> failed(e, document, true));
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

    /**
     * @return as {@link #needsDocuments()}: a line that is written carries the fingerprint ({@code fingerprint})
     * @since 0.2
     */
    @Override
    public boolean needsFingerprint() {
        return needsDocuments();
    }

    /**
     * @return as {@link #needsDocuments()} where the lines carry key-value pairs ({@link #isKeyValuePairs()}): a started line
     *         that is written carries the server's query shape ({@code queryShapeHash}, {@code queryShape}); a line without
     *         key-value pairs shows neither, so then false
     * @since 0.6
     */
    @Override
    public boolean needsQueryShape() {
        return keyValuePairs && needsDocuments();
    }

    /**
     * @return false: the lines do not carry the command's size
     * @since 0.7
     */
    @Override
    public boolean needsCommandSize() {
        return false;
    }

    @Override
    public void started(final StartedCommand command) {
        try {
            if (slowThresholdNanos >= 0 || !log.isEnabled(level)) {
                return;
            }
            logStarted(level, command);
        } catch (Throwable t) {
            failed(t, command, false);
        }
    }

    @Override
    public void completed(final CompletedCommand command) {
        try {
            logCompleted(command);
        } catch (Throwable t) {
            failed(t, command, false);
        }
    }

    /**
     * Counts and reports a failure instead of throwing it into the driver: a log line is never worth the application's
     * operation. Errors too: a {@link LinkageError} (a logging backend that does not match), an {@link OutOfMemoryError}
     * (rendering is bounded by maxDocumentLength, so this one came from a heap that was full anyway: the line is dropped and
     * the application goes on). Only {@link ThreadDeath} goes on up: it is the application stopping its own thread. The
     * report of a document that could not be read names the exception's class only: its message may quote the document.
     */
    private void failed(final Throwable t, final Object subject, final boolean fromDocument) {
        CallbackGuard.rethrowIfStopRequest(t);
        failures.increment();
        try {
            guard.log("CommandLogSink " + loggerName + (fromDocument ? " could not read a document and"
                    + " showed it as $renderError" : " failed to log a command and dropped the line") + " (counted in"
                    + " getFailures()): " + (fromDocument ? t.getClass().getName() : t.toString()) + " while logging a "
                    + subject.getClass().getSimpleName(), fromDocument ? null : t);
        } catch (Throwable ignored) {
            CallbackGuard.rethrowIfStopRequest(ignored);
            // the report itself failed (the same full heap, say): counted above, nothing more to do
        }
    }

    private void logCompleted(final CompletedCommand command) {
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
        LogLine line = lines.completed(command);
        Throwable failure = command.getFailure();
        log.log(lineLevel, line.message(), line.keyValues(),
                failure == null ? null : CommandLog.CutFailure.of(failure, maxDocumentLength));
    }

    private void logStarted(final Level lineLevel, final StartedCommand started) {
        LogLine line = lines.started(started);
        log.log(lineLevel, line.message(), line.keyValues(), null);
    }

    /**
     * @return how many times making or writing a line failed (a document that could not be read, a backend that threw);
     *         each was caught, never thrown into the driver
     * @since 0.1
     */
    public long getFailures() {
        return failures.sum();
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
     * @return whether each line carries the structured fields as SLF4J key-value pairs besides its message: as set with
     *         {@link Builder#keyValuePairs(boolean)}, or as detected when the sink was built
     * @since 0.2
     */
    public boolean isKeyValuePairs() {
        return keyValuePairs;
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
                + ", maxDocumentLength=" + maxDocumentLength + ", slowThresholdNanos=" + slowThresholdNanos
                + ", keyValuePairs=" + keyValuePairs + "}";
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
        private Boolean keyValuePairs;
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

        /**
         * Whether each line carries the structured fields as SLF4J key-value pairs besides its message. When not set, this is
         * found once, when the sink is built, from the SLF4J back end: true for Logback and Log4j 2, which keep key-value
         * pairs apart from the message (a structured layout such as JSON, ECS or Logstash writes them as fields; a pattern
         * layout shows them only where it names them: Logback's {@code %kvp}, Log4j's {@code %X}); false for every other
         * back end (slf4j-simple, JBoss LogManager, java.util.logging), which writes them into the line before the message,
         * so that the command or reply would be written twice. Without them a line is the message alone, so the fields that
         * the driver's message does not show ({@code fingerprint}, {@code queryShapeHash}, {@code queryShape},
         * {@code errorCode}, {@code errorCodeName}) are not written, and the sink does not ask for the query shape.
         *
         * @param keyValuePairs true to add the key-value pairs whatever the back end, false to write the message alone
         * @return this
         * @since 0.2
         */
        public Builder keyValuePairs(final boolean keyValuePairs) {
            this.keyValuePairs = keyValuePairs;
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
