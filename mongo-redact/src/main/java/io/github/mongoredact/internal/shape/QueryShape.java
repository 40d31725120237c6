package io.github.mongoredact.internal.shape;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.json.TruncatedJson;
import org.bson.RawBsonDocument;

import java.util.Arrays;

/**
 * The query shape of one command, as MongoDB computes it: the debug shape ({@code $queryStats}' {@code key.queryShape}: the
 * namespace, the command's name and the parts of the command that make its shape, every literal replaced by a string naming its
 * type) and, where the engine reproduces it exactly, the {@code queryShapeHash} (SHA-256 of the representative shape's bytes,
 * 64 upper-case hex digits).
 *
 * <p>Equal shapes are equal by their debug shape's bytes, their hash and their command: the integration compares the shape of a
 * command with the shape of its redacted copy ({@link QueryShaper#shapeRedacted}) and emits only equal ones.</p>
 *
 * <p>Immutable and thread-safe; it owns copies of its bytes. {@link #debugShapeJson()} is rendered on first use.</p>
 */
public final class QueryShape {

    private final String commandName;
    private final byte[] debugShape;
    private final byte[] representativeShape;
    private final String hash;
    private final String hashSince;
    @Nullable
    private volatile String json;

    QueryShape(final String commandName, final byte[] debugShape, final byte[] representativeShape, final String hash,
               final String hashSince) {
        this.commandName = commandName;
        this.debugShape = debugShape;
        this.representativeShape = representativeShape;
        this.hash = hash;
        this.hashSince = hashSince;
    }

    /** @return the command shaped: {@code find}, {@code aggregate}, {@code count} or {@code distinct} */
    public String commandName() {
        return commandName;
    }

    /** @return whether the shape is {@code debug[0, debugLength)} and {@code representative[0, representativeLength)} */
    boolean is(final String name, final byte[] debug, final int debugLength, final byte[] representative,
               final int representativeLength) {
        return commandName.equals(name) && Arrays.equals(debugShape, 0, debugShape.length, debug, 0, debugLength)
                && Arrays.equals(representativeShape, 0, representativeShape.length, representative, 0,
                representativeLength);
    }

    /** @return a copy of the debug shape's BSON bytes */
    public byte[] debugShapeBson() {
        return debugShape.clone();
    }

    /** @return the debug shape as relaxed extended JSON, as the driver's {@code JsonWriter} writes it */
    public String debugShapeJson() {
        String text = json;
        if (text == null) {
            // the log's renderer: the driver's relaxed JSON, written straight from the bytes for the types a shape holds
            text = TruncatedJson.render(new RawBsonDocument(debugShape), 0);
            json = text;
        }
        return text;
    }

    /** @return a copy of the representative shape's BSON bytes (literals as fixed values: what the server hashes) */
    public byte[] representativeShapeBson() {
        return representativeShape.clone();
    }

    /**
     * @return the {@code queryShapeHash}, 64 upper-case hex digits, as the servers from {@link #hashSinceServerVersion()} on
     * report it ({@link QueryShaper} gives no shape where it can not give the hash)
     */
    public String hashHex() {
        return hash;
    }

    /**
     * @return the first server version that reports {@link #hashHex()} for this command: {@code "8.0"} for find, aggregate and
     * distinct; {@code "8.1"} for count (8.0 computes no hash for count)
     */
    public String hashSinceServerVersion() {
        return hashSince;
    }

    @Override
    public boolean equals(final Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof QueryShape)) {
            return false;
        }
        QueryShape that = (QueryShape) o;
        return commandName.equals(that.commandName) && Arrays.equals(debugShape, that.debugShape)
                && hash.equals(that.hash);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(debugShape) * 31 + hash.hashCode();
    }

    @Override
    public String toString() {
        return "QueryShape{" + debugShapeJson() + ", queryShapeHash=" + hash + " (" + hashSince + "+)}";
    }
}
