package io.github.mongoredact.internal.shape;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonFormatException;

/**
 * Computes a command's MongoDB query shape and {@code queryShapeHash} on the client, exactly as a MongoDB 8.0 server computes
 * them, from the command's bytes as the driver sends them ({@code find}, {@code aggregate}, {@code count} or {@code distinct},
 * with {@code $db}): the debug shape {@code $queryStats} prints as {@code key.queryShape}, and the hash explain, the slow query
 * log, the profiler and {@code $querySettings} show.
 *
 * <p>Where the engine can not shape a command exactly it gives no shape at all, never an approximate one, and says why in
 * {@link #refusal()}: an operator, expression or stage whose serialization it does not reproduce; a value the server refuses;
 * {@code explain}, {@code encryptionInformation}, {@code querySettings} or any field it does not know; an internal database
 * ({@code admin}, {@code config}, {@code local}) or a {@code system.*} collection; a collection named by UUID; an IDHACK find
 * ({@code {_id: <value>}}); malformed BSON. For count the hash is the 8.1 one (8.0 computes none): see
 * {@link QueryShape#hashSinceServerVersion()}.</p>
 *
 * <p>Two modes. {@link #shape} reads the command the driver sends. {@link #shapeRedacted} reads a redacted copy, where a string
 * that is exactly one of the redactor's typed placeholders ({@code "?number"}, {@code "?date"}...) stands for a value of that
 * type; where the copy can not tell what the shape needs ({@code "?"}; {@code "?array"} as a literal; several
 * {@code "?number"} in one array literal; {@code $exists: "?bool"}; a redacted {@code limit}, bit mask, sort direction,
 * projection flag, {@code $options}, collation; {@code "?string"} where a field path could have been) it gives none. The
 * integration shapes both and emits a shape only when they are equal, so that no shape tells more than the redacted copy.</p>
 *
 * <p>Not thread-safe: one caller at a time. An instance keeps its buffers and its SHA-256 digest from one command to the next,
 * so that a busy caller allocates little more than the result; the command's bytes are read during the call only.</p>
 */
public final class QueryShaper {
    private static final byte[] FIND = Literals.ascii("find");
    private static final byte[] AGGREGATE = Literals.ascii("aggregate");
    private static final byte[] COUNT = Literals.ascii("count");
    private static final byte[] DISTINCT = Literals.ascii("distinct");

    private final ShapeParts parts;
    private final FindShape find;
    private final AggregateShape aggregate;
    private final CountShape count;
    private final DistinctShape distinct;
    private String refusal = "";
    /** The hash the last {@link #write} of a find, count or distinct computed. */
    private String hash = "";

    /** A shaper of commands as the driver sends them. */
    public QueryShaper() {
        this(false);
    }

    /**
     * @param unitTestRequests shape requests as the server's own unit tests build them, not as its command parser reads them: a
     * {@code showRecordId} find gets no {@code $recordId} projection, and a collection may be named by UUID (hashed with its 16
     * raw bytes, as the server's master branch does). For the pinned hashes of those tests only.
     */
    QueryShaper(final boolean unitTestRequests) {
        this.parts = new ShapeParts(unitTestRequests);
        this.find = new FindShape(parts);
        this.aggregate = new AggregateShape(parts);
        this.count = new CountShape(parts);
        this.distinct = new DistinctShape(parts);
    }

    /**
     * Shapes the command {@code src[off, end)} as the driver sends it.
     *
     * @return its shape, or null where the engine can not give the exact one ({@link #refusal()} says why)
     */
    @Nullable
    public QueryShape shape(final byte[] src, final int off, final int end) {
        return shape(src, off, end, false);
    }

    /**
     * Shapes a redacted copy of a command, typed placeholder strings read as values of their type.
     *
     * @return its shape, or null where the copy can not tell the exact one ({@link #refusal()} says why)
     */
    @Nullable
    public QueryShape shapeRedacted(final byte[] src, final int off, final int end) {
        return shape(src, off, end, true);
    }

    /** @return why the last call gave no shape; empty when it gave one */
    public String refusal() {
        return refusal;
    }

    /**
     * Whether the redacted copy {@code src[off, end)} has {@code shape}, typed placeholder strings read as values of their
     * type: the same command, the same debug and representative shapes (from which the hash follows). Makes neither a shape
     * nor a hash: what {@code shapeRedacted(...).equals(shape)} answers, at the cost of writing the copy's shape only.
     *
     * @return false where the copy has another shape or none ({@link #refusal()} says why it has none)
     */
    public boolean hasShapeRedacted(final QueryShape shape, final byte[] src, final int off, final int end) {
        parts.hasher.hashing(false);
        try {
            String name = write(src, off, end, true);
            if (name == null) {
                return false;
            }
            int debug = parts.out.debug.end();
            int representative = parts.out.representative.end();
            return shape.is(name, parts.out.debug.array(), debug, parts.out.representative.array(), representative);
        } finally {
            parts.hasher.hashing(true);
            parts.release();
        }
    }

    @Nullable
    private QueryShape shape(final byte[] src, final int off, final int end, final boolean placeholders) {
        try {
            String name = write(src, off, end, placeholders);
            if (name == null) {
                return null;
            }
            byte[] debug = parts.out.debug.finish();
            byte[] representative = parts.out.representative.finish();
            String hash = name.equals("aggregate") ? aggregate.hash(representative) : this.hash;
            return new QueryShape(name, debug, representative, hash, name.equals("count") ? "8.1" : "8.0");
        } finally {
            parts.release();
        }
    }

    /**
     * Writes the shape of the command {@code src[off, end)} into the shaper's buffers, the top-level document left open, and
     * the hash of a find, count or distinct into {@link #hash}.
     *
     * @return the command's name, or null where the engine can not give the exact shape ({@link #refusal()} says why)
     */
    @Nullable
    private String write(final byte[] src, final int off, final int end, final boolean placeholders) {
        refusal = "";
        hash = "";
        if (off < 0 || end > src.length || end < off) {
            refusal = "bounds out of the array";
            return null;
        }
        Source in = parts.in;
        try {
            in.bind(src, end, placeholders);
            parts.reset();
            int topEnd = in.open(off, 0);
            if (topEnd == off + 4) {
                throw Unshapeable.because("an empty command");
            }
            in.read(off + 4, topEnd);
            byte type = in.type();
            int value = in.value();
            int second = in.valueEnd();
            if (in.keyIs(FIND)) {
                hash = find.write(type, value, second, topEnd);
                return "find";
            }
            if (in.keyIs(AGGREGATE)) {
                aggregate.write(type, value, second, topEnd);
                return "aggregate";
            }
            if (in.keyIs(COUNT)) {
                hash = count.write(type, value, second, topEnd);
                return "count";
            }
            if (in.keyIs(DISTINCT)) {
                hash = distinct.write(type, value, second, topEnd);
                return "distinct";
            }
            throw Unshapeable.because("not a find, aggregate, count or distinct command");
        } catch (Unshapeable e) {
            refusal = String.valueOf(e.getMessage());
            return null;
        } catch (BsonFormatException e) {
            refusal = "malformed BSON: " + e.getMessage();
            return null;
        } finally {
            in.clear();
        }
    }
}
