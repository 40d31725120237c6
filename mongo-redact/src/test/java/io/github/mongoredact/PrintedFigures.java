package io.github.mongoredact;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Properties;

/**
 * Figures that a test measures and the README or a guide under docs/ quotes: the test prints each one and, in the default
 * surefire execution (driver 4.11 on the build's JDK, the run that the figures in the docs come from), records it in
 * {@code target/figures/<test>.properties} of its module. {@code DocumentationTest} reads those files and fails where a
 * document quotes a figure other than the one recorded.
 *
 * <p>The other executions (driver 5.14, JDK 25) print their figures but do not record them: their object layouts and driver
 * classes differ by a few bytes, and the docs name the line they quote.
 */
public final class PrintedFigures {
    /** The surefire execution whose figures the docs quote. */
    public static final String DOCUMENTED_EXECUTION = "default-test";

    private PrintedFigures() {
    }

    /**
     * Prints {@code name = value} on standard out and records it for {@code DocumentationTest} in the documented execution.
     *
     * @param test the test that measured the figure: its file under {@code target/figures/}
     * @param name the figure's name, unique in the test
     * @param value the figure, rounded to a whole number (bytes, nanoseconds)
     * @return the value
     */
    public static synchronized long record(final Class<?> test, final String name, final double value) {
        long rounded = Math.round(value);
        System.out.println("figure: " + test.getSimpleName() + " / " + name + " = " + rounded);
        if (DOCUMENTED_EXECUTION.equals(System.getProperty("mongo-redact.test.execution"))) {
            Path file = Paths.get("target", "figures", test.getSimpleName() + ".properties");
            try {
                Properties figures = new Properties();
                if (Files.exists(file)) {
                    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                        figures.load(in);
                    }
                }
                figures.setProperty(name, Long.toString(rounded));
                Files.createDirectories(file.getParent());
                try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                    figures.store(out, "recorded by " + test.getName() + "; quoted in README.md and docs/, checked by"
                            + " DocumentationTest");
                }
            } catch (IOException e) {
                throw new UncheckedIOException("recording the figure " + name + " of " + test.getName() + " in " + file, e);
            }
        }
        return rounded;
    }
}
