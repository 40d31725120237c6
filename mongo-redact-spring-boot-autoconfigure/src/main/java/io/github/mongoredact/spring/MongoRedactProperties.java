package io.github.mongoredact.spring;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.PlaceholderStyle;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.log.CommandLogSink;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code mongo-redact.*} configuration properties of the Spring Boot auto-configuration. Every setter checks its value, so
 * that a bad value fails the application's start with Spring Boot's report naming the property.
 *
 * <p>Lifetime and threading: bound once by Spring Boot at start-up, then read; not thread-safe while it is being bound.</p>
 *
 * @since 0.1
 */
@ConfigurationProperties(prefix = "mongo-redact")
public class MongoRedactProperties {

    /** The base policy of {@code mongo-redact.policy}. */
    public enum Policy {
        /** {@link RedactionPolicy#defaults()}: shapes kept, values gone. */
        DEFAULTS,
        /** {@link RedactionPolicy#specOnly()}: only the spec's redaction of sensitive commands; everything else verbatim. */
        SPEC
    }

    /** Whether to register the redacting command listener on the auto-configured MongoDB client. */
    private boolean enabled = true;

    /** The base policy, changed by the path lists and limits below. Ignored when the application has its own RedactionPolicy bean. */
    private Policy policy = Policy.DEFAULTS;

    /** Command field paths (dotted, for all commands) whose values are kept verbatim. */
    private List<String> keep = new ArrayList<>();

    /** Command field paths whose values are replaced by placeholders. */
    private List<String> redact = new ArrayList<>();

    /** Command field paths left out altogether. */
    private List<String> drop = new ArrayList<>();

    /** Reply field paths (dotted, for the replies of all commands) whose values are kept verbatim. */
    private List<String> replyKeep = new ArrayList<>();

    /** Reply field paths whose values are replaced by placeholders. */
    private List<String> replyRedact = new ArrayList<>();

    /** Reply field paths left out altogether. */
    private List<String> replyDrop = new ArrayList<>();

    /** How a redacted value is written: typed ("?string", "?number") or fixed ("?"). */
    private PlaceholderStyle placeholderStyle = PlaceholderStyle.TYPED;

    /** How many elements of each document sequence and reply batch are shown; all when not set. */
    @Nullable
    private Integer maxSequenceDocuments;

    /** The cap on each output document's size in bytes, 0 for none; otherwise at least 64. */
    private int maxDocumentBytes;

    /** The bound of the table holding started commands until their completion. */
    private int maxInFlight = 10_000; // RedactingCommandListener.Builder.DEFAULT_MAX_IN_FLIGHT, a literal for the metadata

    /**
     * Whether command listeners that other configuration added to the client settings (the application's own, Spring Data's
     * observation listener) are moved behind the redacting listener, so that they receive only redacted, owned events.
     */
    private boolean wrapOtherListeners = true;

    private final Log log = new Log();

    private final Metrics metrics = new Metrics();

    /** @return whether to register the redacting command listener on the auto-configured MongoDB client */
    public boolean isEnabled() {
        return enabled;
    }

    /** @param enabled whether to register the redacting command listener on the auto-configured MongoDB client */
    public void setEnabled(final boolean enabled) {
        this.enabled = enabled;
    }

    /** @return the base policy, changed by the path lists and limits below */
    public Policy getPolicy() {
        return policy;
    }

    /** @param policy the base policy, changed by the path lists and limits below */
    public void setPolicy(final Policy policy) {
        this.policy = policy;
    }

    /** @return command field paths (dotted, for all commands) whose values are kept verbatim */
    public List<String> getKeep() {
        return keep;
    }

    /** @param keep command field paths (dotted, for all commands) whose values are kept verbatim */
    public void setKeep(final List<String> keep) {
        this.keep = PropertyPaths.checked(keep);
    }

    /** @return command field paths whose values are replaced by placeholders */
    public List<String> getRedact() {
        return redact;
    }

    /** @param redact command field paths whose values are replaced by placeholders */
    public void setRedact(final List<String> redact) {
        this.redact = PropertyPaths.checked(redact);
    }

    /** @return command field paths left out altogether */
    public List<String> getDrop() {
        return drop;
    }

    /** @param drop command field paths left out altogether */
    public void setDrop(final List<String> drop) {
        this.drop = PropertyPaths.checked(drop);
    }

    /** @return reply field paths (dotted, for the replies of all commands) whose values are kept verbatim */
    public List<String> getReplyKeep() {
        return replyKeep;
    }

    /** @param replyKeep reply field paths (dotted, for the replies of all commands) whose values are kept verbatim */
    public void setReplyKeep(final List<String> replyKeep) {
        this.replyKeep = PropertyPaths.checked(replyKeep);
    }

    /** @return reply field paths whose values are replaced by placeholders */
    public List<String> getReplyRedact() {
        return replyRedact;
    }

    /** @param replyRedact reply field paths whose values are replaced by placeholders */
    public void setReplyRedact(final List<String> replyRedact) {
        this.replyRedact = PropertyPaths.checked(replyRedact);
    }

    /** @return reply field paths left out altogether */
    public List<String> getReplyDrop() {
        return replyDrop;
    }

    /** @param replyDrop reply field paths left out altogether */
    public void setReplyDrop(final List<String> replyDrop) {
        this.replyDrop = PropertyPaths.checked(replyDrop);
    }

    /** @return how a redacted value is written: typed ("?string", "?number") or fixed ("?") */
    public PlaceholderStyle getPlaceholderStyle() {
        return placeholderStyle;
    }

    /** @param placeholderStyle how a redacted value is written: typed ("?string", "?number") or fixed ("?") */
    public void setPlaceholderStyle(final PlaceholderStyle placeholderStyle) {
        this.placeholderStyle = placeholderStyle;
    }

    /** @return how many elements of each document sequence and reply batch are shown; all when not set */
    @Nullable
    public Integer getMaxSequenceDocuments() {
        return maxSequenceDocuments;
    }

    /** @param maxSequenceDocuments how many elements of each document sequence and reply batch are shown; all when not set */
    public void setMaxSequenceDocuments(@Nullable final Integer maxSequenceDocuments) {
        if (maxSequenceDocuments != null && maxSequenceDocuments < 0) {
            throw new IllegalArgumentException("max-sequence-documents must be 0 or more, was " + maxSequenceDocuments);
        }
        this.maxSequenceDocuments = maxSequenceDocuments;
    }

    /** @return the cap on each output document's size in bytes, 0 for none; otherwise at least 64 */
    public int getMaxDocumentBytes() {
        return maxDocumentBytes;
    }

    /** @param maxDocumentBytes the cap on each output document's size in bytes, 0 for none; otherwise at least 64 */
    public void setMaxDocumentBytes(final int maxDocumentBytes) {
        if (maxDocumentBytes != 0 && maxDocumentBytes < RedactionPolicy.MIN_DOCUMENT_BYTES) {
            throw new IllegalArgumentException("max-document-bytes must be 0 (no cap) or at least "
                    + RedactionPolicy.MIN_DOCUMENT_BYTES + ", was " + maxDocumentBytes);
        }
        this.maxDocumentBytes = maxDocumentBytes;
    }

    /** @return the bound of the table holding started commands until their completion */
    public int getMaxInFlight() {
        return maxInFlight;
    }

    /** @param maxInFlight the bound of the table holding started commands until their completion */
    public void setMaxInFlight(final int maxInFlight) {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("max-in-flight must be 1 or more, was " + maxInFlight);
        }
        this.maxInFlight = maxInFlight;
    }

    /** @return whether listeners that other configuration added to the client settings are moved behind the redacting one */
    public boolean isWrapOtherListeners() {
        return wrapOtherListeners;
    }

    /** @param wrapOtherListeners whether other listeners on the client settings are moved behind the redacting one */
    public void setWrapOtherListeners(final boolean wrapOtherListeners) {
        this.wrapOtherListeners = wrapOtherListeners;
    }

    /** @return the {@code mongo-redact.log.*} properties */
    public Log getLog() {
        return log;
    }

    /** @return the {@code mongo-redact.metrics.*} properties */
    public Metrics getMetrics() {
        return metrics;
    }

    /** The {@code mongo-redact.log.*} properties: the SLF4J command log. */
    public static class Log {
        /** Whether to log redacted commands (at the logger's level: enable it with logging.level.io.github.mongoredact.command=debug). */
        private boolean enabled = true;

        /** The level of the command lines. */
        private CommandLogSink.Level level = CommandLogSink.Level.DEBUG;

        /** The level of the lines of failed commands and of replies reporting write errors; the level above when not set. */
        @Nullable
        private CommandLogSink.Level errorLevel;

        /** Logs only commands that failed, reported an error, or ran at least this long; every command when not set. */
        @Nullable
        private Duration onlySlowOrFailed;

        /** The SLF4J logger name. */
        private String loggerName = "io.github.mongoredact.command"; // CommandLogSink.DEFAULT_LOGGER_NAME, as a literal for the metadata

        /**
         * Whether each line carries the structured fields as SLF4J key-value pairs besides its message; when not set, true on
         * Logback and Log4j 2 (Spring Boot's structured logging writes them as fields), false on back ends that would write
         * them into the line.
         */
        @Nullable
        private Boolean keyValuePairs;

        /** @return whether to log redacted commands (at the logger's level) */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether to log redacted commands (at the logger's level) */
        public void setEnabled(final boolean enabled) {
            this.enabled = enabled;
        }

        /** @return the level of the command lines */
        public CommandLogSink.Level getLevel() {
            return level;
        }

        /** @param level the level of the command lines */
        public void setLevel(final CommandLogSink.Level level) {
            this.level = level;
        }

        /** @return the level of the lines of failed commands and of replies reporting write errors; the level above when not set */
        @Nullable
        public CommandLogSink.Level getErrorLevel() {
            return errorLevel;
        }

        /** @param errorLevel the level of the lines of failed commands and of replies reporting write errors; unset: the level above */
        public void setErrorLevel(@Nullable final CommandLogSink.Level errorLevel) {
            this.errorLevel = errorLevel;
        }

        /** @return the least duration of a logged command that neither failed nor reported an error; every command when not set */
        @Nullable
        public Duration getOnlySlowOrFailed() {
            return onlySlowOrFailed;
        }

        /** @param onlySlowOrFailed the least duration of a logged command that neither failed nor reported an error; unset: every one */
        public void setOnlySlowOrFailed(@Nullable final Duration onlySlowOrFailed) {
            if (onlySlowOrFailed != null && onlySlowOrFailed.isNegative()) {
                throw new IllegalArgumentException("only-slow-or-failed must be 0 or more, was " + onlySlowOrFailed);
            }
            this.onlySlowOrFailed = onlySlowOrFailed;
        }

        /** @return the SLF4J logger name */
        public String getLoggerName() {
            return loggerName;
        }

        /** @return whether lines carry their fields as SLF4J key-value pairs; unset: true on Logback and Log4j 2 */
        @Nullable
        public Boolean getKeyValuePairs() {
            return keyValuePairs;
        }

        /** @param keyValuePairs whether lines carry their fields as SLF4J key-value pairs; unset: true on Logback and Log4j 2 */
        public void setKeyValuePairs(@Nullable final Boolean keyValuePairs) {
            this.keyValuePairs = keyValuePairs;
        }

        /** @param loggerName the SLF4J logger name */
        public void setLoggerName(final String loggerName) {
            if (loggerName == null || loggerName.isBlank()) {
                throw new IllegalArgumentException("logger-name must not be blank, was '" + loggerName + "'");
            }
            this.loggerName = loggerName;
        }
    }

    /** The {@code mongo-redact.metrics.*} properties: the Micrometer sink, used when a MeterRegistry bean exists. */
    public static class Metrics {
        /** Whether to record mongodb.driver.commands and the listener's counters in the application's MeterRegistry. */
        private boolean enabled = true;

        /** Whether to add this library's query fingerprint as a "command.fingerprint" tag (at most 1000 values, then "other"). */
        private boolean fingerprintTag;

        /** Whether to add MongoDB's own queryShapeHash as a "query.shape.hash" tag (at most 1000, then "other"; "none" without). */
        private boolean queryShapeHashTag;

        /** Whether a reply reporting write errors or a write concern error under ok: 1 counts as FAILED. */
        private boolean writeErrorsAsFailures = true;

        /** Whether to record the sizes of commands and replies (mongodb.driver.commands.command.size, .reply.size). */
        private boolean sizeSummaries;

        /**
         * Whether Micrometer's own MongoMetricsCommandListener, which Spring Boot Actuator registers and which records the same
         * meters, is taken off the client while this library records them, so that each command is counted once.
         */
        private boolean replaceMicrometerListener = true;

        /** @return whether to record mongodb.driver.commands and the listener's counters in the application's MeterRegistry */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled whether to record mongodb.driver.commands and the listener's counters in the application's MeterRegistry */
        public void setEnabled(final boolean enabled) {
            this.enabled = enabled;
        }

        /** @return whether to add this library's query fingerprint as a "command.fingerprint" tag (bounded number of values) */
        public boolean isFingerprintTag() {
            return fingerprintTag;
        }

        /** @param fingerprintTag whether to add this library's query fingerprint as a "command.fingerprint" tag (bounded) */
        public void setFingerprintTag(final boolean fingerprintTag) {
            this.fingerprintTag = fingerprintTag;
        }

        /** @return whether to add MongoDB's query shape hash as a "query.shape.hash" tag (bounded number of values) */
        public boolean isQueryShapeHashTag() {
            return queryShapeHashTag;
        }

        /** @param queryShapeHashTag whether to add MongoDB's query shape hash as a "query.shape.hash" tag (bounded) */
        public void setQueryShapeHashTag(final boolean queryShapeHashTag) {
            this.queryShapeHashTag = queryShapeHashTag;
        }

        /** @return whether a reply reporting write errors or a write concern error under ok: 1 counts as FAILED */
        public boolean isWriteErrorsAsFailures() {
            return writeErrorsAsFailures;
        }

        /** @param writeErrorsAsFailures whether a reply reporting write errors or a write concern error under ok: 1 counts as FAILED */
        public void setWriteErrorsAsFailures(final boolean writeErrorsAsFailures) {
            this.writeErrorsAsFailures = writeErrorsAsFailures;
        }

        /** @return whether to record the sizes of commands and replies (mongodb.driver.commands.command.size, .reply.size) */
        public boolean isSizeSummaries() {
            return sizeSummaries;
        }

        /** @param sizeSummaries whether to record the sizes of commands and replies (the two distribution summaries) */
        public void setSizeSummaries(final boolean sizeSummaries) {
            this.sizeSummaries = sizeSummaries;
        }

        /** @return whether Micrometer's MongoMetricsCommandListener is taken off the client */
        public boolean isReplaceMicrometerListener() {
            return replaceMicrometerListener;
        }

        /** @param replaceMicrometerListener whether Micrometer's MongoMetricsCommandListener is taken off the client */
        public void setReplaceMicrometerListener(final boolean replaceMicrometerListener) {
            this.replaceMicrometerListener = replaceMicrometerListener;
        }
    }
}
