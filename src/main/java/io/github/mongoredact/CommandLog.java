package io.github.mongoredact;

import com.mongodb.lang.Nullable;

import java.util.List;

/**
 * Where a {@link CommandLogSink} writes: SLF4J when it is on the class path ({@link Slf4jCommandLog}, the only class that names
 * SLF4J, loaded only then), otherwise nowhere. Thread-safe.
 */
interface CommandLog {

    /** A log that is always off. */
    CommandLog OFF = new CommandLog() {
        @Override
        public boolean isEnabled(final CommandLogSink.Level level) {
            return false;
        }

        @Override
        public void log(final CommandLogSink.Level level, final String message, final List<Object> keyValues,
                        @Nullable final Throwable cause) {
        }
    };

    /** @return whether a line at the level would be written; cheap */
    boolean isEnabled(CommandLogSink.Level level);

    /**
     * @param level the level
     * @param message the finished message, written as is (not a pattern)
     * @param keyValues alternating keys ({@link String}) and non-null values
     * @param cause the throwable to attach, or null
     */
    void log(CommandLogSink.Level level, String message, List<Object> keyValues, @Nullable Throwable cause);

    /**
     * @param name the logger name
     * @return the SLF4J log of that name, or {@link #OFF} after one warning through {@code java.util.logging} when SLF4J is not
     *         on the class path
     */
    static CommandLog create(final String name) {
        if (Slf4jPresence.PRESENT) {
            return new Slf4jCommandLog(name);
        }
        Slf4jPresence.warnOnce(name);
        return OFF;
    }

    /** Whether SLF4J can be loaded, found once. */
    final class Slf4jPresence {
        static final boolean PRESENT = isPresent();
        private static volatile boolean warned;

        private Slf4jPresence() {
        }

        private static boolean isPresent() {
            try {
                Class.forName("org.slf4j.Logger", false, CommandLog.class.getClassLoader());
                Class.forName("org.slf4j.spi.LoggingEventBuilder", false, CommandLog.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }

        static synchronized void warnOnce(final String name) {
            if (!warned) {
                warned = true;
                java.util.logging.Logger.getLogger(name).warning("SLF4J 2 (org.slf4j:slf4j-api) was not found on the class path:"
                        + " the mongo-redact command log is off");
            }
        }
    }
}
