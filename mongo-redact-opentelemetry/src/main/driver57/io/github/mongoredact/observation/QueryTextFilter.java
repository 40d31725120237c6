package io.github.mongoredact.observation;

import com.mongodb.observability.micrometer.MongodbObservation;
import com.mongodb.observability.micrometer.MongodbObservationContext;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationFilter;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * At the stop of the driver's command observation, writes the listener's parametrized text as {@code db.query.text}. At the
 * stop of any of the driver's observations with an error that was not yet replaced (the handler was registered after the
 * tracing handler), replaces it and rewrites the {@code exception.*} values from the rebuild. Thread-safe.
 */
final class QueryTextFilter implements ObservationFilter {
    static final String QUERY_TEXT = "db.query.text";
    private final QueryTexts texts;
    private final ScrubbedErrors errors;

    QueryTextFilter(final QueryTexts texts, final ScrubbedErrors errors) {
        this.texts = texts;
        this.errors = errors;
    }

    @Override
    public Observation.Context map(final Observation.Context context) {
        if (!(context instanceof MongodbObservationContext)) {
            return context;
        }
        MongodbObservationContext mongo = (MongodbObservationContext) context;
        if (mongo.getObservationType() == MongodbObservation.MONGODB_COMMAND) {
            String text = texts.take(mongo.getConnectionId());
            if (text != null) {
                context.addHighCardinalityKeyValue(KeyValue.of(QUERY_TEXT, text));
            } else {
                context.removeHighCardinalityKeyValue(QUERY_TEXT);
            }
        }
        Throwable before = context.getError();
        Throwable scrubbed = errors.scrub(context, mongo.getCommandName());
        if (scrubbed != null && scrubbed != before) {
            context.addHighCardinalityKeyValue(KeyValue.of("exception.type", scrubbed.getClass().getName()));
            context.addHighCardinalityKeyValue(KeyValue.of("exception.message", String.valueOf(scrubbed.getMessage())));
            StringWriter trace = new StringWriter();
            try (PrintWriter writer = new PrintWriter(trace)) {
                scrubbed.printStackTrace(writer);
            }
            context.addHighCardinalityKeyValue(KeyValue.of("exception.stacktrace", trace.toString()));
        }
        return context;
    }

    @Override
    public String toString() {
        return "QueryTextFilter{mongo-redact}";
    }
}
