package io.github.mongoredact.jmh;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every benchmark forks with a fixed, pre-touched heap (issue 11): without it a fork pays for each page it touches first. */
class ForkSettingsTest {

    @Test
    void everyBenchmarkForksWithAFixedPreTouchedHeap() throws IOException, URISyntaxException, ClassNotFoundException {
        List<String> checked = new ArrayList<>();
        for (Class<?> type : benchmarkClasses()) {
            Fork fork = type.getAnnotation(Fork.class);
            assertTrue(fork != null, type.getName() + " has no @Fork");
            assertEquals(Arrays.asList("-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"), Arrays.asList(fork.jvmArgsAppend()),
                    type.getName());
            assertEquals(Arrays.asList(Fork.BLANK_ARGS), Arrays.asList(fork.jvmArgs()), type.getName());
            assertEquals(Arrays.asList(Fork.BLANK_ARGS), Arrays.asList(fork.jvmArgsPrepend()), type.getName());
            checked.add(type.getName().substring("io.github.mongoredact.jmh.".length()));
        }
        assertTrue(checked.containsAll(Arrays.asList("FloorFramingCopyBenchmark", "FloorOnePassBenchmark",
                "FloorTwoPassBenchmark", "CodecEncodingBenchmark", "CopyOfBenchmark", "CloneBenchmark", "OursDefaultsBenchmark",
                "OursSpecOnlyBenchmark", "MicrometerListenerBenchmark", "DriverNoListenerBenchmark", "FloorForwardedBenchmark",
                "mix.FloorFramingCopyBenchmark", "mix.FloorOnePassBenchmark", "mix.FloorForwardedBenchmark",
                "mix.CodecEncodingBenchmark", "threads.OursDefaultsBenchmark", "threads.NoListenerBenchmark")),
                checked.toString());
    }

    private static List<Class<?>> benchmarkClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Paths.get(FloorInput.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = root.resolve("io/github/mongoredact/jmh");
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
                if (name.endsWith("Benchmark.class")) {
                    Class<?> type = Class.forName(name.substring(0, name.length() - ".class".length()));
                    if (!Modifier.isAbstract(type.getModifiers()) && hasBenchmark(type)) {
                        classes.add(type);
                    }
                }
            }
        }
        return classes;
    }

    private static boolean hasBenchmark(final Class<?> type) {
        for (Method m : type.getMethods()) {
            if (m.isAnnotationPresent(Benchmark.class)) {
                return true;
            }
        }
        return false;
    }
}
