package io.github.mongoredact.internal.shape;

import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;

import java.util.Arrays;

/**
 * What the shapes of every command share, and the engine's collaborators for one command: the namespace ({@code cmdNs}, and its
 * bytes for the hash), a verbatim {@code collation}, the {@code let} variables; and where each part of the representative shape
 * lies, for the hash layouts that hash parts one by one.
 *
 * <p>Not thread-safe: one per {@link QueryShaper}, reset for each command.</p>
 */
final class ShapeParts {
    static final int COLLATION = 0;
    static final int LET = 1;
    static final int FILTER = 2;
    static final int PROJECTION = 3;
    static final int SORT = 4;
    static final int MIN = 5;
    static final int MAX = 6;
    private static final int PARTS = 7;

    private static final byte[] CMD_NS = Literals.ascii("cmdNs");
    private static final byte[] DB = Literals.ascii("db");
    private static final byte[] COLL = Literals.ascii("coll");
    private static final byte[] UUID = Literals.ascii("uuid");
    private static final byte[] COLLATION_KEY = Literals.ascii("collation");
    private static final byte[] LET_KEY = Literals.ascii("let");
    private static final byte[] COLLECTIONLESS_AGGREGATE = Literals.ascii("$cmd.aggregate");
    private static final byte[][] INTERNAL_DATABASES = ExpressionWriter.names("admin", "config", "local");
    private static final byte[] SYSTEM = Literals.ascii("system.");
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final byte UUID_SUBTYPE = 4;

    final ShapeOut out = new ShapeOut();
    final Source in = new Source();
    final CommandFields fields = new CommandFields();
    final Variables variables = new Variables();
    final ShapeHasher hasher = new ShapeHasher();
    final ExpressionWriter expressions = new ExpressionWriter(out, in);
    final FilterParser filters = new FilterParser(in);
    final FilterWriter filterWriter = new FilterWriter(out, in, expressions);
    final ProjectionWriter projections = new ProjectionWriter(out, in, expressions);
    final PipelineWriter pipelines = new PipelineWriter(this);
    /** Shape requests as the server's unit tests build them: see {@link QueryShaper}. */
    final boolean unitTestRequests;

    private final int[] starts = new int[PARTS];
    private final int[] ends = new int[PARTS];
    private int db;
    private int dbLen;
    private byte[] collection = COLLECTIONLESS_AGGREGATE;
    private int collectionOff;
    private int collectionLen;
    private boolean namespace;
    private byte[] nsBytes = new byte[64];
    private int nsLength;

    ShapeParts(final boolean unitTestRequests) {
        this.unitTestRequests = unitTestRequests;
    }

    void reset() {
        Arrays.fill(starts, -1);
        variables.clear();
        out.reset();
    }

    /** Forgets the command: no reference to its bytes is kept after the call. */
    void release() {
        collection = COLLECTIONLESS_AGGREGATE;
        out.forgetKeys();
    }

    /** Opens part {@code part} (a document under the key named) and notes where it starts in the representative shape. */
    void open(final int part) {
        starts[part] = out.openDocument();
    }

    /** Closes part {@code part} and notes where it ends. */
    void close(final int part) {
        out.close();
        ends[part] = out.representativePosition();
    }

    /** Notes where part {@code part}, written by another writer, lies in the representative shape. */
    void mark(final int part, final int start, final int end) {
        starts[part] = start;
        ends[part] = end;
    }

    /** Hashes part {@code part}'s representative bytes, or the empty document if it was not written. */
    void hashPart(final int part) {
        hasher.document(out.representative.array(), starts[part], ends[part]);
    }

    /**
     * Reads the namespace: {@code $db} and the command's first value (a collection name; {@code 1} for a collection-less
     * aggregate; a UUID only for {@link #unitTestRequests}). Refuses internal databases and {@code system.*} collections, for
     * which 8.0 computes no hash.
     */
    void namespace(final byte type, final int value, final boolean aggregate) {
        if (!fields.has(CommandFields.DB) || fields.type(CommandFields.DB) != BsonTypes.STRING
                || in.isPlaceholder(BsonTypes.STRING, fields.value(CommandFields.DB))) {
            throw Unshapeable.because("no $db");
        }
        db = fields.value(CommandFields.DB) + 4;
        dbLen = in.stringLength(fields.value(CommandFields.DB));
        namespace = true;
        if (type == BsonTypes.STRING && !in.isPlaceholder(type, value) && in.stringLength(value) > 0) {
            collection = in.bytes();
            collectionOff = value + 4;
            collectionLen = in.stringLength(value);
        } else if (aggregate && type != BsonTypes.STRING && in.integral(type, value) == 1) {
            collection = COLLECTIONLESS_AGGREGATE;
            collectionOff = 0;
            collectionLen = collection.length;
        } else if (unitTestRequests && type == BsonTypes.BINARY && Bytes.readInt(in.bytes(), value) == 16
                && in.bytes()[value + 4] == UUID_SUBTYPE) {
            namespace = false;
            collection = in.bytes();
            collectionOff = value + 5;
            collectionLen = 16;
        } else {
            throw Unshapeable.because("not a collection name (a UUID target's hash is uncertain in 8.0)");
        }
        checkNamespace();
        buildNamespaceBytes();
    }

    private void checkNamespace() {
        for (byte[] internal : INTERNAL_DATABASES) {
            if (in.is(db, dbLen, internal)) {
                throw Unshapeable.because("an internal database: 8.0 computes no hash");
            }
        }
        if (dbLen == 0 || namespace && collectionLen >= SYSTEM.length
                && Arrays.equals(collection, collectionOff, collectionOff + SYSTEM.length, SYSTEM, 0, SYSTEM.length)) {
            throw Unshapeable.because("a system collection: 8.0 computes no hash");
        }
        for (int i = db; i < db + dbLen; i++) {
            if (in.bytes()[i] == '.' || in.bytes()[i] == 0) {
                throw Unshapeable.because("an invalid database name");
            }
        }
    }

    private void buildNamespaceBytes() {
        int length = namespace ? dbLen + 1 + collectionLen : collectionLen;
        if (nsBytes.length < length) {
            nsBytes = new byte[Math.max(length, nsBytes.length * 2)];
        }
        int p = 0;
        if (namespace) {
            System.arraycopy(in.bytes(), db, nsBytes, 0, dbLen);
            nsBytes[dbLen] = '.';
            p = dbLen + 1;
        }
        System.arraycopy(collection, collectionOff, nsBytes, p, collectionLen);
        nsLength = length;
    }

    /** @return whether the target is a namespace (not a UUID) */
    boolean isNamespace() {
        return namespace;
    }

    /** Hashes the namespace's bytes: {@code "<db>.<coll>"} (UTF-8, no terminator), or a UUID's 16 bytes. */
    void hashNamespace() {
        hasher.bytes(nsBytes, 0, nsLength);
    }

    /** Writes {@code cmdNs}: {@code {db, coll}}, or {@code {uuid, db}} for a UUID target. */
    void writeNamespace() {
        out.key(CMD_NS);
        out.openDocument();
        if (namespace) {
            out.key(DB);
            out.string(in.bytes(), db, dbLen);
            out.key(COLL);
            out.string(collection, collectionOff, collectionLen);
        } else {
            out.key(UUID);
            out.string(uuidText());
            out.key(DB);
            out.string(in.bytes(), db, dbLen);
        }
        out.close();
    }

    private byte[] uuidText() {
        byte[] text = new byte[36];
        int p = 0;
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                text[p++] = '-';
            }
            int b = collection[collectionOff + i] & 0xff;
            text[p++] = (byte) HEX[b >> 4];
            text[p++] = (byte) HEX[b & 0xf];
        }
        return text;
    }

    /** Writes {@code collation} verbatim when the command has a nonempty one. */
    void writeCollation() {
        fields.requireType(CommandFields.COLLATION, BsonTypes.DOCUMENT);
        if (!fields.has(CommandFields.COLLATION)) {
            return;
        }
        int value = fields.value(CommandFields.COLLATION);
        if (in.open(value, 1) == value + 4) {
            return;
        }
        Verbatim.check(in, BsonTypes.DOCUMENT, value, 1);
        out.key(COLLATION_KEY);
        starts[COLLATION] = out.representativePosition() + 1 + COLLATION_KEY.length + 1;
        out.verbatim(BsonTypes.DOCUMENT, in.bytes(), value, fields.valueEnd(CommandFields.COLLATION));
        ends[COLLATION] = out.representativePosition();
    }

    /** Writes {@code let} when the command has one (even empty): each variable's value an expression; defines the names. */
    void writeLet() {
        fields.requireType(CommandFields.LET, BsonTypes.DOCUMENT);
        if (!fields.has(CommandFields.LET)) {
            return;
        }
        out.key(LET_KEY);
        open(LET);
        int value = fields.value(CommandFields.LET);
        int end = in.open(value, 1);
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            byte type = in.type();
            int name = in.key();
            int nameLen = in.keyLength();
            int variable = in.value();
            p = in.valueEnd();
            out.key(in.bytes(), name, nameLen);
            expressions.write(type, variable, p, variables, 2);
        }
        close(LET);
        for (int p = value + 4; p < end; p = in.valueEnd()) {
            in.read(p, end);
            variables.define(in, in.key(), in.keyLength());
        }
    }
}
