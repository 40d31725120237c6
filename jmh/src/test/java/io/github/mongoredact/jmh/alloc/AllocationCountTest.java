package io.github.mongoredact.jmh.alloc;

import io.github.mongoredact.jmh.report.ResultFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AllocationCountTest {
    @TempDir
    Path dir;

    @Test
    void theVirtualThreadCasesAreLeftOut() throws IOException {
        String json = "[" + result("io.github.mongoredact.jmh.threads.OursDefaultsBenchmark.pairOnPlatformThread") + ","
                + result("io.github.mongoredact.jmh.threads.OursDefaultsBenchmark.pairOnVirtualThread") + ","
                + result("io.github.mongoredact.jmh.roundtrip.OursBenchmark.findByIdOnVirtualThread") + "]";
        Path file = dir.resolve("results.json");
        Files.write(file, json.getBytes(StandardCharsets.UTF_8));
        List<ResultFiles.Allocs> cases = AllocationCount.cases(file);
        assertEquals(1, cases.size());
        assertEquals("io.github.mongoredact.jmh.threads.OursDefaultsBenchmark.pairOnPlatformThread", cases.get(0).benchmark);
    }

    private static String result(final String benchmark) {
        return "{\"benchmark\": \"" + benchmark + "\", \"mode\": \"avgt\", \"primaryMetric\": {\"score\": 1.0, "
                + "\"scoreUnit\": \"ns/op\"}}";
    }
}
