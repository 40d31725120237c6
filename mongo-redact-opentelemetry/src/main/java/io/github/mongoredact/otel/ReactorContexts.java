package io.github.mongoredact.otel;

import com.mongodb.RequestContext;
import com.mongodb.lang.Nullable;
import io.opentelemetry.context.Context;
import org.reactivestreams.Subscriber;
import reactor.core.CoreSubscriber;
import reactor.util.context.ContextView;

import java.util.Map;

/**
 * Reads Reactor's context of a subscriber. Loaded only where Reactor is on the class path ({@link TracingContextProvider}
 * checks once). Stateless.
 */
final class ReactorContexts {
    private ReactorContexts() {
    }

    /**
     * Copies the entries of the subscriber's Reactor context into the request context.
     *
     * @return the OpenTelemetry context found there (under {@code Context.class}, or any entry holding one), or null
     */
    @Nullable
    static Context copyInto(final Subscriber<?> subscriber, final RequestContext into) {
        if (!(subscriber instanceof CoreSubscriber)) {
            return null;
        }
        ContextView view = ((CoreSubscriber<?>) subscriber).currentContext();
        if (view.isEmpty()) {
            return null;
        }
        Context found = null;
        for (Map.Entry<Object, Object> entry : (Iterable<Map.Entry<Object, Object>>) view.stream()::iterator) {
            into.put(entry.getKey(), entry.getValue());
            if (entry.getValue() instanceof Context && (found == null || entry.getKey() == Context.class)) {
                found = (Context) entry.getValue();
            }
        }
        return found;
    }
}
