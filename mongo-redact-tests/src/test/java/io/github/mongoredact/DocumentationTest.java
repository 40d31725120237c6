package io.github.mongoredact;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the README and the guides under docs/ tell a user agrees with itself and with the code that is tested: one piece of
 * advice for the driver's own command logger, one duration for the quick benchmark, commands that run as written, the
 * Quarkus producer that the Quarkus project runs, the figures that tests print ({@link DocumentedFigures}). (The demo's
 * excerpt is checked against a fresh run by {@code DemoTest}; the first page by {@code FirstPageTest}.)
 */
class DocumentationTest {

    @Test
    void theDriversCommandLoggerIsToBeKeptAtInfoOrAboveInEveryPlace() throws IOException {
        for (Map.Entry<Path, String> document : documents().entrySet()) {
            String text = document.getValue().replaceAll("\\s+", " ");
            // "below DEBUG" reads as TRACE, the most verbose level; the advice is one and the same everywhere
            assertFalse(text.contains("below DEBUG"), document.getKey() + ": below DEBUG");
            assertFalse(text.contains("above DEBUG"), document.getKey() + ": above DEBUG, where the others say INFO or above");
            Matcher advice = Pattern.compile("[Kk]eep the driver's (own )?command log(ger)?").matcher(text);
            while (advice.find()) {
                String sentence = text.substring(advice.start(), Math.min(text.length(), advice.end() + 100));
                assertTrue(sentence.contains("INFO or above"), document.getKey() + ": " + sentence);
            }
        }
    }

    @Test
    void theQuickBenchmarkTakesTheSameTimeInEveryPlaceThatSays() throws IOException {
        Map<String, String> durations = new LinkedHashMap<>();
        Pattern quick = Pattern.compile("run-quick\\.sh[^\\n]*?(\\d+ to \\d+ minutes)");
        for (Path file : List.of(Paths.get("../docs/benchmarks.md"), Paths.get("../jmh/README.md"), Paths.get("../jmh/run-quick.sh"))) {
            Matcher matcher = quick.matcher(read(file));
            if (matcher.find()) {
                durations.put(file.toString(), matcher.group(1));
            } else {
                Matcher inScript = Pattern.compile("(\\d+ to \\d+ minutes)").matcher(read(file));
                if (file.endsWith("run-quick.sh") && inScript.find()) {
                    durations.put(file.toString(), inScript.group(1));
                }
            }
        }
        assertEquals(3, durations.size(), durations.toString());
        assertEquals(1, durations.values().stream().distinct().count(), durations.toString());
    }

    @Test
    void aSingleTestIsRerunWithSurefireTestNotWithTheWholeLifecycle() throws IOException {
        Pattern command = Pattern.compile("mvn [^`\\n]*-Dtest=[^`\\n]*");
        int commands = 0;
        for (Map.Entry<Path, String> document : documents().entrySet()) {
            Matcher matcher = command.matcher(document.getValue());
            while (matcher.find()) {
                commands++;
                // with a lifecycle phase, -Dtest reaches every surefire execution, the driver-4.10 refusal's too
                assertTrue(matcher.group().contains("surefire:test"), document.getKey() + ": " + matcher.group());
                assertFalse(matcher.group().matches(".* (verify|test|package|install)( .*)?"), document.getKey() + ": "
                        + matcher.group());
            }
        }
        assertTrue(commands > 0, "the rerun of a failing seed is documented");
    }

    @Test
    void theQuarkusGuidesProducerIsTheOneTheQuarkusProjectRuns() throws IOException {
        String guide = read(Paths.get("../docs/quarkus.md"));
        assertTrue(guide.startsWith("# Quarkus\n"), "docs/quarkus.md is the Quarkus guide");
        int code = guide.indexOf("```java\n");
        assertTrue(code > 0, "docs/quarkus.md shows the producer");
        String documented = guide.substring(code + "```java\n".length(), guide.indexOf("```", code + 3));
        String tested = read(Paths.get("src/it/quarkus-3.33/src/main/java/it/mongoredact/MongoRedactProducer.java"));
        assertEquals(body(tested, "public class"), body(documented, "public class"));
        assertEquals(imports(tested), imports(documented));
    }

    /**
     * Every figure the README and the guides quote from a test is the one the test printed in this build (its default
     * execution: driver 4.11 on the build's JDK), and every bound they quote is the one the test asserts.
     */
    @Test
    void everyFigureQuotedFromATestIsTheOneTheTestPrinted() throws IOException {
        List<String> problems = new ArrayList<>();
        Set<String> documents = new LinkedHashSet<>();
        for (DocumentedFigure figure : DocumentedFigures.ALL) {
            problems.addAll(figure.check(DocumentedFigure.root()));
            documents.add(figure.document());
        }
        assertEquals(List.of(), problems);
        assertTrue(documents.contains("README.md") && documents.size() >= 6, "figures checked in " + documents);
    }

    private static String body(final String source, final String from) {
        return source.substring(source.indexOf(from)).replaceAll("\\s+", " ").trim();
    }

    private static List<String> imports(final String source) {
        return source.lines().filter(line -> line.startsWith("import ")).collect(Collectors.toList());
    }

    /** @return README.md and every guide under docs/, by path */
    private static Map<Path, String> documents() throws IOException {
        Map<Path, String> documents = new LinkedHashMap<>();
        documents.put(Paths.get("../README.md"), read(Paths.get("../README.md")));
        List<Path> guides = new ArrayList<>();
        try (Stream<Path> docs = Files.list(Paths.get("../docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(guides::add);
        }
        for (Path guide : guides) {
            documents.put(guide, read(guide));
        }
        return documents;
    }

    private static String read(final Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
