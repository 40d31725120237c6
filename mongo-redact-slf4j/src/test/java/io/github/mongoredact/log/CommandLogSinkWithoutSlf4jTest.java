package io.github.mongoredact.log;

import io.github.mongoredact.LibraryWarnings;
import io.github.mongoredact.RedactingCommandListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.File;
import java.io.IOException;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Field;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The log sink where SLF4J is not visible, on the class path and on the module path: off after one warning through
 * java.util.logging that says where it looked and how to add SLF4J either way.
 */
class CommandLogSinkWithoutSlf4jTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();


    @Test
    void isOffAfterOneJulWarningWithoutSlf4j() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!Path.of(entry).getFileName().toString().startsWith("slf4j-")) {
                urls.add(toUrl(entry));
            }
        }
        String loggerName = "test.mongoredact.noslf4j";
        List<LogRecord> records = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(final LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger jul = Logger.getLogger(loggerName);
        jul.addHandler(handler);
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader())) {
            assertThrows(ClassNotFoundException.class, () -> loader.loadClass("org.slf4j.Logger"));
            Class<?> sinkClass = loader.loadClass(CommandLogSink.class.getName());
            assertTrue(sinkClass != CommandLogSink.class, "loaded apart from the test's class path");
            for (int i = 0; i < 3; i++) {
                Object builder = sinkClass.getMethod("builder").invoke(null);
                builder.getClass().getMethod("loggerName", String.class).invoke(builder, loggerName);
                Object sink = builder.getClass().getMethod("build").invoke(builder);
                assertEquals(false, sinkClass.getMethod("needsDocuments").invoke(sink));
            }
        } finally {
            jul.removeHandler(handler);
        }
        assertEquals(1, records.size(), "one warning for three sinks");
        assertEquals(java.util.logging.Level.WARNING, records.get(0).getLevel());
        String message = records.get(0).getMessage();
        assertTrue(message.startsWith("SLF4J (org.slf4j:slf4j-api) is not visible to mongo-redact (the unnamed module,"
                + " class loader java.net.URLClassLoader"), message);
        assertSaysHowToAddItEitherWay(message);
        warnings.assertSaid("is not visible to mongo-redact");
    }

    /** @return the one java.util.logging warning of a sink built through the loader's classes */
    private static String warningOfASinkBuiltWith(final ClassLoader loader, final String loggerName) throws Exception {
        List<LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(final LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger jul = Logger.getLogger(loggerName);
        jul.addHandler(handler);
        try {
            Class<?> sinkClass = loader.loadClass(CommandLogSink.class.getName());
            Object builder = sinkClass.getMethod("builder").invoke(null);
            builder.getClass().getMethod("loggerName", String.class).invoke(builder, loggerName);
            Object sink = builder.getClass().getMethod("build").invoke(builder);
            assertEquals(false, sinkClass.getMethod("needsDocuments").invoke(sink));
        } finally {
            jul.removeHandler(handler);
        }
        assertEquals(1, records.size(), records.toString());
        return records.get(0).getMessage();
    }

    /** The message must not guess how the application runs: both ways, and no claim that it is a class path. */
    private static void assertSaysHowToAddItEitherWay(final String message) {
        assertTrue(message.contains("the mongo-redact command log is off"), message);
        assertTrue(message.contains("on the class path, or on the module path"), message);
        assertTrue(message.contains("`requires org.slf4j;`") && message.contains("--add-modules org.slf4j"), message);
        assertFalse(message.contains("not found on the class path"), message);
    }

    @Test
    void namesItsModuleWhenOnTheModulePathWithoutSlf4j() throws Exception {
        Path jar = Files.createTempFile("mongo-redact-slf4j-module", ".jar");
        Path core = Files.createTempFile("mongo-redact-module", ".jar");
        try {
            writeModuleJar(classesOf(CommandLogSink.class), jar, "io.github.mongoredact.log");
            List<Path> modulePath = new ArrayList<>();
            modulePath.add(jar);
            modulePath.add(Files.isDirectory(classesOf(RedactingCommandListener.class))
                    ? writeModuleJar(classesOf(RedactingCommandListener.class), core, "io.github.mongoredact")
                    : classesOf(RedactingCommandListener.class));
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                String name = Path.of(entry).getFileName().toString();
                if (name.startsWith("mongodb-driver-core-") || name.matches("bson-\\d.*\\.jar")) {
                    modulePath.add(Path.of(entry));
                }
            }
            assertEquals(4, modulePath.size(), modulePath.toString());
            Configuration configuration = ModuleLayer.boot().configuration().resolve(
                    ModuleFinder.of(modulePath.toArray(new Path[0])), ModuleFinder.of(), Set.of("io.github.mongoredact.log"));
            ModuleLayer layer = ModuleLayer.boot().defineModulesWithOneLoader(configuration,
                    ClassLoader.getPlatformClassLoader());
            Class<?> presence = layer.findLoader("io.github.mongoredact.log")
                    .loadClass(CommandLog.Slf4jPresence.class.getName());
            assertEquals("io.github.mongoredact.log", presence.getModule().getName(), "loaded as a named module");
            Field missing = presence.getDeclaredField("MISSING");
            missing.setAccessible(true);
            assertEquals("org.slf4j.Logger", missing.get(null));
            String text = warningOfASinkBuiltWith(layer.findLoader("io.github.mongoredact.log"), "test.mongoredact.module");
            assertTrue(text.startsWith("SLF4J (org.slf4j:slf4j-api) is not visible to mongo-redact (module"
                    + " io.github.mongoredact.log, class loader "), text);
            assertSaysHowToAddItEitherWay(text);
        } finally {
            Files.deleteIfExists(jar);
            Files.deleteIfExists(core);
        }
        warnings.assertSaid("is not visible to mongo-redact");
    }

    @Test
    void saysSlf4jTwoIsNeededWhenOnlySlf4jOneIsVisible() {
        String text = CommandLog.Slf4jPresence.message("org.slf4j.spi.LoggingEventBuilder", CommandLog.class.getModule());
        assertTrue(text.startsWith("SLF4J 1 was found, but SLF4J 2 (org.slf4j:slf4j-api 2.x, which has"
                + " org.slf4j.spi.LoggingEventBuilder) is not visible to mongo-redact (the unnamed module"), text);
        assertSaysHowToAddItEitherWay(text);
    }

    /** Where a class was loaded from: a module's compiled classes, or its jar (the core's, in a build that packaged it). */
    private static Path classesOf(final Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** Packs the compiled classes into a jar that names its automatic module, as the artifact does. */
    private static Path writeModuleJar(final Path classes, final Path jar, final String module) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Automatic-Module-Name", module);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
             Stream<Path> files = Files.walk(classes)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                String name = classes.relativize(file).toString().replace(File.separatorChar, '/');
                if (name.startsWith("META-INF/")) {
                    continue;
                }
                out.putNextEntry(new JarEntry(name));
                out.write(Files.readAllBytes(file));
                out.closeEntry();
            }
        }
        return jar;
    }

    private static URL toUrl(final String entry) {
        try {
            return new File(entry).toURI().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }
}
