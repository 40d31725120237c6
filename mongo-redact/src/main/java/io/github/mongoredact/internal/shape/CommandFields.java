package io.github.mongoredact.internal.shape;

/**
 * The top-level fields of a command, found in one pass: where each known field's value lies, by a small number naming the field.
 * A command names which fields it takes; a field it does not take, an unknown field (the server refuses unknown fields; the
 * engine also refuses the ones it does not shape: {@code encryptionInformation}, {@code querySettings}, {@code explain},
 * internal ones) or a field given twice makes the command unshapeable. The generic fields every command takes ({@code lsid},
 * {@code $clusterTime}, {@code readConcern}...) are taken and ignored: they are not part of a shape.
 *
 * <p>Not thread-safe: one per {@link QueryShaper}, read again for each command.</p>
 */
final class CommandFields {
    static final int DB = 0;
    static final int FILTER = 1;
    static final int PROJECTION = 2;
    static final int SORT = 3;
    static final int COLLATION = 4;
    static final int LET = 5;
    static final int MIN = 6;
    static final int MAX = 7;
    static final int LIMIT = 8;
    static final int SKIP = 9;
    /** The find flags, in the order of the shape and of the hash's options word: singleBatch ... oplogReplay. */
    static final int SINGLE_BATCH = 10;
    static final int OPLOG_REPLAY = 17;
    static final int HINT = 18;
    static final int PIPELINE = 19;
    static final int CURSOR = 20;
    static final int QUERY = 21;
    static final int KEY = 22;
    static final int ALLOW_DISK_USE = 11;
    static final int SHOW_RECORD_ID = 13;
    static final int TAILABLE = 14;

    private static final String[] NAMES = {"$db", "filter", "projection", "sort", "collation", "let", "min", "max", "limit",
        "skip", "singleBatch", "allowDiskUse", "returnKey", "showRecordId", "tailable", "awaitData", "mirrored", "oplogReplay",
        "hint", "pipeline", "cursor", "query", "key",
        // taken and ignored
        "batchSize", "noCursorTimeout", "allowPartialResults", "maxTimeMS", "comment", "readConcern", "$readPreference", "lsid",
        "txnNumber", "autocommit", "startTransaction", "$clusterTime", "apiVersion", "apiStrict", "apiDeprecationErrors",
        "writeConcern", "bypassDocumentValidation"};
    private static final byte[][] NAME_BYTES = ExpressionWriter.names(NAMES);
    /** The generic fields every command here takes: {@code maxTimeMS} ... {@code apiDeprecationErrors}. */
    static final long GENERIC = bits(DB) | range(26, 37);
    static final long FIND = GENERIC | range(FILTER, HINT) | range(23, 25);
    static final long AGGREGATE = GENERIC | bits(COLLATION, LET, ALLOW_DISK_USE, HINT, PIPELINE, CURSOR) | range(38, 39);
    static final long COUNT = GENERIC | bits(COLLATION, LIMIT, SKIP, HINT, QUERY);
    static final long DISTINCT = GENERIC | bits(COLLATION, HINT, QUERY, KEY);

    private final byte[] types = new byte[NAMES.length];
    private final int[] values = new int[NAMES.length];
    private final int[] valueEnds = new int[NAMES.length];
    private long present;

    private static long bits(final int... fields) {
        long bits = 0;
        for (int field : fields) {
            bits |= 1L << field;
        }
        return bits;
    }

    private static long range(final int from, final int to) {
        long bits = 0;
        for (int field = from; field <= to; field++) {
            bits |= 1L << field;
        }
        return bits;
    }

    /**
     * Reads the top level whose NUL is at {@code end}, from its second element on (the first is the command's name).
     *
     * @param allowed the fields the command takes, one bit each
     */
    void read(final Source in, final int second, final int end, final long allowed) {
        present = 0;
        for (int p = second; p < end; p = in.valueEnd()) {
            in.read(p, end);
            int field = find(in);
            if (field < 0 || (allowed & 1L << field) == 0) {
                throw Unshapeable.because("a field the engine does not shape for this command: " + in.text(in.key(),
                        in.keyLength()));
            }
            if (has(field)) {
                throw Unshapeable.because("a field given twice");
            }
            present |= 1L << field;
            types[field] = in.type();
            values[field] = in.value();
            valueEnds[field] = in.valueEnd();
        }
    }

    private static int find(final Source in) {
        for (int i = 0; i < NAME_BYTES.length; i++) {
            if (in.keyIs(NAME_BYTES[i])) {
                return i;
            }
        }
        return -1;
    }

    boolean has(final int field) {
        return (present & 1L << field) != 0;
    }

    byte type(final int field) {
        return types[field];
    }

    int value(final int field) {
        return values[field];
    }

    int valueEnd(final int field) {
        return valueEnds[field];
    }

    /** Refuses a field present with another type than {@code type} (the server refuses it). */
    void requireType(final int field, final byte type) {
        if (has(field) && types[field] != type) {
            throw Unshapeable.because(NAMES[field] + " has a type the server refuses");
        }
    }

    static String name(final int field) {
        return NAMES[field];
    }
}
