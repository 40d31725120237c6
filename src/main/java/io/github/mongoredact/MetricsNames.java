package io.github.mongoredact;

import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import static io.github.mongoredact.internal.Checks.notNull;

/** The naming rules behind {@link CommandMetrics}, and its sink adapter. */
final class MetricsNames {
    private MetricsNames() {
    }

    /** The commands Micrometer's listener takes the collection from, by their first field. */
    static boolean namesCollectionFirst(final String commandName) {
        switch (commandName) {
            case "aggregate":
            case "count":
            case "distinct":
            case "mapReduce":
            case "geoSearch":
            case "delete":
            case "find":
            case "findAndModify":
            case "insert":
            case "update":
            case "collMod":
            case "compact":
            case "convertToCapped":
            case "create":
            case "createIndexes":
            case "drop":
            case "dropIndexes":
            case "killCursors":
            case "listIndexes":
            case "reIndex":
                return true;
            default:
                return false;
        }
    }

    /** @return the string value of the command's {@code collection} field (getMore), or null */
    @Nullable
    static String collectionField(final BsonDocument command) {
        try {
            BsonValue value = command.get("collection");
            return value != null && value.isString() ? value.asString().getValue() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Feeds a {@link CommandMetrics}; never asks for documents. */
    static final class Sink implements CommandSink {
        private final CommandMetrics metrics;

        Sink(final CommandMetrics metrics) {
            this.metrics = notNull("metrics", metrics);
        }

        @Override
        public boolean needsDocuments() {
            return false;
        }

        @Override
        public void completed(final CompletedCommand command) {
            metrics.record(command, CommandMetrics.collectionOf(command.getStarted()), command.hasError());
        }

        @Override
        public String toString() {
            return "CommandMetricsSink{" + metrics + "}";
        }
    }
}
