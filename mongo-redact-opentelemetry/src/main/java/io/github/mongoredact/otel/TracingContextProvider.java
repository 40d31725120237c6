package io.github.mongoredact.otel;

import com.mongodb.RequestContext;
import com.mongodb.reactivestreams.client.ReactiveContextProvider;
import io.opentelemetry.context.Context;
import org.reactivestreams.Subscriber;

/**
 * A {@code ContextProvider} for the reactive driver that carries the caller's OpenTelemetry context into each command, so
 * that the spans of {@link OpenTelemetryCommandSink} have the caller's span as parent even though the reactive driver runs
 * commands on its own threads, where {@code Context.current()} is empty.
 *
 * <pre>{@code
 * MongoClientSettings settings = MongoClientSettings.builder()
 *         .applyConnectionString(new ConnectionString(uri))
 *         .contextProvider(new TracingContextProvider())
 *         .addCommandListener(listener)
 *         .build();
 * }</pre>
 *
 * <p>At each subscription it takes the OpenTelemetry context current on the subscribing thread; where the subscriber is a
 * Reactor subscriber, its Reactor context's entries are copied into the request context too, and an OpenTelemetry
 * {@code Context} held there (under {@code io.opentelemetry.context.Context.class}, or under any other key) wins over the
 * thread's. The sink looks for the context under {@code io.opentelemetry.context.Context.class}.</p>
 *
 * <p>Threading: thread-safe and stateless; called by the driver at each subscription.</p>
 *
 * @since 0.3
 */
public final class TracingContextProvider implements ReactiveContextProvider {
    private static final boolean REACTOR = present("reactor.core.CoreSubscriber");

    /**
     * Creates the provider.
     *
     * @since 0.3
     */
    public TracingContextProvider() {
    }

    @Override
    public RequestContext getContext(final Subscriber<?> subscriber) {
        RequestContextWithTrace context = new RequestContextWithTrace();
        Context trace = REACTOR ? ReactorContexts.copyInto(subscriber, context) : null;
        context.put(Context.class, trace != null ? trace : Context.current());
        return context;
    }

    @Override
    public String toString() {
        return "TracingContextProvider{reactor=" + REACTOR + "}";
    }

    /** @return whether the class can be loaded by this class's loader, without initialising it */
    private static boolean present(final String className) {
        try {
            Class.forName(className, false, TracingContextProvider.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
