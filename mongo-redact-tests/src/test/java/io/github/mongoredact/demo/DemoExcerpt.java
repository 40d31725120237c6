package io.github.mongoredact.demo;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo guide's excerpt of a demo run: made from what the demo prints, written into docs/demo.md between its markers, and
 * compared with a fresh run by {@code DemoTest} on the demo's driver line.
 *
 * <p>Regenerate it (from the project folder, after a change to what the demo prints) with
 * {@code mvn -q -Pdemo -Ddemo.main=io.github.mongoredact.demo.DemoExcerpt}: it runs the demo as {@code mvn -q -Pdemo} does, on
 * the same driver line, and rewrites the block.</p>
 */
public final class DemoExcerpt {
    static final String BEGIN = "<!-- demo excerpt: begin (mvn -q -Pdemo -Ddemo.main=io.github.mongoredact.demo.DemoExcerpt"
            + " writes it) -->";
    static final String END = "<!-- demo excerpt: end -->";
    private static final String ELIDED = "[...]";
    private static final int WIDTH = 128;

    private DemoExcerpt() {
    }

    /**
     * Runs the demo and rewrites the excerpt in {@code docs/demo.md} of the working folder.
     *
     * @param args the demo's options
     * @throws IOException if docs/demo.md can not be read or written
     */
    public static void main(final String[] args) throws IOException {
        Demo.logToStandardOutput();
        PrintStream stdout = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int code;
        System.setOut(capture);
        try {
            code = Demo.run(args, capture);
        } finally {
            System.setOut(stdout);
        }
        String output = bytes.toString(StandardCharsets.UTF_8);
        if (code != 0) {
            stdout.println(output);
            stdout.println("The demo ended with exit code " + code + "; docs/demo.md is left as it is.");
            System.exit(code);
        }
        Path readme = Paths.get("docs", "demo.md");
        String excerpt = of(output);
        Files.writeString(readme, replace(Files.readString(readme, StandardCharsets.UTF_8), excerpt), StandardCharsets.UTF_8);
        stdout.println("docs/demo.md: the demo excerpt is rewritten from this run:");
        stdout.println(excerpt);
        stdout.flush();
        System.exit(0);
    }

    /**
     * @param output what the demo printed, its log lines included
     * @return the excerpt: a find on e-mail, the failed findAndModify with its exception's first line, saslStart, the
     *         metrics table and the summary; {@code [...]} where lines are left out
     */
    static String of(final String output) {
        List<String> lines = List.of(output.split("\\R"));
        List<String> excerpt = new ArrayList<>();
        int find = indexOf(lines, 0, "# finds filtered on e-mail");
        excerpt.add(lines.get(find));
        excerpt.add(lines.get(indexOf(lines, find, "Command \"find\" started")));
        excerpt.add(ELIDED);
        int duplicate = indexOf(lines, find, "# a duplicate key on findOneAndUpdate");
        excerpt.add(lines.get(duplicate));
        excerpt.add(ELIDED);
        int failed = indexOf(lines, duplicate, "Command \"findAndModify\" failed");
        excerpt.add(lines.get(failed));
        String exception = lines.get(failed + 1);
        int server = exception.indexOf(" on server ");
        excerpt.add(exception.substring(0, exception.indexOf(". ", server) + 1) + " " + ELIDED);
        excerpt.add(ELIDED);
        int sensitive = indexOf(lines, failed, "# createUser and saslStart");
        excerpt.add(lines.get(sensitive));
        excerpt.add(ELIDED);
        excerpt.add(lines.get(indexOf(lines, sensitive, "Command \"saslStart\" started")));
        excerpt.add(ELIDED);
        excerpt.add("");
        int metrics = indexOf(lines, sensitive, "Metrics (Micrometer");
        int at = metrics;
        for (; at < lines.size() && !lines.get(at).isEmpty(); at++) {
            excerpt.add(lines.get(at));
        }
        excerpt.add("");
        excerpt.addAll(wrap(lines.get(indexOf(lines, at, "Summary: "))));
        return String.join("\n", excerpt);
    }

    /**
     * @param excerpt an excerpt
     * @return it without what changes from run to run: ports, durations, connection and request ids, the allocation figures
     *         (they include first use), line breaks and alignment
     */
    static String normalize(final String excerpt) {
        return excerpt
                .replaceAll("127\\.0\\.0\\.1:\\d+", "127.0.0.1:<port>")
                .replaceAll(" in [0-9.]+ ms ", " in <duration> ms ")
                .replaceAll("driver-generated ID \\d+", "driver-generated ID <id>")
                .replaceAll("The request ID is \\d+ and the operation ID is \\d+", "The request ID is <id> and the operation ID is <id>")
                .replaceAll("(?m)^(\\S+\\s+\\S+\\s+\\d+\\s+\\d+)\\s+[0-9.]+\\s+[0-9.]+", "$1 <ms> <ms>")
                .replaceAll("allocated \\d+ bytes per event on average \\(median \\d+\\)", "allocated <bytes> (median <bytes>)")
                .replaceAll("sinks allocated \\d+ bytes", "sinks allocated <bytes>")
                .replaceAll("\\s+", " ")
                .trim();
    }

    /** @return the excerpt in the README, between its markers */
    static String in(final String readme) {
        int begin = readme.indexOf(BEGIN);
        int end = readme.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalStateException("docs/demo.md has no demo excerpt between " + BEGIN + " and " + END);
        }
        String block = readme.substring(begin + BEGIN.length(), end).trim();
        return block.substring("```".length(), block.length() - "```".length()).trim();
    }

    /** @return the README with its excerpt replaced */
    static String replace(final String readme, final String excerpt) {
        in(readme);
        return readme.substring(0, readme.indexOf(BEGIN) + BEGIN.length()) + "\n```\n" + excerpt + "\n```\n"
                + readme.substring(readme.indexOf(END));
    }

    private static int indexOf(final List<String> lines, final int from, final String part) {
        for (int i = from; i < lines.size(); i++) {
            if (lines.get(i).contains(part)) {
                return i;
            }
        }
        throw new IllegalStateException("no line with '" + part + "' in the demo's output after line " + from);
    }

    private static List<String> wrap(final String text) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > WIDTH) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        lines.add(line.toString());
        return lines;
    }
}
