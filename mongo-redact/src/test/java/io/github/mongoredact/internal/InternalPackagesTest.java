package io.github.mongoredact.internal;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layers of the internal packages, read from the sources (imports, static imports and fully qualified names in code; the
 * compiled classes would miss the constants the compiler inlines): each package uses only those below it, none uses the API's
 * facade, and no import of the library's sources is there for javadoc alone.
 */
public class InternalPackagesTest {
    private static final String ROOT = "io.github.mongoredact";
    private static final String INTERNAL = ROOT + ".internal";
    /** The internal packages from the bottom up: each may use only those before it. */
    private static final List<String> LAYERS = List.of("", "bson", "mask", "message", "rules", "walk", "json", "summary",
            "shape", "failure", "event").stream().map(p -> p.isEmpty() ? INTERNAL : INTERNAL + "." + p).collect(Collectors.toList());
    /**
     * The API types internal code may use: none. The pipeline knows the events and the sinks as type parameters, the compiled
     * policy is made of plain values ({@code PlainRule}), so that the API and the internal packages form no cycle.
     */
    private static final Set<String> API_VALUES = Set.of();
    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import (static )?([\\w.]+)(\\.\\*)?;");
    private static final Pattern QUALIFIED = Pattern.compile("(?<![\\w.])" + Pattern.quote(ROOT) + "(\\.\\w+)+");

    @Test
    void everyInternalPackageHasItsLayer() {
        Set<String> found = new TreeSet<>(uses().keySet());
        assertEquals(new TreeSet<>(LAYERS), found, "place a new internal package in LAYERS, above what it uses");
    }

    @Test
    void useOnlyPackagesBelow() {
        List<String> upward = new ArrayList<>();
        uses().forEach((pkg, targets) -> targets.forEach((target, where) -> {
            if (target.startsWith(INTERNAL) && LAYERS.indexOf(target) >= LAYERS.indexOf(pkg) && !target.equals(pkg)) {
                upward.add(where + " uses " + target + ", which is not below " + pkg);
            }
        }));
        assertTrue(upward.isEmpty(), String.join("\n", upward));
    }

    @Test
    void haveNoCycle() {
        Map<String, Map<String, String>> uses = uses();
        List<String> cycles = new ArrayList<>();
        for (String start : uses.keySet()) {
            List<String> path = new ArrayList<>();
            path.add(start);
            findCycle(uses, start, path, new TreeSet<>(), cycles);
        }
        assertTrue(cycles.isEmpty(), "cycles among the internal packages:\n" + String.join("\n", cycles));
    }

    @Test
    void doNotUseTheFacade() {
        List<String> facade = new ArrayList<>();
        forEachSource(INTERNAL, (file, pkg, code) -> {
            for (String name : referencedNames(code)) {
                if (!name.startsWith(INTERNAL + ".") && name.startsWith(ROOT + ".")) {
                    String rest = name.substring(ROOT.length() + 1);
                    String type = rest.split("\\.")[0];
                    if (!Character.isUpperCase(type.charAt(0)) || !API_VALUES.contains(type)) {
                        facade.add(file + " uses " + name);
                    }
                }
            }
        });
        assertTrue(facade.isEmpty(), "internal code may use the API's values " + API_VALUES + " only:\n"
                + String.join("\n", facade));
    }

    @Test
    void importNothingOnlyForJavadoc() {
        List<String> javadocOnly = new ArrayList<>();
        forEachSource(ROOT, (file, pkg, code) -> {
            Matcher m = IMPORT.matcher(code);
            while (m.find()) {
                if (m.group(3) != null) {
                    continue;
                }
                String name = m.group(2).substring(m.group(2).lastIndexOf('.') + 1);
                String rest = code.substring(0, m.start()) + code.substring(m.end());
                if (!Pattern.compile("(?<![\\w$])" + Pattern.quote(name) + "(?![\\w$])").matcher(rest).find()) {
                    javadocOnly.add(file + ": import " + m.group(2));
                }
            }
        });
        assertTrue(javadocOnly.isEmpty(), "imports used by no code (javadoc names a type fully or in {@code}):\n"
                + String.join("\n", javadocOnly));
    }

    private static void findCycle(final Map<String, Map<String, String>> uses, final String start, final List<String> path,
                                  final Set<String> seen, final List<String> cycles) {
        String last = path.get(path.size() - 1);
        for (String next : uses.getOrDefault(last, Map.of()).keySet()) {
            if (next.equals(start)) {
                cycles.add(String.join(" -> ", path) + " -> " + start);
            } else if (next.startsWith(INTERNAL) && seen.add(next)) {
                path.add(next);
                findCycle(uses, start, path, seen, cycles);
                path.remove(path.size() - 1);
            }
        }
    }

    /** @return for each internal package, the other internal packages it uses, each with one file that uses it */
    private static Map<String, Map<String, String>> uses() {
        Map<String, Map<String, String>> uses = new TreeMap<>();
        forEachSource(INTERNAL, (file, pkg, code) -> {
            Map<String, String> targets = uses.computeIfAbsent(pkg, p -> new TreeMap<>());
            for (String name : referencedNames(code)) {
                String target = packageOf(name);
                if (target.startsWith(INTERNAL) && !target.equals(pkg)) {
                    targets.putIfAbsent(target, file.toString());
                }
            }
        });
        return uses;
    }

    /**
     * The library's names a source uses in code: its imports and the fully qualified names outside comments and strings (also
     * {@code ArchitectureTest}'s reading of a source).
     */
    public static Set<String> referencedNames(final String code) {
        Set<String> names = new TreeSet<>();
        Matcher imports = IMPORT.matcher(code);
        while (imports.find()) {
            names.add(imports.group(2));
        }
        String body = IMPORT.matcher(code).replaceAll("").replaceFirst("(?m)^package [\\w.]+;", "");
        Matcher qualified = QUALIFIED.matcher(body);
        while (qualified.find()) {
            names.add(qualified.group());
        }
        names.removeIf(n -> !n.startsWith(ROOT + "."));
        return names;
    }

    /** The package of a name: its segments up to the first that starts with an upper-case letter. */
    private static String packageOf(final String name) {
        StringBuilder pkg = new StringBuilder();
        for (String segment : name.split("\\.")) {
            if (Character.isUpperCase(segment.charAt(0))) {
                break;
            }
            pkg.append(pkg.length() == 0 ? "" : ".").append(segment);
        }
        return pkg.toString();
    }

    private interface SourceVisitor {
        void visit(Path file, String pkg, String code);
    }

    private static void forEachSource(final String under, final SourceVisitor visitor) {
        Path dir = SOURCES.resolve(under.replace('.', '/'));
        assertTrue(Files.isDirectory(dir), () -> dir.toAbsolutePath() + " is not there: run from the project's directory");
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().collect(Collectors.toList())) {
                String code = code(Files.readString(file, StandardCharsets.UTF_8));
                Matcher pkg = Pattern.compile("(?m)^package ([\\w.]+);").matcher(code);
                if (pkg.find()) {
                    visitor.visit(SOURCES.relativize(file), pkg.group(1), code);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The source without its comments, and with its string and character literals emptied. */
    public static String code(final String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/') {
                while (i < n && source.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '"' && source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                i = end < 0 ? n : end + 3;
                out.append("\"\"");
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && source.charAt(j) != c) {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                i = j + 1;
                out.append(c).append(c);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
