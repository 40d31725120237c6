package io.github.mongoredact.internal.walk;

import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.rules.CollectionCommands;
import io.github.mongoredact.internal.rules.CollectionField;
import io.github.mongoredact.internal.rules.PathMatcher;

import static io.github.mongoredact.internal.bson.Bytes.readInt;
import static io.github.mongoredact.internal.rules.CompiledPolicy.FLAGS_ONLY;
import static io.github.mongoredact.internal.rules.CompiledPolicy.KEEP;
import static io.github.mongoredact.internal.rules.CompiledPolicy.KEEP_FLAGS;
import static io.github.mongoredact.internal.rules.CompiledPolicy.REDACT;
import static io.github.mongoredact.internal.rules.CompiledPolicy.REDACT_KEYS;

/**
 * The places of a command and of a reply that the walker knows by their position rather than by a rule, for the element the
 * cursor read last: the command's first field (and the collection it names), {@code collection} of {@code getMore}, the
 * wrapped command of {@code explain}, the namespace the fingerprint takes ({@link #isNamespace}), the top-level fields the
 * fingerprint leaves out, the document sequences and reply batches that {@code maxSequenceDocuments} limits, and the marker
 * of documents an earlier redaction left out. None of these depends on the policy, so that the fingerprint does not either.
 *
 * <p>Not thread-safe: one per walker. Holds indexes into the source, never the bytes.</p>
 */
final class KnownPlaces {
    private static final byte[][] COMMAND_SEQUENCES = {
            {'d', 'o', 'c', 'u', 'm', 'e', 'n', 't', 's'}, {'u', 'p', 'd', 'a', 't', 'e', 's'}, {'d', 'e', 'l', 'e', 't', 'e', 's'},
            {'o', 'p', 's'}, {'n', 's', 'I', 'n', 'f', 'o'}};
    private static final byte[] CURSOR = {'c', 'u', 'r', 's', 'o', 'r'};
    private static final byte[] DB = {'$', 'd', 'b'};
    private static final byte[] GET_MORE = {'g', 'e', 't', 'M', 'o', 'r', 'e'};
    /** The commands that wrap another command in their first field, read by that command's own rules. */
    private static final byte[] EXPLAIN = {'e', 'x', 'p', 'l', 'a', 'i', 'n'};
    private static final byte[][] UNHASHED_TOP_LEVEL = {
            {'l', 's', 'i', 'd'}, {'$', 'c', 'l', 'u', 's', 't', 'e', 'r', 'T', 'i', 'm', 'e'},
            {'t', 'x', 'n', 'N', 'u', 'm', 'b', 'e', 'r'}};

    private final BsonCursor cursor;
    private final PathMatcher matcher;
    private boolean command;
    private boolean limits;
    private int collectionOff = -1;
    private int collectionLen;
    /** The command name: the first key of the top level. */
    private int nameOff;
    private int nameLen;

    KnownPlaces(final BsonCursor cursor, final PathMatcher matcher) {
        this.cursor = cursor;
        this.matcher = matcher;
    }

    /**
     * @param isCommand whether the walk is over a command (else a reply)
     * @param sequenceLimit whether {@code maxSequenceDocuments} limits sequences
     */
    void bind(final boolean isCommand, final boolean sequenceLimit) {
        this.command = isCommand;
        this.limits = sequenceLimit;
    }

    /** Starts an analysing walk: no collection found yet. */
    void startAnalysis() {
        collectionOff = -1;
        collectionLen = 0;
    }

    boolean command() {
        return command;
    }

    int collectionOffset() {
        return collectionOff;
    }

    int collectionLength() {
        return collectionLen;
    }

    /**
     * The action of an element of a command's top level, or of a wrapped command's ({@code top} false). The first field of a
     * command keeps its value where a rule keeps it (the commands whose first field names a collection, found here);
     * elsewhere only a flag ({@code {"ping": 1}}) stays. The collection is the command's own, not a wrapped command's.
     *
     * @param analysing whether the walk analyses: only then is the collection noted
     */
    byte topLevel(final byte action, final int index, final boolean top, final boolean analysing) {
        if (!command) {
            return action;
        }
        byte type = cursor.type;
        if (index == 0) {
            if (top) {
                nameOff = cursor.key;
                nameLen = cursor.keyLength();
            }
            if (action == KEEP) {
                if (analysing && top && CollectionField.mayName(true, type, cursor.src(), cursor.key, cursor.keyLength())) {
                    collectionOff = cursor.value + 4;
                    collectionLen = cursor.stringLength();
                }
                return action;
            }
            boolean container = type == BsonTypes.DOCUMENT || type == BsonTypes.ARRAY;
            return !container && (action == REDACT || action == REDACT_KEYS) ? FLAGS_ONLY : action;
        }
        if (analysing && top && action == KEEP && collectionOff < 0
                && CollectionField.mayName(false, type, cursor.src(), cursor.key, cursor.keyLength())) {
            // getMore names its collection in a field of its own
            collectionOff = cursor.value + 4;
            collectionLen = cursor.stringLength();
        }
        return action;
    }

    /** @return whether the element, the first of a command's top level, is a command wrapped whole: {@code explain}'s */
    boolean isWrapper(final int index) {
        return command && index == 0 && cursor.type == BsonTypes.DOCUMENT && isKey(EXPLAIN);
    }

    /**
     * Whether the kept string the cursor read names the command's namespace, which the fingerprint takes: the first field of a
     * command that names a collection there ({@link CollectionCommands}, wrapped or not), {@code collection} of
     * {@code getMore}, and {@code $db}. Call after {@link #topLevel} for elements of a command's top level only.
     *
     * @param top whether the element is of the command's own top level (else of a wrapped command's)
     */
    boolean isNamespace(final int index, final boolean top) {
        if (!command) {
            return false;
        }
        byte[] src = cursor.src();
        if (index == 0) {
            return CollectionCommands.contains(src, cursor.key, cursor.keyLength());
        }
        return top && (isKey(DB) || (CollectionField.isKey(cursor.src(), cursor.key, cursor.keyLength())
                && Bytes.equal(GET_MORE, src, nameOff, nameLen)));
    }

    /** @return whether the top-level element is one the fingerprint leaves out (session and cluster time fields) */
    boolean isUnhashedTopLevel() {
        for (byte[] name : UNHASHED_TOP_LEVEL) {
            if (isKey(name)) {
                return true;
            }
        }
        return false;
    }

    /** @return whether the element, in the document at depth {@code d}, is a document sequence or a reply batch */
    boolean isSequence(final int d) {
        if (cursor.type != BsonTypes.ARRAY) {
            return false;
        }
        if (!command) {
            return d == 1 && matcher.isReplyBatch(cursor.src(), cursor.key, cursor.keyLength());
        }
        if (d != 0) {
            return false;
        }
        for (byte[] name : COMMAND_SEQUENCES) {
            if (isKey(name)) {
                return true;
            }
        }
        return false;
    }

    /** @return whether the container holds a limited sequence: it is one, or it is a reply's {@code cursor} */
    boolean holdsLimited(final boolean sequence, final int d) {
        return limits && (sequence || (!command && d == 0 && cursor.type == BsonTypes.DOCUMENT && isKey(CURSOR)));
    }

    /** @return whether a scalar under {@code action} is kept: {@code KEEP}, or a flag where flags are kept */
    boolean keepsScalar(final byte action) {
        return action == KEEP || ((action == KEEP_FLAGS || action == FLAGS_ONLY)
                && Flags.isFlag(cursor.src(), cursor.type, cursor.value, action == KEEP_FLAGS));
    }

    /** @return whether the element is {@code {"$omitted": n}}, the marker of documents an earlier redaction left out */
    boolean isOmittedMarker() {
        int v = cursor.value;
        byte[] src = cursor.src();
        return cursor.type == BsonTypes.DOCUMENT && cursor.valueEnd - v == ElementWriter.OMITTED_DOCUMENT_SIZE
                && readInt(src, v) == ElementWriter.OMITTED_DOCUMENT_SIZE && src[v + 4] == BsonTypes.INT32
                && Bytes.equal(ElementWriter.OMITTED_KEY, src, v + 5, 8) && src[v + 13] == 0;
    }

    /** @return the count of the omitted marker the cursor read */
    int omittedCount() {
        return readInt(cursor.src(), cursor.value + 4 + 1 + 8 + 1);
    }

    private boolean isKey(final byte[] name) {
        return Bytes.equal(name, cursor.src(), cursor.key, cursor.keyLength());
    }
}
