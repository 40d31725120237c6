package io.github.mongoredact.log;

import com.mongodb.lang.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a {@link CommandLogSink} writes: SLF4J when this library's class loader can see it ({@link Slf4jCommandLog}, the only
 * class that names SLF4J, loaded only then), otherwise nowhere; and what its lines carry besides the documents
 * ({@link CutFailure}). Thread-safe.
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

        @Override
        public boolean keepsKeyValuePairsApart() {
            return false;
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
     * Whether the back end keeps key-value pairs apart from the message, so that a line may carry both without writing the
     * same text twice. Asked once, when a sink is built.
     *
     * @return true where the key-value pairs reach the back end as fields of their own
     */
    default boolean keepsKeyValuePairsApart() {
        return true;
    }

    /**
     * @param name the logger name
     * @return the SLF4J log of that name, or {@link #OFF} after one warning through {@code System.Logger} when SLF4J 2 is
     *         not visible to this library
     */
    static CommandLog create(final String name) {
        if (Slf4jPresence.PRESENT) {
            return new Slf4jCommandLog(name);
        }
        Slf4jPresence.warnOnce(name);
        return OFF;
    }

    /** Whether SLF4J 2 can be loaded by this library's class loader, found once. */
    final class Slf4jPresence {
        /** null when SLF4J 2 is visible, else the class that could not be loaded. */
        @Nullable
        static final String MISSING = missing();
        static final boolean PRESENT = MISSING == null;
        private static volatile boolean warned;

        private Slf4jPresence() {
        }

        @Nullable
        private static String missing() {
            for (String name : new String[]{"org.slf4j.Logger", "org.slf4j.spi.LoggingEventBuilder"}) {
                try {
                    Class.forName(name, false, CommandLog.class.getClassLoader());
                } catch (ClassNotFoundException | LinkageError e) {
                    return name;
                }
            }
            return null;
        }

        static synchronized void warnOnce(final String name) {
            if (!warned) {
                warned = true;
                // under the sink's logger name, where the application looks for the lines that will not come
                System.getLogger(name).log(System.Logger.Level.WARNING,
                        message(String.valueOf(MISSING), CommandLog.class.getModule()));
            }
        }

        /**
         * @return the warning: what is missing, where it was looked for (this library's module and class loader), and both
         *         ways to add it, as this code cannot know whether the application runs on the class path or the module path
         */
        static String message(final String missing, final Module module) {
            String found = missing.equals("org.slf4j.Logger") ? "SLF4J (org.slf4j:slf4j-api) is"
                    : "SLF4J 1 was found, but SLF4J 2 (org.slf4j:slf4j-api 2.x, which has " + missing + ") is";
            String where = module.isNamed() ? "module " + module.getName() : "the unnamed module";
            return found + " not visible to mongo-redact (" + where + ", class loader " + module.getClassLoader()
                    + "): the mongo-redact command log is off. To turn it on, add slf4j-api 2.x and a binding where this"
                    + " library can see it: on the class path, or on the module path, resolved and readable (a module that"
                    + " `requires org.slf4j;`, or `--add-modules org.slf4j`).";
        }
    }

    /**
     * Stands in, in the log, for a failure whose text (or the text of one of its causes) is longer than maxDocumentLength, as
     * the logging specification asks of server responses inside errors: each text cut at that length with {@code " ..."}
     * appended, each stack trace kept. Its {@link #toString()} is the cut text of the original, which starts with the
     * original's class name, so a backend that prints {@code toString()} (slf4j-simple, java.util.logging) shows the
     * original's type; one that prints the class name and {@link #getMessage()} (Logback) shows this class, then that text.
     * Suppressed exceptions are left out.
     */
    final class CutFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        /** Causes followed at most: enough for any real chain; a cycle ends earlier. */
        private static final int MAX_CHAIN = 32;
        private final String text;

        private CutFailure(final String text, @Nullable final Throwable cause, final StackTraceElement[] trace) {
            super(text, cause, false, true);
            this.text = text;
            setStackTrace(trace);
        }

        /**
         * @param failure the failure
         * @param maxLength the most characters of each text; 0 for no limit
         * @return the failure itself when no text in its chain is longer than {@code maxLength}, else its stand-in
         */
        static Throwable of(final Throwable failure, final int maxLength) {
            if (maxLength == 0) {
                return failure;
            }
            List<Throwable> chain = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            boolean tooLong = false;
            for (Throwable t = failure; t != null && chain.size() < MAX_CHAIN && !containsSame(chain, t); t = t.getCause()) {
                String text = String.valueOf(t);
                chain.add(t);
                texts.add(text);
                tooLong |= text.length() > maxLength;
            }
            if (!tooLong) {
                return failure;
            }
            Throwable standIn = null;
            for (int i = chain.size() - 1; i >= 0; i--) {
                standIn = new CutFailure(CommandLogLines.cut(texts.get(i), maxLength), standIn, chain.get(i).getStackTrace());
            }
            return standIn;
        }

        private static boolean containsSame(final List<Throwable> chain, final Throwable t) {
            for (Throwable element : chain) {
                if (element == t) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
