package io.github.mongoredact;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README is a first page: short, the registration on {@code MongoClientSettings} early and compilable as written (every
 * name it uses is imported or defined), and every link in it and in the guides under docs/ leads to a file and a heading
 * that exist.
 */
class FirstPageTest {
    private static final Path README = Paths.get("../README.md");
    private static final int MAX_LINES = 200;
    private static final int REGISTRATION_BY_LINE = 80;
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    void theReadmeIsAtMost200Lines() throws IOException {
        List<String> lines = Files.readAllLines(README, StandardCharsets.UTF_8);
        assertTrue(lines.size() <= MAX_LINES, "README.md has " + lines.size() + " lines, at most " + MAX_LINES);
    }

    @Test
    void theRegistrationOnMongoClientSettingsComesByLine80() throws IOException {
        List<String> lines = Files.readAllLines(README, StandardCharsets.UTF_8);
        int registration = -1;
        for (int i = 0; i < lines.size() && registration < 0; i++) {
            if (lines.get(i).contains(".addCommandListener(")) {
                registration = i + 1;
            }
        }
        assertTrue(registration > 0, "README.md registers the listener with addCommandListener");
        assertTrue(registration <= REGISTRATION_BY_LINE, "addCommandListener first at line " + registration + " of README.md");
    }

    @Test
    void theReadmesRegistrationCompilesAsWritten(@TempDir final Path classes) throws IOException {
        String readme = Files.readString(README, StandardCharsets.UTF_8);
        int section = readme.indexOf("\n## Registering on MongoClientSettings\n");
        assertTrue(section > 0, "a section on the registration");
        int code = readme.indexOf("```java\n", section);
        String snippet = readme.substring(code + "```java\n".length(), readme.indexOf("```", code + 3));
        String imports = snippet.lines().filter(line -> line.startsWith("import ")).collect(Collectors.joining("\n"));
        String statements = snippet.lines().filter(line -> !line.startsWith("import ")).collect(Collectors.joining("\n"));
        assertTrue(statements.contains("addCommandListener(listener)"), statements);
        Path source = classes.resolve("ReadmeRegistration.java");
        Files.writeString(source, imports + "\n\nclass ReadmeRegistration {\n    void register() {\n" + statements
                + "\n        client.close();\n    }\n}\n", StandardCharsets.UTF_8);

        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of("-classpath", testClassPath(), "-d", classes.toString(), "-proc:none");
            boolean compiled = compiler.getTask(null, files, diagnostics, options, null,
                    files.getJavaFileObjectsFromPaths(List.of(source))).call();
            List<String> errors = new ArrayList<>();
            for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
                errors.add("line " + diagnostic.getLineNumber() + ": " + diagnostic.getMessage(Locale.ROOT));
            }
            assertTrue(compiled, "README.md's registration does not compile: " + errors);
        }
        assertTrue(Files.exists(classes.resolve("ReadmeRegistration.class")));
    }

    @Test
    void everyLinkInTheReadmeAndTheGuidesLeadsToAFileAndAHeadingThatExist() throws IOException {
        List<Path> documents = new ArrayList<>();
        documents.add(README);
        try (Stream<Path> docs = Files.list(Paths.get("../docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path document : documents) {
            Matcher link = LINK.matcher(Files.readString(document, StandardCharsets.UTF_8));
            while (link.find()) {
                String target = link.group(1);
                if (target.startsWith("http://") || target.startsWith("https://") || target.startsWith("mailto:")) {
                    continue;
                }
                links++;
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? document : document.getParent().resolve(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(document + ": " + target + " (no file " + resolved + ")");
                } else if (hash >= 0 && !anchors(resolved).contains(target.substring(hash + 1))) {
                    broken.add(document + ": " + target + " (no heading #" + target.substring(hash + 1) + " in " + resolved + ")");
                }
            }
        }
        assertTrue(links > 20, "the README links its guides: " + links + " links");
        assertEquals(List.of(), broken);
    }

    /** @return the anchors GitHub makes of the file's headings: lower case, punctuation but '-' and '_' dropped, '-' for spaces */
    private static Set<String> anchors(final Path file) throws IOException {
        Set<String> anchors = new HashSet<>();
        if (!file.toString().endsWith(".md")) {
            return anchors;
        }
        boolean inCode = false;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.startsWith("```")) {
                inCode = !inCode;
            } else if (!inCode && line.startsWith("#")) {
                String title = line.replaceFirst("^#+\\s*", "").toLowerCase(Locale.ROOT);
                anchors.add(title.replaceAll("[^\\p{L}\\p{N}\\s_-]", "").replace(' ', '-'));
            }
        }
        return anchors;
    }

    private static String testClassPath() {
        // surefire runs the tests from a manifest-only jar: the test class path proper is in this property
        String classPath = System.getProperty("surefire.test.class.path");
        return classPath != null ? classPath : System.getProperty("java.class.path");
    }
}
