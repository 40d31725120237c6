package io.github.mongoredact;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A figure that the README or a guide quotes, and where its true value comes from: what a test printed and recorded
 * ({@code PrintedFigures}, in its module's {@code target/figures/}) or a bound that a test asserts (a constant in its source).
 * The quoted text has a {@code #} where each figure stands; whitespace is matched loosely, since the docs wrap lines.
 */
final class DocumentedFigure {
    private static final Pattern NUMBER = Pattern.compile("[0-9][0-9,]*");
    private static final Pattern MIB_BOUND = Pattern.compile("static final long BOUND = (\\d+)L << 20;");

    private final String document;
    private final String text;
    private final String source;
    private final List<String> figures;
    private final int tolerancePercent;
    private final long tolerance;

    private DocumentedFigure(final String document, final String text, final String source, final List<String> figures,
                             final int tolerancePercent, final long tolerance) {
        this.document = document;
        this.text = text;
        this.source = source;
        this.figures = figures;
        this.tolerancePercent = tolerancePercent;
        this.tolerance = tolerance;
    }

    /**
     * @param document the document, from the repository's root
     * @param text the quoted text, {@code #} for each figure
     * @param module the module whose test recorded the figures
     * @param test the test's simple name
     * @param figures the figures' names, in the order of the {@code #}s; {@code "a - b"} is the difference of two figures
     * @return a figure that a test printed
     */
    static DocumentedFigure printed(final String document, final String text, final String module, final String test,
                                    final String... figures) {
        return new DocumentedFigure(document, text, module + "/target/figures/" + test + ".properties", List.of(figures), 0, 0);
    }

    /**
     * A figure that varies between runs (what a library outside ours allocates depends on how the JIT compiled it), quoted
     * as "about" a round number.
     *
     * @param document the document, from the repository's root
     * @param text the quoted text, one {@code #}
     * @param tolerancePercent how far the printed figure may lie from the quoted one, in percent of the printed one
     * @param module the module whose test recorded the figure
     * @param test the test's simple name
     * @param figure the figure's name
     * @return a figure that a test printed, quoted approximately
     */
    static DocumentedFigure printedAbout(final String document, final String text, final int tolerancePercent,
                                         final String module, final String test, final String figure) {
        return new DocumentedFigure(document, text, module + "/target/figures/" + test + ".properties", List.of(figure),
                tolerancePercent, 0);
    }

    /**
     * Figures that vary between runs of the same build, quoted as "about" where they do: an average over few calls that a
     * one-off allocation in the measured window moves (a late compilation), an object that the JIT's escape analysis removes
     * in some compilations, a count of kept driver views that read back wrong (which pooled buffers later operations reuse).
     *
     * @param tolerance how far each printed figure may lie from the quoted one, in the figure's own unit (bytes, a count)
     * @return this quote, with that tolerance
     */
    DocumentedFigure within(final long tolerance) {
        return new DocumentedFigure(document, text, source, figures, tolerancePercent, tolerance);
    }

    /**
     * @param document the document, from the repository's root
     * @param text the quoted text, one {@code #}
     * @param testSource the test's source file, from the repository's root, with {@code static final long BOUND = nL << 20;}
     * @return a bound in MiB that a test asserts
     */
    static DocumentedFigure mibBound(final String document, final String text, final String testSource) {
        return new DocumentedFigure(document, text, testSource, List.of("BOUND >> 20"), 0, 0);
    }

    String document() {
        return document;
    }

    /**
     * @param root the repository's root
     * @return what is wrong with the quote: empty when the document quotes the figures that the source gives
     */
    List<String> check(final Path root) throws IOException {
        List<String> problems = new ArrayList<>();
        long[] expected = expected(root);
        String normalised = Files.readString(root.resolve(document), StandardCharsets.UTF_8).replaceAll("\\s+", " ");
        String[] parts = text.replaceAll("\\s+", " ").split("#", -1);
        if (parts.length - 1 != expected.length) {
            throw new IllegalArgumentException(text + ": " + (parts.length - 1) + " # for " + figures.size() + " figures");
        }
        StringBuilder regex = new StringBuilder(Pattern.quote(parts[0]));
        for (int i = 1; i < parts.length; i++) {
            regex.append('(').append(NUMBER.pattern()).append(')').append(Pattern.quote(parts[i]));
        }
        Matcher quote = Pattern.compile(regex.toString()).matcher(normalised);
        if (!quote.find()) {
            problems.add(document + ": no text \"" + text + "\" (expected " + java.util.Arrays.toString(expected) + " from "
                    + source + ")");
            return problems;
        }
        for (int i = 0; i < expected.length; i++) {
            long quoted = Long.parseLong(quote.group(i + 1).replace(",", ""));
            long allowed = Math.max(tolerance, tolerancePercent * Math.abs(expected[i]) / 100);
            if (Math.abs(quoted - expected[i]) > allowed) {
                problems.add(document + ": \"" + quote.group() + "\" quotes " + quoted + " where " + source + " gives "
                        + figures.get(i) + " = " + expected[i] + (allowed == 0 ? "" : " (quoted as about, within " + allowed
                        + ")"));
            }
        }
        return problems;
    }

    private long[] expected(final Path root) throws IOException {
        Path file = root.resolve(source);
        if (!Files.exists(file)) {
            throw new IllegalStateException("no " + file + ": the figures are recorded by the module's tests in its default"
                    + " execution, which mvn -B verify runs before mongo-redact-tests (" + text + ")");
        }
        long[] values = new long[figures.size()];
        if (source.endsWith(".java")) {
            Matcher bound = MIB_BOUND.matcher(Files.readString(file, StandardCharsets.UTF_8));
            if (!bound.find()) {
                throw new IllegalStateException(source + " declares no BOUND in MiB");
            }
            values[0] = Long.parseLong(bound.group(1));
            return values;
        }
        Properties recorded = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            recorded.load(in);
        }
        for (int i = 0; i < values.length; i++) {
            long value = 0;
            int sign = 1;
            for (String name : figures.get(i).split(" - ")) {
                String figure = recorded.getProperty(name);
                if (figure == null) {
                    throw new IllegalStateException(source + " records no figure \"" + name + "\": " + recorded.keySet());
                }
                value += sign * Long.parseLong(figure);
                sign = -1;
            }
            values[i] = value;
        }
        return values;
    }

    static Path root() {
        return Paths.get("..").toAbsolutePath().normalize();
    }

    @Override
    public String toString() {
        return document + ": " + text;
    }
}
