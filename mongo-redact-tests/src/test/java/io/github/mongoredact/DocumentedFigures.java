package io.github.mongoredact;

import java.util.List;

import static io.github.mongoredact.DocumentedFigure.mibBound;
import static io.github.mongoredact.DocumentedFigure.printed;
import static io.github.mongoredact.DocumentedFigure.printedAbout;

/**
 * The figures that the README and the guides under docs/ quote from tests, each with the test that prints it. A figure added
 * to a document that a test gives belongs here.
 */
final class DocumentedFigures {
    private static final String CORE = "mongo-redact";
    private static final String MICROMETER = "mongo-redact-micrometer";
    private static final String OPENTELEMETRY = "mongo-redact-opentelemetry";
    private static final String VIRTUAL_THREADS = "mongo-redact/src/test/java/io/github/mongoredact/VirtualThreadMemoryTest.java";
    private static final String PLATFORM_THREADS = "mongo-redact/src/test/java/io/github/mongoredact/PlatformThreadMemoryTest.java";
    private static final String PARKED_THREADS = "mongo-redact/src/test/java/io/github/mongoredact/MemoryBoundTest.java";

    /** Micrometer's listener, measured from 968 to 1,147 bytes per pair in runs of the same build. */
    private static final int MICROMETERS_LISTENER_SPREAD = 20;
    /** A tags provider's pair (Micrometer's timer lookup by the provider's tags): from 784 to 920 bytes per pair. */
    private static final int PROVIDER_SPREAD = 10;
    /**
     * The listener's pair with the metrics sink, 112 bytes: 48 fewer in some runs of the same build (64 in 4 of 35), where
     * the JIT compiler's escape analysis removes the {@code CompletedCommand}, which the sink does not keep.
     */
    private static final long ESCAPE_ANALYSIS = 48;

    /** Over 100 calls, the average moved by up to 5 bytes between runs of the same build (566,097 to 566,102). */
    private static final long ONE_OFF_IN_100_CALLS = 16;
    /** How far the kept driver views that read back wrong or threw may lie from the quoted counts (13 or 14 wrong seen). */
    private static final long READ_BACK_VARIES = 2;

    static final List<DocumentedFigure> ALL = List.of(
            printed("README.md", "of # commands a listener kept, about # read back silently wrong after 200 more inserts and"
                    + " about # threw", CORE, "LifetimeTest", "kept driver commands", "read back wrong", "threw")
                    .within(READ_BACK_VARIES),
            printed("docs/guarantees.md", "of the # commands of a workload", CORE, "LifetimeTest", "kept driver commands"),
            printed("docs/guarantees.md", "**about # read back silently wrong** (the find, its `getMore`s", CORE,
                    "LifetimeTest", "read back wrong").within(READ_BACK_VARIES),
            printed("docs/guarantees.md", "and **about # threw** `BsonSerializationException`", CORE, "LifetimeTest", "threw")
                    .within(READ_BACK_VARIES),
            mibBound("README.md", "virtual threads that each ran a command through the real driver hold at most # MiB more heap",
                    VIRTUAL_THREADS),
            mibBound("docs/guarantees.md", "one find hold at most # MiB more heap with the listener than without", VIRTUAL_THREADS),
            mibBound("docs/guarantees.md", "of 400 platform threads differs by at most # MiB", PLATFORM_THREADS),
            mibBound("docs/guarantees.md", "sent a 1 MB command hold at most # MiB more", PARKED_THREADS),
            allocation("insert of 1000 documents (driver buffer on the heap) | `specOnly()` | # | # | # |",
                    "insert 1000 specOnly BYTE_BUF_HEAP_IN_MESSAGE"),
            allocation("insert of 1000 documents (driver direct buffer) | `defaults()` | # | # | # |",
                    "insert 1000 defaults BYTE_BUF_DIRECT"),
            allocation("`find` (no sequence, driver buffer on the heap) | `specOnly()` | # | # | # |",
                    "find specOnly BYTE_BUF_HEAP_IN_MESSAGE"),
            allocation("`find` (no sequence, driver buffer on the heap) | `defaults()` | # | # | # |",
                    "find defaults BYTE_BUF_HEAP_IN_MESSAGE"),
            allocation("`find` reply of 100 documents | `specOnly()` | # | # | # |",
                    "find reply 100 specOnly BYTE_BUF_HEAP_IN_MESSAGE"),
            allocation("`find` reply of 100 documents | `defaults()` | # | # | # |",
                    "find reply 100 defaults BYTE_BUF_HEAP_IN_MESSAGE"),
            allocation("insert over 1 MiB (9,000 documents, 100 calls) | `defaults()` | about # | # | about # |",
                    "insert over 1 MiB defaults BYTE_BUF_DIRECT (100 calls)").within(ONE_OFF_IN_100_CALLS),
            printed("docs/testing.md", "`saslStart` (redacted by the spec) | `specOnly()` / `defaults()` | # / # |", CORE,
                    "AllocationTest", "saslStart specOnly RAW bytes/call", "saslStart defaults RAW bytes/call"),
            printed("docs/testing.md", "a sink that needs no documents | `specOnly()` / `defaults()` | # / # |", CORE,
                    "AllocationTest", "sink without documents, find + reply specOnly bytes/call",
                    "sink without documents, find + reply defaults bytes/call"),
            printedAbout("docs/comparison.md", "looks up the timer per completed command: about # bytes per started + succeeded"
                    + " pair", MICROMETERS_LISTENER_SPREAD, MICROMETER, "MicrometerCommandSinkAllocationTest",
                    "MongoMetricsCommandListener bytes/pair"),
            micrometer("docs/comparison.md", "the metrics sink: # bytes per pair once its meters exist",
                    "metrics sink alone bytes/pair"),
            micrometer("docs/comparison.md", "listener and metrics sink together # (same test; # where",
                    "listener + metrics sink bytes/pair", "listener + metrics sink bytes/pair").within(ESCAPE_ANALYSIS),
            printedAbout("docs/sinks.md", "about # bytes per `find` pair with the provider", PROVIDER_SPREAD, MICROMETER,
                    "MicrometerCommandSinkAllocationTest", "with a tags provider bytes/pair"),
            micrometer("docs/sinks.md", "against # without one (# where escape analysis removes the `CompletedCommand`",
                    "listener + metrics sink bytes/pair", "listener + metrics sink bytes/pair").within(ESCAPE_ANALYSIS),
            micrometer("docs/sinks.md", "Micrometer's own listener with that provider: #)",
                    "MongoMetricsCommandListener with the provider bytes/pair"),
            micrometer("docs/sinks.md", "steady state allocates nothing (measured: # bytes per started + succeeded pair",
                    "metrics sink alone with both tags bytes/pair"),
            micrometer("docs/sinks.md", "also with `command.fingerprint` and `query.shape.hash`) | # |",
                    "metrics sink alone with both tags bytes/pair"),
            micrometer("docs/sinks.md", "(no copies: the sink needs no documents) | # (the `StartedCommand` and `CompletedCommand`"
                    + " objects; # in some runs", "listener + metrics sink bytes/pair", "listener + metrics sink bytes/pair")
                    .within(ESCAPE_ANALYSIS),
            micrometer("docs/sinks.md", "the owned copy of that #-byte find would be # |", "command bytes",
                    "owned command copy bytes"),
            micrometer("docs/sinks.md", "a sink that needs documents (copies of command and reply) | # (",
                    "listener + copying sink bytes/pair"),
            printedAbout("docs/sinks.md", "Micrometer's own `MongoMetricsCommandListener`, same events | about # (",
                    MICROMETERS_LISTENER_SPREAD, MICROMETER, "MicrometerCommandSinkAllocationTest",
                    "MongoMetricsCommandListener bytes/pair"),
            micrometer("docs/spring-boot.md", "Measured on one `find` of # bytes (`MicrometerCommandSinkAllocationTest`)",
                    "command bytes"),
            micrometer("docs/spring-boot.md", "(`MicrometerCommandSinkAllocationTest`): # bytes per started + succeeded pair"
                    + " without a provider (# where escape analysis", "listener + metrics sink bytes/pair",
                    "listener + metrics sink bytes/pair").within(ESCAPE_ANALYSIS),
            printedAbout("docs/spring-boot.md", "removes one of its two objects), about # with `event -> Tags.of(", PROVIDER_SPREAD,
                    MICROMETER, "MicrometerCommandSinkAllocationTest", "with a tags provider bytes/pair"),
            micrometer("docs/spring-boot.md", "of which Micrometer's own listener allocates # with that provider",
                    "MongoMetricsCommandListener with the provider bytes/pair"),
            micrometer("docs/metrics.md", "(# bytes per started + succeeded pair with both tags, `MicrometerCommandSinkAllocationTest`)",
                    "metrics sink alone with both tags bytes/pair"),
            printed("docs/tracing.md", "recording a command allocates nothing in the sink: # bytes per command", OPENTELEMETRY,
                    "OpenTelemetryMetricsSinkAllocationTest", "metrics sink alone bytes/command"));

    private DocumentedFigures() {
    }

    private static DocumentedFigure micrometer(final String document, final String text, final String... figures) {
        return printed(document, text, MICROMETER, "MicrometerCommandSinkAllocationTest", figures);
    }

    /** @return a row of the allocation table in docs/testing.md: bytes per call, output, overhead */
    private static DocumentedFigure allocation(final String row, final String label) {
        return printed("docs/testing.md", row, CORE, "AllocationTest", label + " bytes/call", label + " output",
                label + " bytes/call - " + label + " output");
    }
}
