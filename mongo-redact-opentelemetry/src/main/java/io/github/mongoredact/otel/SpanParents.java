package io.github.mongoredact.otel;

import com.mongodb.RequestContext;
import com.mongodb.lang.Nullable;
import io.opentelemetry.context.Context;

/**
 * The parent of a command span: the OpenTelemetry context in the command's {@code RequestContext} (put there by
 * {@link TracingContextProvider} for the reactive driver), else {@code Context.current()} on the calling thread (the sync
 * driver's caller). Stateless.
 */
final class SpanParents {
    private SpanParents() {
    }

    static Context of(@Nullable final RequestContext requestContext) {
        if (requestContext != null && requestContext.hasKey(Context.class)) {
            Object context = requestContext.get(Context.class);
            if (context instanceof Context) {
                return (Context) context;
            }
        }
        return Context.current();
    }
}
