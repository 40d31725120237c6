package io.github.mongoredact.deny;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.SpanData;

import java.util.List;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The span attributes issue 33 added, counted in the spans the generator searched: the check that no planted value leaves
 * through them passes only if the workload made them (a query shape and its hash, a batch size, an error type, a summary
 * with an aggregation's pipeline targets, the conventions' span names).
 */
final class NewAttributes {
    private static final AttributeKey<String> HASH = AttributeKey.stringKey("db.mongodb.query_shape_hash");
    private static final AttributeKey<String> SHAPE = AttributeKey.stringKey("db.mongodb.query_shape");
    private static final AttributeKey<Long> BATCH = AttributeKey.longKey("db.operation.batch.size");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    private static final AttributeKey<String> OPERATION = AttributeKey.stringKey("db.operation.name");
    private static final AttributeKey<String> SUMMARY = AttributeKey.stringKey("db.query.summary");

    private NewAttributes() {
    }

    static void assertCovered(final List<SpanData> spans) {
        assertTrue(count(spans, s -> s.getAttributes().get(HASH) != null && s.getAttributes().get(SHAPE) != null) >= 10,
                "query shapes: " + describe(spans));
        assertTrue(count(spans, s -> s.getAttributes().get(BATCH) != null) >= 5, "batch sizes: " + describe(spans));
        assertTrue(count(spans, s -> s.getAttributes().get(ERROR_TYPE) != null) >= 10, "error types: " + describe(spans));
        assertTrue(count(spans, NewAttributes::pipelineTargets) >= 5, "summaries with targets: " + describe(spans));
        assertTrue(count(spans, s -> s.getAttributes().get(OPERATION) == null) == 0, "every span has db.operation.name");
    }

    static String describe(final List<SpanData> spans) {
        return count(spans, s -> s.getAttributes().get(HASH) != null) + " with a query shape, "
                + count(spans, s -> s.getAttributes().get(BATCH) != null) + " with a batch size, "
                + count(spans, s -> s.getAttributes().get(ERROR_TYPE) != null) + " with an error type, "
                + count(spans, NewAttributes::pipelineTargets) + " with an aggregation's pipeline targets in the summary";
    }

    /** A conventions' summary of an aggregate that names more than its own target. */
    private static boolean pipelineTargets(final SpanData span) {
        String summary = span.getAttributes().get(SUMMARY);
        return "aggregate".equals(span.getAttributes().get(OPERATION)) && summary != null && !summary.contains(".")
                && summary.split(" ").length > 2;
    }

    private static long count(final List<SpanData> spans, final Predicate<SpanData> test) {
        return spans.stream().filter(test).count();
    }
}
