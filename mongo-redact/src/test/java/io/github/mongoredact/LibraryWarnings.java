package io.github.mongoredact;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The library's own warnings ({@code System.Logger}, which the JDK routes to {@code java.util.logging}), captured for the test
 * that provokes them instead of printed: register it with {@code @RegisterExtension}, then assert what {@link #texts()} says.
 * Each test starts with none; warnings from any thread are captured (and not printed) while the test runs.
 */
public final class LibraryWarnings implements BeforeEachCallback, AfterEachCallback {
    /**
     * The root logger: the library names its loggers after its API classes, and the command log's warning that SLF4J is
     * missing after the sink's logger name, wherever the application looks for its lines.
     */
    private static final Logger ROOT = Logger.getLogger("");

    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(final LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                records.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Handler[] printing = new Handler[0];

    @Override
    public void beforeEach(final ExtensionContext context) {
        records.clear();
        printing = ROOT.getHandlers();
        for (Handler console : printing) {
            ROOT.removeHandler(console);
        }
        ROOT.addHandler(handler);
    }

    @Override
    public void afterEach(final ExtensionContext context) {
        ROOT.removeHandler(handler);
        for (Handler console : printing) {
            ROOT.addHandler(console);
        }
    }

    /**
     * @return each warning given since the test began (or since {@link #drain()}): its message, then the class and message
     *         of each throwable in its cause chain
     */
    public List<String> texts() {
        List<String> texts = new ArrayList<>();
        for (LogRecord record : records) {
            StringBuilder text = new StringBuilder(String.valueOf(record.getMessage()));
            for (Throwable e = record.getThrown(); e != null; e = e.getCause()) {
                text.append(" | ").append(e);
            }
            texts.add(text.toString());
        }
        return texts;
    }

    /** @return {@link #texts()}, then forgets them: for a test that provokes one failure after another */
    public List<String> drain() {
        List<String> texts = texts();
        records.clear();
        return texts;
    }

    /**
     * @param fragment what one warning must say
     * @return the warnings, for further checks
     */
    public List<String> assertSaid(final String fragment) {
        List<String> texts = texts();
        if (texts.stream().noneMatch(text -> text.contains(fragment))) {
            throw new AssertionError("no warning says \"" + fragment + "\"; the warnings: " + texts);
        }
        return texts;
    }

    /** @param value what no warning may quote (a planted secret) */
    public void assertNoneQuotes(final String value) {
        for (String text : texts()) {
            if (text.contains(value)) {
                throw new AssertionError("a warning quotes " + value + ": " + text);
            }
        }
    }
}
