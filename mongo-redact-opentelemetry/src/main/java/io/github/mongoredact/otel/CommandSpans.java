package io.github.mongoredact.otel;

import io.github.mongoredact.StartedCommand;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;

import java.util.concurrent.TimeUnit;

/**
 * Builds the span of a started command: its name and summary ({@link SpanNaming}, {@link QuerySummary}), its parent
 * ({@link SpanParents}), the attributes its kind shares ({@link SpanTemplates}), the connection ids, the query shape and
 * what the redacted copy tells ({@link SpanTemplate#describe}), or a render error where the copy cannot be read. Thread-safe
 * (its parts are).
 */
final class CommandSpans {
    /** Told of a redacted copy that could not be read, whose span goes on with a render error as its text. */
    interface Unreadable {
        void copy(RuntimeException e, StartedCommand command);
    }

    private final Tracer tracer;
    private final SpanTemplates templates;
    private final SpanNaming naming;
    private final boolean queryShape;
    private final Unreadable unreadable;

    CommandSpans(final Tracer tracer, final SpanTemplates templates, final SpanNaming naming, final boolean queryShape,
                 final Unreadable unreadable) {
        this.tracer = tracer;
        this.templates = templates;
        this.naming = naming;
        this.queryShape = queryShape;
        this.unreadable = unreadable;
    }

    /**
     * @param command the started command
     * @param start its start in nanoseconds since the epoch
     * @param driverConnectionId the driver's id of the command's connection
     * @return the span's builder, ready to start
     */
    SpanBuilder builder(final StartedCommand command, final long start, final long driverConnectionId) {
        SpanTemplate template = templates.of(command.getConnectionDescription().getConnectionId().getServerId(),
                command.getDatabaseName(), command.getCollectionName(), command.getCommandName());
        String summary = QuerySummary.ofCommand(naming, template.summary, command);
        String name = summary == null || naming == SpanNaming.DRIVER_SPECIFICATION ? template.spanName : summary;
        SpanBuilder builder = tracer.spanBuilder(name)
                .setSpanKind(SpanKind.CLIENT)
                .setParent(SpanParents.of(command.getRequestContext()))
                .setStartTimestamp(start, TimeUnit.NANOSECONDS)
                .setAllAttributes(template.attributes)
                .setAttribute(SpanKeys.DRIVER_CONNECTION_ID, driverConnectionId);
        if (summary != null) {
            builder.setAttribute(SpanKeys.QUERY_SUMMARY, summary);
        }
        Long serverValue = command.getServerConnectionId();
        if (serverValue != null) {
            builder.setAttribute(SpanKeys.SERVER_CONNECTION_ID, serverValue);
        }
        String shape = queryShape ? command.getQueryShape() : null;
        String hash = shape == null ? null : command.getQueryShapeHash();
        if (shape != null && hash != null) {
            builder.setAttribute(SpanKeys.QUERY_SHAPE, shape);
            builder.setAttribute(SpanKeys.QUERY_SHAPE_HASH, hash);
        }
        try {
            template.describe(command, builder);
        } catch (RuntimeException e) {
            // bytes that are not BSON (specOnly copies a sequence document as the driver held it, its framing checked): the
            // span still tells what ran, as the log sink's line does; the exception's message may quote the copy
            builder.setAttribute(SpanKeys.QUERY_TEXT, "{\"$renderError\": \"" + e.getClass().getName() + "\"}");
            unreadable.copy(e, command);
        }
        return builder;
    }
}
