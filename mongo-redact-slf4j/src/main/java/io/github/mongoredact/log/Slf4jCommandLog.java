package io.github.mongoredact.log;

import com.mongodb.lang.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

import java.util.List;

/**
 * The {@link CommandLog} on SLF4J 2: the message as written, the structured fields as key-value pairs. The only class of the
 * log sink that names SLF4J; it is loaded only when SLF4J 2 is visible to this library (class path or module path).
 */
final class Slf4jCommandLog implements CommandLog {
    /**
     * The SLF4J back ends, by their {@code ILoggerFactory}, that hand key-value pairs to their layouts as fields of their own:
     * Logback (the event's key-value list: {@code %kvp}, JSON encoders, Spring Boot's structured logging) and Log4j 2 (the
     * context map of the event: {@code %X}, JSON Template Layout). Every other back end gets them through SLF4J's fallback,
     * which writes them into the message, before it (slf4j-simple, JBoss LogManager, java.util.logging, reload4j).
     */
    private static final String[] KEEP_KEY_VALUE_PAIRS_APART = {
        "ch.qos.logback.classic.LoggerContext",
        "org.apache.logging.slf4j.Log4jLoggerFactory"
    };

    private final Logger logger;
    private final boolean keyValuePairsApart;

    Slf4jCommandLog(final String name) {
        this.logger = LoggerFactory.getLogger(name);
        this.keyValuePairsApart = keepsKeyValuePairsApart(LoggerFactory.getILoggerFactory().getClass().getName());
    }

    /**
     * @param loggerFactory the class name of SLF4J's {@code ILoggerFactory}
     * @return whether that back end keeps key-value pairs apart from the message
     */
    static boolean keepsKeyValuePairsApart(final String loggerFactory) {
        for (String apart : KEEP_KEY_VALUE_PAIRS_APART) {
            if (apart.equals(loggerFactory)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean keepsKeyValuePairsApart() {
        return keyValuePairsApart;
    }

    @Override
    public boolean isEnabled(final CommandLogSink.Level level) {
        switch (level) {
            case TRACE:
                return logger.isTraceEnabled();
            case DEBUG:
                return logger.isDebugEnabled();
            case INFO:
                return logger.isInfoEnabled();
            case WARN:
                return logger.isWarnEnabled();
            default:
                return logger.isErrorEnabled();
        }
    }

    @Override
    public void log(final CommandLogSink.Level level, final String message, final List<Object> keyValues,
                    @Nullable final Throwable cause) {
        LoggingEventBuilder builder = logger.atLevel(toSlf4j(level)).setMessage(message);
        for (int i = 0; i + 1 < keyValues.size(); i += 2) {
            builder = builder.addKeyValue((String) keyValues.get(i), keyValues.get(i + 1));
        }
        if (cause != null) {
            builder = builder.setCause(cause);
        }
        builder.log();
    }

    private static org.slf4j.event.Level toSlf4j(final CommandLogSink.Level level) {
        switch (level) {
            case TRACE:
                return org.slf4j.event.Level.TRACE;
            case DEBUG:
                return org.slf4j.event.Level.DEBUG;
            case INFO:
                return org.slf4j.event.Level.INFO;
            case WARN:
                return org.slf4j.event.Level.WARN;
            default:
                return org.slf4j.event.Level.ERROR;
        }
    }

    @Override
    public String toString() {
        return "Slf4jCommandLog{" + logger.getName() + ", keyValuePairsApart=" + keyValuePairsApart + "}";
    }
}
