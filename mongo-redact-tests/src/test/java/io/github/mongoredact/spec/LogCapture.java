package io.github.mongoredact.spec;

import com.mongodb.LoggerSettings;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.log.CommandLogSink;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link CommandLogSink} whose lines are captured as structured records: the level, the message text, the key-value pairs
 * and the attached throwable exactly as the sink hands them to SLF4J. It uses the sink builder's test hook
 * {@code Builder.log(CommandLog)} (package-private, so reached here by reflection) with a proxy of the package-private
 * {@code CommandLog} interface; the proxy is enabled at every level, as a logger configured at debug for the command component.
 */
final class LogCapture {
    private static final Class<?> COMMAND_LOG;
    private static final Method BUILDER_LOG;

    static {
        try {
            COMMAND_LOG = Class.forName("io.github.mongoredact.log.CommandLog");
            BUILDER_LOG = CommandLogSink.Builder.class.getDeclaredMethod("log", COMMAND_LOG);
            BUILDER_LOG.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** One captured line. */
    static final class Line {
        final CommandLogSink.Level level;
        final String message;
        final List<Object> keyValues;
        @Nullable
        final Throwable cause;

        Line(final CommandLogSink.Level level, final String message, final List<Object> keyValues,
             @Nullable final Throwable cause) {
            this.level = level;
            this.message = message;
            this.keyValues = List.copyOf(keyValues);
            this.cause = cause;
        }
    }

    final List<Line> lines = new CopyOnWriteArrayList<>();
    final CommandLogSink sink;

    LogCapture(final int maxDocumentLength) {
        this(LoggerSettings.builder().maxDocumentLength(maxDocumentLength).build());
    }

    LogCapture(final LoggerSettings settings) {
        Object log = Proxy.newProxyInstance(COMMAND_LOG.getClassLoader(), new Class<?>[]{COMMAND_LOG}, (proxy, method, args) -> {
            switch (method.getName()) {
                case "isEnabled":
                case "keepsKeyValuePairsApart": // the spec's structured log messages are read from the key-value pairs
                    return true;
                case "log":
                    @SuppressWarnings("unchecked")
                    List<Object> keyValues = (List<Object>) args[2];
                    lines.add(new Line((CommandLogSink.Level) args[0], (String) args[1], keyValues, (Throwable) args[3]));
                    return null;
                case "toString":
                    return "LogCapture";
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "equals":
                    return proxy == args[0];
                default:
                    throw new UnsupportedOperationException(method.toString());
            }
        });
        CommandLogSink.Builder builder = CommandLogSink.builder().loggerSettings(settings);
        try {
            BUILDER_LOG.invoke(builder, log);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("CommandLogSink.Builder.log(CommandLog) is not reachable", e);
        }
        sink = builder.build();
    }
}
