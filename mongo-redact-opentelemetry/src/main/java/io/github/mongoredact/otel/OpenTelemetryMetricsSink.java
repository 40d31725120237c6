package io.github.mongoredact.otel;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.CallbackGuard;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.DoubleHistogramBuilder;
import io.opentelemetry.api.metrics.LongHistogram;
import io.opentelemetry.api.metrics.LongHistogramBuilder;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.MeterBuilder;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link CommandSink} that records OpenTelemetry's database client metrics through the OpenTelemetry metrics API, as the
 * semantic conventions define them, from the owned events of the listener.
 *
 * <pre>{@code
 * RedactingCommandListener listener = RedactingCommandListener.builder()
 *         .addSink(OpenTelemetryMetricsSink.builder(openTelemetry).build())
 *         .build();
 * }</pre>
 *
 * <ul>
 *   <li>{@value #OPERATION_DURATION} (histogram, {@code s}, double): every command's duration as the driver measured it
 *   (the span's duration), with the buckets the conventions advise, {@code [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10]},
 *   where the API at run time takes advice (1.32 and later; 1.31 with the incubator the SDK brings): on 1.31 alone the
 *   SDK's default buckets, unless a view sets them ({@link #getBucketAdvice()}).</li>
 *   <li>{@value #RETURNED_ROWS} (histogram, <code>{row}</code>, long; opt-in, {@link Builder#returnedRows(boolean)}): the
 *   documents of the batch a cursor reply carries, read from the redacted reply; buckets advised
 *   {@code [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000]}.</li>
 *   <li>Attributes: {@code db.system.name} ({@code mongodb}), {@code db.namespace} (the database), {@code db.collection.name}
 *   (where the command names one, not on {@code admin}), {@code db.operation.name} (the command's name),
 *   {@code server.address}, {@code server.port}; on an error (a failure, or a reply that reports errors under
 *   {@code ok: 1}) {@code error.type} (the server's positive code as a string, else the redacted failure's fully qualified
 *   class name, else {@code _OTHER}) and {@code db.response.status_code} (that code, where there is one).</li>
 * </ul>
 *
 * <p>Cost: the attribute sets are made once per server, database, collection and command name (the first 4096 kinds; later
 * ones: {@link #getCommandsOfUncachedKinds()}) and per error of a kind (its first 16), and found again without allocation:
 * once warm, recording a command allocates nothing in this sink. It asks for no document, fingerprint nor shape, so with it
 * alone the listener copies nothing; {@link Builder#returnedRows(boolean)} asks for the redacted replies, and costs their
 * copies.</p>
 *
 * <p>It never throws into its caller: whatever fails is caught, counted ({@link #getFailures()}) and reported once as a
 * warning, then at debug level. Threading: thread-safe; called on the driver's threads, where the instruments record.</p>
 *
 * @since 0.6
 */
public final class OpenTelemetryMetricsSink implements CommandSink {
    /** The name of the meter, the instrumentation scope of the metrics. */
    public static final String INSTRUMENTATION_NAME = OpenTelemetryCommandSink.INSTRUMENTATION_NAME;
    /** The conventions' duration histogram. */
    public static final String OPERATION_DURATION = "db.client.operation.duration";
    /** The conventions' returned-rows histogram. */
    public static final String RETURNED_ROWS = "db.client.response.returned_rows";
    /** The conventions' bucket advice for {@value #OPERATION_DURATION}, in seconds. */
    static final List<Double> DURATION_BUCKETS = Collections.unmodifiableList(Arrays.asList(0.001, 0.005, 0.01, 0.05, 0.1,
            0.5, 1.0, 5.0, 10.0));
    /** The conventions' bucket advice for {@value #RETURNED_ROWS}. */
    static final List<Long> ROWS_BUCKETS = Collections.unmodifiableList(Arrays.asList(1L, 2L, 5L, 10L, 20L, 50L, 100L, 200L,
            500L, 1000L, 2000L, 5000L, 10000L));
    private static final double NANOS_PER_SECOND = 1e9;

    private final DoubleHistogram duration;
    @Nullable
    private final LongHistogram rows;
    private final boolean returnedRows;
    private final BucketAdvice.Path advice;
    private final MetricKinds kinds = new MetricKinds();
    private final LongAdder uncachedErrors = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final CallbackGuard guard = new CallbackGuard(OpenTelemetryMetricsSink.class);

    private OpenTelemetryMetricsSink(final Builder builder) {
        MeterBuilder meterBuilder = builder.openTelemetry.getMeterProvider().meterBuilder(INSTRUMENTATION_NAME);
        String version = OpenTelemetryMetricsSink.class.getPackage().getImplementationVersion();
        Meter meter = (version == null ? meterBuilder : meterBuilder.setInstrumentationVersion(version)).build();
        DoubleHistogramBuilder durationBuilder = meter.histogramBuilder(OPERATION_DURATION).setUnit("s")
                .setDescription("Duration of database client operations.");
        this.advice = BucketAdvice.apply(durationBuilder, DURATION_BUCKETS);
        this.duration = durationBuilder.build();
        this.returnedRows = builder.returnedRows;
        if (returnedRows) {
            LongHistogramBuilder rowsBuilder = meter.histogramBuilder(RETURNED_ROWS).ofLongs().setUnit("{row}")
                    .setDescription("The actual number of records returned by the database operation.");
            BucketAdvice.apply(rowsBuilder, ROWS_BUCKETS);
            this.rows = rowsBuilder.build();
        } else {
            this.rows = null;
        }
    }

    /**
     * @param openTelemetry the OpenTelemetry whose meter provider records the metrics
     * @return a new builder
     * @since 0.6
     */
    public static Builder builder(final OpenTelemetry openTelemetry) {
        return new Builder(openTelemetry);
    }

    /** @return false: the metrics read no command document */
    @Override
    public boolean needsDocuments() {
        return false;
    }

    /** @return true only with {@link Builder#returnedRows(boolean)}: the rows are counted in the redacted reply */
    @Override
    public boolean needsReplyDocuments() {
        return returnedRows;
    }

    /** @return false: the metrics carry no fingerprint */
    @Override
    public boolean needsFingerprint() {
        return false;
    }

    /**
     * @return false: the metrics carry no command size
     * @since 0.7
     */
    @Override
    public boolean needsCommandSize() {
        return false;
    }

    @Override
    public void completed(final CompletedCommand command) {
        try {
            MetricKind kind = kinds.of(command.getStarted());
            Attributes attributes = kind.succeeded;
            if (command.hasError()) {
                attributes = kind.error(command);
                if (attributes == null) {
                    uncachedErrors.increment();
                    attributes = MetricKind.withError(kind.succeeded, command);
                }
            }
            duration.record(command.getElapsedNanos() / NANOS_PER_SECOND, attributes);
            if (rows != null) {
                long returned = ReturnedRows.of(command);
                if (returned >= 0) {
                    rows.record(returned, attributes);
                }
            }
        } catch (Throwable t) {
            CallbackGuard.rethrowIfStopRequest(t);
            failures.increment();
            guard.log("OpenTelemetryMetricsSink failed to record a command and dropped its measurement (counted in"
                    + " getFailures()): " + t.getClass().getName(), t);
        }
    }

    /**
     * @return how many times recording a command failed; each was caught, never thrown into the driver
     * @since 0.6
     */
    public long getFailures() {
        return failures.sum();
    }

    /**
     * @return the commands whose attribute set was made for them alone: their kind came after the 4096 the sink keeps, or
     *         their error after the 16 errors of their kind it keeps
     * @since 0.6
     */
    public long getCommandsOfUncachedKinds() {
        return kinds.notKept() + uncachedErrors.sum();
    }

    /**
     * @return whether {@value #RETURNED_ROWS} is recorded
     * @since 0.6
     */
    public boolean isReturnedRows() {
        return returnedRows;
    }

    /**
     * @return whether the duration histogram took the conventions' buckets as advice: {@code "api"} (OpenTelemetry API
     *         1.32+), {@code "incubator"} (API 1.31 with its incubator, as the SDK 1.31 brings it) or {@code "none"} (the
     *         SDK's default buckets, unless a view sets them)
     * @since 0.6
     */
    public String getBucketAdvice() {
        return advice == BucketAdvice.Path.STABLE_API ? "api" : advice == BucketAdvice.Path.INCUBATOR ? "incubator" : "none";
    }

    @Override
    public String toString() {
        return "OpenTelemetryMetricsSink{returnedRows=" + returnedRows + ", bucketAdvice=" + getBucketAdvice() + "}";
    }

    /**
     * Builds an {@link OpenTelemetryMetricsSink}. Not thread-safe.
     *
     * @since 0.6
     */
    public static final class Builder {
        private final OpenTelemetry openTelemetry;
        private boolean returnedRows;

        private Builder(final OpenTelemetry openTelemetry) {
            if (openTelemetry == null) {
                throw new IllegalArgumentException("openTelemetry can not be null");
            }
            this.openTelemetry = openTelemetry;
        }

        /**
         * @param returnedRows whether to record {@value #RETURNED_ROWS} (off by default): it makes the listener copy and
         *                     redact every reply, whose batch it counts, so that the count tells nothing the copy hides
         * @return this
         * @since 0.6
         */
        public Builder returnedRows(final boolean returnedRows) {
            this.returnedRows = returnedRows;
            return this;
        }

        /**
         * @return the sink, its instruments made
         * @since 0.6
         */
        public OpenTelemetryMetricsSink build() {
            return new OpenTelemetryMetricsSink(this);
        }
    }
}
