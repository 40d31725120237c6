package io.github.mongoredact.spring.tracing;

import com.mongodb.MongoClientSettings;
import com.mongodb.event.CommandListener;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.StartedCommand;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The one tracing sink the auto-configuration adds to the redacting listener: the OpenTelemetry sink, or the sink that renders
 * the texts of the driver's own tracing made safe, or nothing, chosen when a client's settings are customized:
 *
 * <ul>
 *   <li>the settings turn the driver's own tracing on (5.7+): that tracing, its payload off, with this library's texts and
 *   scrubbed errors;</li>
 *   <li>another instrumentation already traces each command on the client (OpenTelemetry's MongoDB listener, also as the
 *   Java agent adds it, or Spring Data's observation listener): nothing, so that no command gets a second span;</li>
 *   <li>otherwise, with an OpenTelemetry bean: the OpenTelemetry sink.</li>
 * </ul>
 *
 * <p>Until a client is customized (a client the application builds itself), the OpenTelemetry sink. Threading: the choice is
 * made on the thread that creates the client; the sink callbacks, on the driver's threads, read it.</p>
 *
 * @since 0.3
 */
public final class TracingSwitch implements CommandSink {
    private static final Log LOG = LogFactory.getLog(TracingSwitch.class);
    private static final String SPRING_DATA_OBSERVATION = "org.springframework.data.mongodb.observability.MongoObservationCommandListener";

    /** What traces the commands. */
    public enum Mode {
        /** The OpenTelemetry sink: one span per command from the redacted events. */
        SINK,
        /** The driver's own tracing made safe. */
        DRIVER,
        /** Nothing: no OpenTelemetry bean, or another instrumentation traces the commands. */
        OFF
    }

    @Nullable
    private final CommandSink sink;
    @Nullable
    private final Bridge bridge;
    private volatile Mode mode;

    TracingSwitch(@Nullable final CommandSink sink, @Nullable final Bridge bridge) {
        this.sink = sink;
        this.bridge = bridge;
        this.mode = sink != null ? Mode.SINK : Mode.OFF;
    }

    /** The driver's own tracing, as far as the switch needs it (kept apart so that its types load only on 5.7+). */
    static final class Bridge {
        final CommandSink texts;
        final Predicate<MongoClientSettings> tracesItself;
        final Consumer<MongoClientSettings.Builder> payloadOff;

        Bridge(final CommandSink texts, final Predicate<MongoClientSettings> tracesItself,
               final Consumer<MongoClientSettings.Builder> payloadOff) {
            this.texts = texts;
            this.tracesItself = tracesItself;
            this.payloadOff = payloadOff;
        }
    }

    /**
     * Chooses what traces the client's commands, from its settings with every other customizer applied.
     *
     * @param builder the client's settings builder
     */
    void choose(final MongoClientSettings.Builder builder) {
        MongoClientSettings settings = builder.build();
        if (bridge != null && bridge.tracesItself.test(settings)) {
            bridge.payloadOff.accept(builder);
            mode = Mode.DRIVER;
            LOG.debug("mongo-redact: the driver traces itself; its command payload is off, its spans get the redacted text");
            return;
        }
        for (CommandListener listener : settings.getCommandListeners()) {
            String name = listener.getClass().getName();
            if (name.equals(SPRING_DATA_OBSERVATION) || (name.contains("opentelemetry") && name.endsWith("TracingCommandListener"))) {
                mode = Mode.OFF;
                LOG.info("mongo-redact: " + name + " already traces each command; mongo-redact adds no second span");
                return;
            }
        }
        mode = sink != null ? Mode.SINK : Mode.OFF;
    }

    /**
     * @return what traces the commands now
     * @since 0.3
     */
    public Mode getMode() {
        return mode;
    }

    @Nullable
    private CommandSink current() {
        Mode now = mode;
        return now == Mode.SINK ? sink : now == Mode.DRIVER && bridge != null ? bridge.texts : null;
    }

    @Override
    public boolean needsDocuments() {
        CommandSink current = current();
        return current != null && current.needsDocuments();
    }

    @Override
    public boolean needsReplyDocuments() {
        CommandSink current = current();
        return current != null && current.needsReplyDocuments();
    }

    @Override
    public boolean needsFingerprint() {
        return false;
    }

    @Override
    public boolean needsCommandSize() {
        return false;
    }

    /** @return what the current tracing sink answers: the OpenTelemetry sink's spans carry the query shape */
    @Override
    public boolean needsQueryShape() {
        CommandSink current = current();
        return current != null && current.needsQueryShape();
    }

    @Override
    public void started(final StartedCommand command) {
        CommandSink current = current();
        if (current != null) {
            current.started(command);
        }
    }

    @Override
    public void completed(final CompletedCommand command) {
        CommandSink current = current();
        if (current != null) {
            current.completed(command);
        }
    }

    @Override
    public String toString() {
        return "TracingSwitch{mode=" + mode + ", sink=" + sink + ", driverTracing=" + (bridge != null) + "}";
    }
}
