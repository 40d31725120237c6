package io.github.mongoredact;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The log sink on a class path without SLF4J: off after one warning through java.util.logging. */
class CommandLogSinkWithoutSlf4jTest {

    @Test
    void isOffAfterOneJulWarningWithoutSlf4j() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.contains("slf4j")) {
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
        assertTrue(records.get(0).getMessage().contains("SLF4J"), records.get(0).getMessage());
        assertFalse(records.get(0).getMessage().isEmpty());
    }

    private static URL toUrl(final String entry) {
        try {
            return new File(entry).toURI().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }
}
