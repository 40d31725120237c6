package io.github.mongoredact.spring;

import com.mongodb.MongoClientSettings;
import com.mongodb.event.CommandListener;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.RedactingCommandListener;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Puts the redacting listener on a client's settings, as the last settings customizer, whatever the Spring Boot line: the
 * other command listeners found there are moved behind it (so they see only redacted, owned events) and Micrometer's own
 * {@code MongoMetricsCommandListener} is taken off when this library records the same meters.
 *
 * <p>Threading: called by Spring Boot while it builds a client, on the thread that creates the client bean.</p>
 *
 * @since 0.1
 */
public final class ListenerArrangement {
    /** Micrometer's own command listener, named so that Micrometer need not be on the class path. */
    static final String MICROMETER_LISTENER = "io.micrometer.core.instrument.binder.mongodb.MongoMetricsCommandListener";
    private static final String METRICS_SINK = "io.github.mongoredact.micrometer.MicrometerCommandSink";

    private static final Log LOG = LogFactory.getLog(ListenerArrangement.class);

    private final RedactingCommandListener listener;
    @Nullable
    private final MovedListeners moved;
    private final boolean replaceMicrometer;
    private final boolean wrapOthers;
    private final AtomicBoolean warnedNoWrap = new AtomicBoolean();

    ListenerArrangement(final RedactingCommandListener listener, final boolean replaceMicrometerListener,
                        final boolean wrapOtherListeners) {
        this.listener = listener;
        this.moved = find(listener.getSinks(), MovedListeners.class);
        this.replaceMicrometer = replaceMicrometerListener && recordsCommandTimers(listener.getSinks());
        this.wrapOthers = wrapOtherListeners;
    }

    /**
     * Rearranges the command listeners of the builder: the redacting listener first and alone, the others behind it.
     *
     * @param builder the client's settings builder, with every other customizer applied
     */
    public void arrange(final MongoClientSettings.Builder builder) {
        List<CommandListener> front = new ArrayList<>();
        front.add(listener);
        for (CommandListener other : builder.build().getCommandListeners()) {
            if (other == listener) {
                continue;
            }
            if (replaceMicrometer && other.getClass().getName().equals(MICROMETER_LISTENER)) {
                LOG.debug("mongo-redact records mongodb.driver.commands; Micrometer's own MongoMetricsCommandListener is taken off"
                        + " the client (mongo-redact.metrics.replace-micrometer-listener=false keeps it)");
                continue;
            }
            if (wrapOthers && moved != null) {
                moved.add(other);
            } else {
                if (wrapOthers && warnedNoWrap.compareAndSet(false, true)) {
                    LOG.warn("mongo-redact: the application's own RedactingCommandListener bean has no place for other command"
                            + " listeners; " + other + " stays on the client and sees unredacted commands");
                }
                front.add(other);
            }
        }
        builder.commandListenerList(front);
    }

    @Nullable
    /** By name: the Micrometer sink's class must not be loaded where Micrometer is absent. */
    private static boolean recordsCommandTimers(final List<CommandSink> sinks) {
        for (CommandSink sink : sinks) {
            if (sink.getClass().getName().equals(METRICS_SINK)) {
                return true;
            }
        }
        return false;
    }

    private static <T> T find(final List<?> downstreams, final Class<T> type) {
        for (Object candidate : downstreams) {
            if (type.isInstance(candidate)) {
                return type.cast(candidate);
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "ListenerArrangement{replaceMicrometer=" + replaceMicrometer + ", wrapOthers=" + wrapOthers + ", moved=" + moved
                + "}";
    }
}
