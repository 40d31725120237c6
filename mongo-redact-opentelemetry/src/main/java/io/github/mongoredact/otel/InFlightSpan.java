package io.github.mongoredact.otel;

import io.opentelemetry.api.trace.Span;

/** The span of a command in flight on a connection, with its start and the request it belongs to. Immutable. */
final class InFlightSpan {
    final Span span;
    final long start;
    final int requestId;

    InFlightSpan(final Span span, final long start, final int requestId) {
        this.span = span;
        this.start = start;
        this.requestId = requestId;
    }
}
