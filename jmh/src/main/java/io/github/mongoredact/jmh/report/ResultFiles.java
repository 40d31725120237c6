package io.github.mongoredact.jmh.report;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON files the reports read and write, bound by Jackson: JMH's result file ({@code -rf json}) as far as the reports
 * read it, and the allocs/op file of {@code AllocationCount}.
 */
public final class ResultFiles {
    /** JMH's secondary metric for B/op, from {@code -prof gc}. */
    public static final String NORM = "gc.alloc.rate.norm";
    /** Reads NaN as JMH writes it; writes decimals as given ({@code 464.0140}), leaves out absent fields. */
    static final ObjectMapper MAPPER = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true)).enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .serializationInclusion(JsonInclude.Include.NON_NULL).build();

    private ResultFiles() {
    }

    /** One benchmark at one parameter set in a JMH result file. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static final class Jmh {
        public String benchmark;
        public String mode;
        /** Absent when the benchmark has no {@code @Param}. */
        public Map<String, String> params;
        public Metric primaryMetric;
        public Map<String, Metric> secondaryMetrics;
    }

    /** A JMH metric: the score, its 99.9 % error, its unit and the measurement iterations of every fork. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static final class Metric {
        public double score = Double.NaN;
        public double scoreError = Double.NaN;
        public String scoreUnit;
        public double[][] rawData;
    }

    /** allocs/op of one case, counted by {@code AllocationCount}; the output size is -1 when the case returns no document. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static final class Allocs {
        public String benchmark;
        public Map<String, String> params = new LinkedHashMap<>();
        public double allocsPerOp = Double.NaN;
        public double instrumentedBytesPerOp = Double.NaN;
        public long outputBytes = -1;
        public long ops;
    }

    /** @return the results of a JMH result file */
    public static List<Jmh> readJmh(final Path file) throws IOException {
        return MAPPER.readValue(file.toFile(), new TypeReference<List<Jmh>>() { });
    }

    /** @return the cases of an allocs/op file */
    public static List<Allocs> readAllocs(final Path file) throws IOException {
        return MAPPER.readValue(file.toFile(), new TypeReference<List<Allocs>>() { });
    }

    /**
     * Writes a value as JSON, one line per element down to {@code depth} levels (1: one line per element of the top-level
     * array), everything deeper on that line.
     */
    public static void write(final Path file, final Object value, final int depth) throws IOException {
        Files.write(file, (json(value, depth) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    static String json(final Object value, final int depth) throws IOException {
        DefaultPrettyPrinter.Indenter lines = new DefaultPrettyPrinter.Indenter() {
            @Override
            public void writeIndentation(final JsonGenerator g, final int level)
                    throws IOException {
                // the container being filled or closed decides: at most depth deep, one line per element
                g.writeRaw(g.getOutputContext().getNestingDepth() <= depth ? "\n" + "  ".repeat(level) : " ");
            }

            @Override
            public boolean isInline() {
                return false;
            }
        };
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter(Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)).withArrayIndenter(lines).withObjectIndenter(lines);
        return MAPPER.writer(printer).writeValueAsString(value);
    }
}
