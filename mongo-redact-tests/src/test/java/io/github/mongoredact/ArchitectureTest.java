package io.github.mongoredact;

import io.github.mongoredact.internal.InternalPackagesTest;
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
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which way the library's packages may depend on each other, read from every main source folder (imports, static imports and
 * fully qualified names in code; comments and string literals left out):
 *
 * <ul>
 *   <li>the integrations (the sinks' packages, the driver-tracing bridge, the Spring code) use the public API, not the
 *   internal packages: what they need is what a user's own sink gets. The exceptions are listed in {@link #ALLOWED}, each
 *   with its reason, and each must still be used;</li>
 *   <li>the internal packages use neither the API package nor an integration: so the API and the internal packages form no
 *   cycle ({@code internal.event} knows the events and the sinks as type parameters, the compiled policy is made of plain
 *   values);</li>
 *   <li>the API package uses no integration.</li>
 * </ul>
 */
class ArchitectureTest {
    private static final String ROOT = "io.github.mongoredact";
    private static final String INTERNAL = ROOT + ".internal";
    /** Every module's main source folders, from this module's folder (the tests run there). */
    private static final List<Path> SOURCES = List.of(Path.of("../mongo-redact/src/main/java"),
            Path.of("../mongo-redact-slf4j/src/main/java"), Path.of("../mongo-redact-micrometer/src/main/java"),
            Path.of("../mongo-redact-opentelemetry/src/main/java"), Path.of("../mongo-redact-opentelemetry/src/main/driver57"),
            Path.of("../mongo-redact-spring-boot-autoconfigure/src/main/java"),
            Path.of("../mongo-redact-spring-boot-autoconfigure/src/main/java11"));
    /** The integrations: each package is one of these or below one. */
    private static final List<String> INTEGRATIONS = List.of("log", "otel", "handoff", "micrometer", "observation", "spring")
            .stream().map(p -> ROOT + "." + p).collect(Collectors.toList());
    private static final String CHECKS = "the argument checks that throw the API's IllegalArgumentException (\"policy can not be"
            + " null\"): no redaction, no byte handling; Checks.notNull, by static import";
    /** The uses of internal code an integration may make: the file, the internal name it uses, and why. */
    private static final Map<String, String> ALLOWED = Map.of(
            "log/CommandLogSink.java -> " + INTERNAL + ".Checks", CHECKS,
            "otel/OpenTelemetryCommandSink.java -> " + INTERNAL + ".Checks", CHECKS,
            "handoff/HandOffSink.java -> " + INTERNAL + ".Checks", CHECKS,
            "micrometer/MicrometerCommandSink.java -> " + INTERNAL + ".Checks", CHECKS,
            "micrometer/ListenerCountersMetrics.java -> " + INTERNAL + ".Checks", CHECKS,
            "micrometer/HandOffSinkMetrics.java -> " + INTERNAL + ".Checks", CHECKS,
            "observation/DriverTracing.java -> " + INTERNAL + ".Checks", CHECKS,
            "otel/SpanTemplate.java -> " + INTERNAL + ".json.QueryTextCache",
            "a cache of the query texts of one kind of span, keyed by the bytes of the fields the text shows (it reads the"
                    + " copy's bytes and the renderer's list of fields left out): a cost device of this sink, not something a"
                    + " user's sink needs, which gets the same text from OwnedDocument.toQueryText");

    @Test
    void integrationsUseThePublicApiNotTheInternalPackages() {
        List<String> wrong = new ArrayList<>();
        Set<String> used = new TreeSet<>();
        forEachSource((file, pkg, names) -> {
            if (!isIntegration(pkg)) {
                return;
            }
            for (String name : names) {
                if (name.startsWith(INTERNAL + ".")) {
                    String use = file + " -> " + typeOf(name);
                    if (ALLOWED.containsKey(use)) {
                        used.add(use);
                    } else {
                        wrong.add(use);
                    }
                }
            }
        });
        assertTrue(wrong.isEmpty(), "integrations use the public API; internal code they use (or list it in ALLOWED with the"
                + " reason):\n" + String.join("\n", wrong));
        assertEquals(new TreeSet<>(ALLOWED.keySet()), used, "an allowed exception that is no longer used: take it out");
    }

    @Test
    void internalPackagesUseNeitherTheApiNorAnIntegration() {
        List<String> wrong = new ArrayList<>();
        forEachSource((file, pkg, names) -> {
            if (!pkg.equals(INTERNAL) && !pkg.startsWith(INTERNAL + ".")) {
                return;
            }
            for (String name : names) {
                if (!name.startsWith(INTERNAL + ".")) {
                    wrong.add(file + " -> " + name);
                }
            }
        });
        assertTrue(wrong.isEmpty(), "internal code uses only internal code (the API hands it plain values and type"
                + " parameters):\n" + String.join("\n", wrong));
    }

    @Test
    void theApiPackageUsesNoIntegration() {
        List<String> wrong = new ArrayList<>();
        forEachSource((file, pkg, names) -> {
            if (!pkg.equals(ROOT)) {
                return;
            }
            for (String name : names) {
                if (isIntegration(packageOf(name))) {
                    wrong.add(file + " -> " + name);
                }
            }
        });
        assertTrue(wrong.isEmpty(), "the API package names its integrations in javadoc only:\n" + String.join("\n", wrong));
    }

    @Test
    void theScanSeesEveryPackage() {
        Set<String> packages = new TreeSet<>();
        forEachSource((file, pkg, names) -> packages.add(pkg));
        for (String expected : List.of(ROOT, INTERNAL, INTERNAL + ".event", INTERNAL + ".rules", ROOT + ".log", ROOT + ".otel",
                ROOT + ".handoff", ROOT + ".micrometer", ROOT + ".observation", ROOT + ".spring")) {
            assertTrue(packages.contains(expected), expected + " not found in " + packages);
        }
        for (String pkg : packages) {
            assertTrue(pkg.equals(ROOT) || pkg.equals(INTERNAL) || pkg.startsWith(INTERNAL + ".") || isIntegration(pkg),
                    pkg + " is neither the API, internal nor an integration: place it in INTEGRATIONS or under internal");
        }
    }

    private static boolean isIntegration(final String pkg) {
        for (String integration : INTEGRATIONS) {
            if (pkg.equals(integration) || pkg.startsWith(integration + ".")) {
                return true;
            }
        }
        return false;
    }

    /** The name up to its first segment that starts with an upper-case letter: the type (a member or nested type cut off). */
    private static String typeOf(final String name) {
        StringBuilder type = new StringBuilder();
        for (String segment : name.split("\\.")) {
            type.append(type.length() == 0 ? "" : ".").append(segment);
            if (Character.isUpperCase(segment.charAt(0))) {
                break;
            }
        }
        return type.toString();
    }

    private static String packageOf(final String name) {
        String type = typeOf(name);
        int dot = type.lastIndexOf('.');
        return Character.isUpperCase(type.charAt(dot + 1)) ? type.substring(0, dot) : type;
    }

    private interface SourceVisitor {
        void visit(String file, String pkg, Set<String> names);
    }

    /** Visits each main source with its package and the library's names it uses in code, its file relative to the package root. */
    private static void forEachSource(final SourceVisitor visitor) {
        for (Path root : SOURCES) {
            Path dir = root.resolve(ROOT.replace('.', '/'));
            assertTrue(Files.isDirectory(dir), () -> dir.toAbsolutePath() + " is not there: run from the project's directory");
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().collect(Collectors.toList())) {
                    String code = InternalPackagesTest.code(Files.readString(file, StandardCharsets.UTF_8));
                    Matcher pkg = Pattern.compile("(?m)^package ([\\w.]+);").matcher(code);
                    if (pkg.find()) {
                        visitor.visit(dir.relativize(file).toString().replace('\\', '/'), pkg.group(1),
                                InternalPackagesTest.referencedNames(code));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
