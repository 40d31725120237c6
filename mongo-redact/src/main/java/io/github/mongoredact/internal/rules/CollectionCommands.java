package io.github.mongoredact.internal.rules;

import io.github.mongoredact.internal.bson.Bytes;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The commands whose first field names a collection ({@code getMore}: a cursor id, its collection in a field of its own), by
 * their names and the aliases the server accepts ({@code findandmodify}, {@code mapreduce}, {@code deleteIndexes}). The
 * defaults keep that name, and the query-shape fingerprint takes it as the command's namespace under every policy; the first
 * field of any other command ({@code usersInfo}, {@code logApplicationMessage}...) is a value, whose type alone the
 * fingerprint takes. Immutable.
 */
public final class CollectionCommands {
    private static final List<String> NAMES = List.of(
            "find", "insert", "update", "delete", "aggregate", "count", "distinct", "findAndModify", "findandmodify", "getMore",
            "killCursors", "createIndexes", "dropIndexes", "deleteIndexes", "listIndexes", "create", "drop", "collMod",
            "mapReduce", "mapreduce", "validate", "collStats", "renameCollection", "compact", "reIndex", "convertToCapped",
            "cloneCollectionAsCapped", "createSearchIndexes", "dropSearchIndex", "updateSearchIndex", "listSearchIndexes",
            "analyze", "shardCollection", "refineCollectionShardKey", "reshardCollection");
    private static final byte[][] BYTES = new byte[NAMES.size()][];

    static {
        for (int i = 0; i < NAMES.size(); i++) {
            BYTES[i] = NAMES.get(i).getBytes(StandardCharsets.US_ASCII);
        }
    }

    private CollectionCommands() {
    }

    /** @return the names, aliases included */
    public static List<String> names() {
        return NAMES;
    }

    /** @return whether {@code src[off, off + len)} is the name of such a command; allocation-free */
    public static boolean contains(final byte[] src, final int off, final int len) {
        for (byte[] name : BYTES) {
            if (Bytes.equal(name, src, off, len)) {
                return true;
            }
        }
        return false;
    }
}
