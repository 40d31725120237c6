package io.github.mongoredact.micrometer;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.StartedCommand;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * The {@code collection} tag as Micrometer's {@code MongoMetricsCommandListener} names it, so that existing dashboards keep
 * working. Stateless and thread-safe; allocation-free when the name has no surrounding spaces.
 */
final class CollectionTag {
    /** The value when a command names no collection, as Micrometer's own command listener has it. */
    static final String UNKNOWN = "unknown";

    private CollectionTag() {
    }

    /**
     * For the commands whose first field names their collection (aggregate, count, distinct, mapReduce, geoSearch, delete,
     * find, findAndModify, insert, update, collMod, compact, convertToCapped, create, createIndexes, drop, dropIndexes,
     * killCursors, listIndexes, reIndex), that value trimmed; for {@code getMore}, its {@code collection} field; otherwise
     * {@value #UNKNOWN}.
     */
    static String of(final StartedCommand started) {
        String commandName = started.getCommandName();
        String name = started.getCollectionName();
        BsonDocument command = started.getCommand();
        if (name == null && command != null && namesCollection(commandName)) {
            name = collectionField(command);
        }
        return of(commandName, name);
    }

    /**
     * The tag of a command that names the collection {@code collectionName} (null for none): that name trimmed, for the
     * commands Micrometer takes the collection of ({@link #namesCollectionFirst} and {@code getMore}), else {@value #UNKNOWN}.
     * A tag maps to itself: {@code of(commandName, of(commandName, name))} is {@code of(commandName, name)}, so a tag can stand
     * for a name as a cache key.
     */
    static String of(final String commandName, @Nullable final String collectionName) {
        if (collectionName == null || !namesCollection(commandName)) {
            return UNKNOWN;
        }
        String trimmed = collectionName.trim();
        return trimmed.isEmpty() ? UNKNOWN : trimmed;
    }

    private static boolean namesCollection(final String commandName) {
        return namesCollectionFirst(commandName) || "getMore".equals(commandName);
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
    private static String collectionField(final BsonDocument command) {
        try {
            BsonValue value = command.get("collection");
            return value != null && value.isString() ? value.asString().getValue() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
