package io.github.mongoredact.internal.rules;

import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;

import java.nio.charset.StandardCharsets;

/**
 * Where a command names its collection, stated once for the walk's analysis and for the metrics-path summary: the string
 * value of its first field, else of a top-level {@code collection} field (getMore's), in both cases only where the rules keep
 * that field ({@link TopLevelRules} answers that part).
 */
public final class CollectionField {
    /** The key of the field that names the collection when the first does not (getMore). */
    public static final String KEY = "collection";
    private static final byte[] KEY_BYTES = KEY.getBytes(StandardCharsets.US_ASCII);

    private CollectionField() {
    }

    /**
     * @param first whether the element is the first of the command's top level
     * @return whether the top-level element of this type and key {@code src[key, key + keyLength)} names the collection, if
     *         the rules keep it
     */
    public static boolean mayName(final boolean first, final byte type, final byte[] src, final int key, final int keyLength) {
        return type == BsonTypes.STRING && (first || isKey(src, key, keyLength));
    }

    /** The same for an entry of a plain top level whose value is a string. */
    public static boolean mayName(final boolean first, final String key) {
        return first || KEY.equals(key);
    }

    /** @return whether the key {@code src[off, off + len)} is {@code collection} */
    public static boolean isKey(final byte[] src, final int off, final int len) {
        return Bytes.equal(KEY_BYTES, src, off, len);
    }
}
