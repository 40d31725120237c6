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
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The artifact as it is installed and published: the build's {@code published-artifact} execution runs this after
 * {@code invoker:install} has put the jar and its POM into {@code target/it-repo}, as {@code install} and {@code deploy} would
 * (the system property {@code mongo-redact.test.installed} names them without their extension).
 */
class PublishedArtifactIT {
    private static final String INSTALLED = System.getProperty("mongo-redact.test.installed");

    @Test
    void thePomIsFlattenedWithoutBuildProfilesOrPropertiesAndEveryVersionResolved() throws Exception {
        byte[] bytes = Files.readAllBytes(Paths.get(INSTALLED + ".pom"));
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertFalse(text.contains("${"), "an unresolved expression:\n" + text);
        Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(bytes))
                .getDocumentElement();
        for (String absent : List.of("profiles", "build", "properties", "repositories", "pluginRepositories", "parent")) {
            assertTrue(children(project, absent).isEmpty(), "<" + absent + "> in the published POM:\n" + text);
        }
        for (String present : List.of("groupId", "artifactId", "version", "name", "description", "url", "licenses",
                "developers", "scm", "dependencies")) {
            assertEquals(1, children(project, present).size(), "<" + present + "> in the published POM:\n" + text);
        }
        assertEquals("Apache License, Version 2.0", text(first(first(project, "licenses"), "license"), "name"));
        List<Element> dependencies = children(first(project, "dependencies"), "dependency");
        assertTrue(dependencies.size() >= 4, text);
        boolean driver = false;
        for (Element dependency : dependencies) {
            String coordinates = text(dependency, "groupId") + ":" + text(dependency, "artifactId");
            assertTrue(text(dependency, "version").matches("\\d+(\\.\\d+)+"), "a resolved version for " + coordinates);
            String scope = children(dependency, "scope").isEmpty() ? "compile" : text(dependency, "scope");
            assertFalse(scope.equals("test"), "a test dependency is published: " + coordinates);
            boolean optional = !children(dependency, "optional").isEmpty() && text(dependency, "optional").equals("true");
            assertTrue(scope.equals("provided") || optional, "users bring or choose every dependency: " + coordinates);
            if (coordinates.equals("org.mongodb:mongodb-driver-core")) {
                driver = true;
                assertEquals("4.11.5", text(dependency, "version"), "compiled against the oldest supported line");
                assertEquals("provided", scope);
            }
        }
        assertTrue(driver, text);
    }

    @Test
    void theJarCarriesItsLicenceItsSpringFilesAndClassesForTheJavaEachPartNeeds() throws IOException {
        try (JarFile jar = new JarFile(INSTALLED + ".jar")) {
            JarEntry licence = jar.getJarEntry("META-INF/LICENSE");
            assertNotNull(licence, "META-INF/LICENSE");
            try (InputStream in = jar.getInputStream(licence)) {
                assertEquals(Files.readString(Paths.get(System.getProperty("mongo-redact.test.licence"))),
                        new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            for (String entry : List.of("META-INF/spring-configuration-metadata.json", "META-INF/spring.factories",
                    "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")) {
                assertNotNull(jar.getJarEntry(entry), entry);
            }
            // the library runs on Java 11; so must what reports, on any Spring Boot line, that the rest can not run there
            for (String java11 : List.of("io/github/mongoredact/RedactingCommandListener",
                    "io/github/mongoredact/spring/MongoRedactStartupCondition",
                    "io/github/mongoredact/spring/MongoRedactPropertyValidator",
                    "io/github/mongoredact/spring/MongoRedactStartupException",
                    "io/github/mongoredact/spring/MongoRedactFailureAnalyzer")) {
                assertEquals(55, classVersion(jar, java11), java11);
            }
            assertEquals(61, classVersion(jar, "io/github/mongoredact/spring/MongoRedactAutoConfiguration"));
        }
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
