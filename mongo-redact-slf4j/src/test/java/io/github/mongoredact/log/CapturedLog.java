package io.github.mongoredact.log;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Captures what the real SLF4J binding of the tests (slf4j-simple, writing to {@code System.err}) writes for one logger name.
 * Each capture uses a fresh logger name whose level is set through slf4j-simple's system property before the logger exists.
 */
public final class CapturedLog implements AutoCloseable {
    public final String loggerName;
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    /** @param level the slf4j-simple level of the logger (debug, info, warn, off) */
    public CapturedLog(final String level) {
        loggerName = "test.mongoredact." + UUID.randomUUID().toString().replace("-", "");
        System.setProperty("org.slf4j.simpleLogger.log." + loggerName, level);
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    }

    /** @return the captured text of this logger's lines (and their stack traces) */
    public String text() {
        System.err.flush();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** @return the captured lines that name this logger */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        for (String line : text().split("\n")) {
            if (line.contains(" " + loggerName + " - ")) {
                lines.add(line);
            }
        }
        return lines;
    }

    @Override
    public void close() {
        System.setErr(original);
        System.clearProperty("org.slf4j.simpleLogger.log." + loggerName);
    }
}
