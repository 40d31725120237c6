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
    private final Logger logger;

    Slf4jCommandLog(final String name) {
        this.logger = LoggerFactory.getLogger(name);
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
        return "Slf4jCommandLog{" + logger.getName() + "}";
    }
}
