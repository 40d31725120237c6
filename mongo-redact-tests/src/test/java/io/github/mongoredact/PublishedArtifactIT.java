package io.github.mongoredact;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every published artifact as it is installed and published: the build's {@code published-artifact} execution
 * (mongo-redact-tests) runs this after {@code invoker:install} has put each POM and jar into {@code target/it-repo}, as
 * {@code install} and {@code deploy} would (system property {@code mongo-redact.test.repository}); the sources and javadoc
 * jars are read where each module's build made them ({@code mongo-redact.test.root}).
 *
 * <p>What users get from each POM is listed here, dependency by dependency: the core names nothing but the driver, which users
 * bring ({@code provided}); each integration its library as a plain dependency and the driver as {@code provided}; the only
 * optional dependencies are the integrations the Spring Boot auto-configuration configures where they are present.</p>
 */
class PublishedArtifactIT {
    private static final Path REPOSITORY = Paths.get(System.getProperty("mongo-redact.test.repository"));
    private static final String VERSION = System.getProperty("mongo-redact.test.version");
    private static final Path ROOT = Paths.get(System.getProperty("mongo-redact.test.root"));
    private static final String GROUP = "io.github.mongoredact";
    private static final String URL = "https://github.com/mongoredact/mongo-redact";
    private static final String DRIVER = "org.mongodb:mongodb-driver-core";
    private static final String PROVIDED = "provided";
    private static final String COMPILE = "compile";
    private static final String OPTIONAL = "compile, optional";
    private static final String BOM = "mongo-redact-bom";

    /** A published jar: its module name, the packages its classes are in, its POM's dependencies (coordinates to scope). */
    private static final class Jar {
        final String module;
        final List<String> packages;
        final Map<String, String> dependencies = new TreeMap<>();

        Jar(final String module, final List<String> packages, final String... dependencies) {
            this.module = module;
            this.packages = packages;
            for (int i = 0; i < dependencies.length; i += 2) {
                this.dependencies.put(dependencies[i], dependencies[i + 1]);
            }
        }
    }

    private static final Map<String, Jar> JARS = new LinkedHashMap<>();

    static {
        String core = GROUP + ":mongo-redact";
        JARS.put("mongo-redact", new Jar("io.github.mongoredact", List.of("", "handoff", "internal"), DRIVER, PROVIDED));
        JARS.put("mongo-redact-slf4j", new Jar("io.github.mongoredact.log", List.of("log"),
                core, COMPILE, "org.slf4j:slf4j-api", COMPILE, DRIVER, PROVIDED));
        JARS.put("mongo-redact-micrometer", new Jar("io.github.mongoredact.micrometer", List.of("micrometer"),
                core, COMPILE, "io.micrometer:micrometer-core", COMPILE, DRIVER, PROVIDED));
        JARS.put("mongo-redact-opentelemetry", new Jar("io.github.mongoredact.otel", List.of("otel", "observation"),
                core, COMPILE, "io.opentelemetry:opentelemetry-api", COMPILE, DRIVER, PROVIDED,
                "org.mongodb:mongodb-driver-reactivestreams", PROVIDED));
        JARS.put("mongo-redact-spring-boot-autoconfigure", new Jar("io.github.mongoredact.spring", List.of("spring"),
                core, COMPILE, GROUP + ":mongo-redact-slf4j", COMPILE, GROUP + ":mongo-redact-micrometer", OPTIONAL,
                GROUP + ":mongo-redact-opentelemetry", OPTIONAL, "org.springframework.boot:spring-boot-autoconfigure", PROVIDED,
                "org.springframework.boot:spring-boot-mongodb", PROVIDED, DRIVER, PROVIDED));
        JARS.put("mongo-redact-spring-boot-starter", new Jar("io.github.mongoredact.spring.boot.starter", List.of(),
                core, COMPILE, GROUP + ":mongo-redact-spring-boot-autoconfigure", COMPILE, GROUP + ":mongo-redact-slf4j", COMPILE,
                GROUP + ":mongo-redact-micrometer", COMPILE));
    }

    @Test
    void everyPublishedPomIsFlattenedWithoutParentBuildProfilesOrPropertiesAndEveryVersionResolved() throws Exception {
        List<String> artifacts = new ArrayList<>(JARS.keySet());
        artifacts.add(BOM);
        for (String artifact : artifacts) {
            String text = Files.readString(installed(artifact, ".pom"), StandardCharsets.UTF_8);
            Element project = pom(artifact);
            assertFalse(text.contains("${"), artifact + ": an unresolved expression:\n" + text);
            for (String absent : List.of("profiles", "build", "properties", "repositories", "pluginRepositories", "parent")) {
                assertTrue(children(project, absent).isEmpty(), artifact + ": <" + absent + "> in the published POM:\n" + text);
            }
            for (String present : List.of("groupId", "artifactId", "version", "name", "description", "url", "licenses",
                    "developers", "scm")) {
                assertEquals(1, children(project, present).size(), artifact + ": <" + present + "> in the published POM:\n" + text);
            }
            assertEquals(GROUP + ":" + artifact + ":" + VERSION,
                    text(project, "groupId") + ":" + text(project, "artifactId") + ":" + text(project, "version"));
            assertEquals(URL, text(project, "url"), artifact + ": the project's address, not the module's");
            assertEquals(URL, text(first(project, "scm"), "url"), artifact);
            assertEquals("Apache License, Version 2.0", text(first(first(project, "licenses"), "license"), "name"), artifact);
        }
    }

    @Test
    void eachPomNamesWhatItsUsersGetTheCoreNothingButTheDriverAndNoIntegrationAnOptionalDependency() throws Exception {
        for (Map.Entry<String, Jar> jar : JARS.entrySet()) {
            Element project = pom(jar.getKey());
            Map<String, String> dependencies = new TreeMap<>();
            for (Element dependency : children(first(project, "dependencies"), "dependency")) {
                String coordinates = text(dependency, "groupId") + ":" + text(dependency, "artifactId");
                String version = text(dependency, "version");
                assertTrue(coordinates.startsWith(GROUP + ":") ? version.equals(VERSION) : version.matches("\\d+(\\.\\d+)+"),
                        jar.getKey() + ": a resolved version for " + coordinates + ": " + version);
                String scope = children(dependency, "scope").isEmpty() ? COMPILE : text(dependency, "scope");
                boolean optional = !children(dependency, "optional").isEmpty() && text(dependency, "optional").equals("true");
                dependencies.put(coordinates, optional ? scope + ", optional" : scope);
                if (coordinates.equals(DRIVER)) {
                    assertEquals("4.11.5", version, jar.getKey() + ": compiled against the oldest supported line");
                }
            }
            assertEquals(jar.getValue().dependencies, dependencies, jar.getKey() + ": the published dependencies");
        }
    }

    @Test
    void theBomManagesEveryPublishedArtifactAtThisVersionAndNothingElse() throws Exception {
        Element project = pom(BOM);
        assertEquals("pom", text(project, "packaging"));
        assertTrue(children(project, "dependencies").isEmpty(), "a BOM brings no dependency");
        Map<String, String> managed = new TreeMap<>();
        for (Element dependency : children(first(first(project, "dependencyManagement"), "dependencies"), "dependency")) {
            assertTrue(children(dependency, "scope").isEmpty() && children(dependency, "type").isEmpty(), text(dependency, "artifactId"));
            managed.put(text(dependency, "groupId") + ":" + text(dependency, "artifactId"), text(dependency, "version"));
        }
        Map<String, String> expected = new TreeMap<>();
        JARS.keySet().forEach(artifact -> expected.put(GROUP + ":" + artifact, VERSION));
        assertEquals(expected, managed);
    }

    @Test
    void eachJarCarriesTheLicenceItsModuleNameAndItsOwnPackagesOnly() throws IOException {
        String licence = Files.readString(ROOT.resolve("LICENSE"), StandardCharsets.UTF_8);
        for (Map.Entry<String, Jar> artifact : JARS.entrySet()) {
            try (JarFile jar = new JarFile(installed(artifact.getKey(), ".jar").toFile())) {
                JarEntry entry = jar.getJarEntry("META-INF/LICENSE");
                assertNotNull(entry, artifact.getKey() + ": META-INF/LICENSE");
                try (InputStream in = jar.getInputStream(entry)) {
                    assertEquals(licence, new String(in.readAllBytes(), StandardCharsets.UTF_8), artifact.getKey());
                }
                assertEquals(artifact.getValue().module, jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name"),
                        artifact.getKey());
                // no package in two jars: each jar's classes are in the packages of its own
                TreeSet<String> packages = new TreeSet<>();
                for (JarEntry file : Collections.list(jar.entries())) {
                    if (file.getName().endsWith(".class")) {
                        String name = file.getName();
                        packages.add(name.substring(0, Math.max(0, name.lastIndexOf('/'))).replace('/', '.'));
                    }
                }
                for (String pkg : packages) {
                    assertTrue(artifact.getValue().packages.stream().anyMatch(own -> isIn(pkg, own)),
                            artifact.getKey() + " holds " + pkg);
                }
                assertEquals(artifact.getValue().packages.isEmpty(), packages.isEmpty(), artifact.getKey() + ": " + packages);
            }
        }
    }

    @Test
    void eachPartIsCompiledForTheJavaItNeedsAndTheAutoConfigurationCarriesItsSpringFiles() throws IOException {
        // the library runs on Java 11; so must what reports, on any Spring Boot line, that the rest can not run there
        Map<String, List<String>> java11 = Map.of(
                "mongo-redact", List.of("RedactingCommandListener", "handoff/HandOffSink"),
                "mongo-redact-slf4j", List.of("log/CommandLogSink"),
                "mongo-redact-micrometer", List.of("micrometer/MicrometerCommandSink"),
                "mongo-redact-opentelemetry", List.of("otel/OpenTelemetryCommandSink", "observation/DriverTracing"),
                "mongo-redact-spring-boot-autoconfigure", List.of("spring/MongoRedactStartupCondition",
                        "spring/MongoRedactPropertyValidator", "spring/MongoRedactStartupException",
                        "spring/MongoRedactFailureAnalyzer"));
        for (Map.Entry<String, List<String>> artifact : java11.entrySet()) {
            try (JarFile jar = new JarFile(installed(artifact.getKey(), ".jar").toFile())) {
                for (String name : artifact.getValue()) {
                    assertEquals(55, classVersion(jar, "io/github/mongoredact/" + name), artifact.getKey() + ": " + name);
                }
            }
        }
        try (JarFile jar = new JarFile(installed("mongo-redact-spring-boot-autoconfigure", ".jar").toFile())) {
            for (String entry : List.of("META-INF/spring-configuration-metadata.json", "META-INF/spring.factories",
                    "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")) {
                assertNotNull(jar.getJarEntry(entry), entry);
            }
            assertEquals(61, classVersion(jar, "io/github/mongoredact/spring/MongoRedactAutoConfiguration"));
        }
    }

    @Test
    void eachJarHasItsSourcesJarAndJavadocJar() throws IOException {
        for (String artifact : JARS.keySet()) {
            Path target = ROOT.resolve(artifact).resolve("target");
            try (JarFile jar = new JarFile(installed(artifact, ".jar").toFile());
                 JarFile sources = new JarFile(target.resolve(artifact + "-" + VERSION + "-sources.jar").toFile());
                 JarFile javadoc = new JarFile(target.resolve(artifact + "-" + VERSION + "-javadoc.jar").toFile())) {
                assertTrue(sources.size() > 0 && javadoc.size() > 0, artifact);
                // every source folder's classes have their source (src/main/driver57 and src/main/java11 included)
                for (JarEntry file : Collections.list(jar.entries())) {
                    String name = file.getName();
                    if (name.endsWith(".class") && !name.contains("$")) {
                        String source = name.substring(0, name.length() - ".class".length()) + ".java";
                        assertNotNull(sources.getJarEntry(source), artifact + "-sources: " + source);
                    }
                }
                if (!JARS.get(artifact).packages.isEmpty()) {
                    assertNotNull(javadoc.getJarEntry("index.html"), artifact + "-javadoc: index.html");
                }
            }
        }
    }

    private static boolean isIn(final String pkg, final String own) {
        String base = own.isEmpty() ? GROUP : GROUP + "." + own;
        return own.isEmpty() ? pkg.equals(base) : pkg.equals(base) || pkg.startsWith(base + ".");
    }

    private static Path installed(final String artifact, final String extension) {
        return REPOSITORY.resolve(GROUP.replace('.', '/')).resolve(artifact).resolve(VERSION)
                .resolve(artifact + "-" + VERSION + extension);
    }

    private static Element pom(final String artifact) throws Exception {
        byte[] bytes = Files.readAllBytes(installed(artifact, ".pom"));
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(bytes))
                .getDocumentElement();
    }

    private static int classVersion(final JarFile jar, final String name) throws IOException {
        JarEntry entry = jar.getJarEntry(name + ".class");
        assertNotNull(entry, name);
        try (DataInputStream in = new DataInputStream(jar.getInputStream(entry))) {
            assertEquals(0xCAFEBABE, in.readInt(), name);
            in.readUnsignedShort();
            return in.readUnsignedShort();
        }
    }

    private static List<Element> children(final Element parent, final String name) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node node = nodes.item(i);
            if (node instanceof Element && ((Element) node).getTagName().equals(name)) {
                found.add((Element) node);
            }
        }
        return found;
    }

    private static Element first(final Element parent, final String name) {
        List<Element> found = children(parent, name);
        assertFalse(found.isEmpty(), "<" + name + ">");
        return found.get(0);
    }

    private static String text(final Element parent, final String name) {
        return first(parent, name).getTextContent().trim();
    }
}
