package io.github.mongoredact.internal.mask;

import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;

import java.nio.charset.StandardCharsets;

/**
 * The placeholder strings that replace redacted values, one per BSON type, as UTF-8 bytes.
 */
public final class Placeholders {
    static final byte[] FIXED = bytes("?");
    private static final byte[][] TYPED = new byte[256][];
    private static final byte[][] ALL;

    static {
        TYPED[BsonTypes.DOUBLE] = bytes("?number");
        TYPED[BsonTypes.STRING] = bytes("?string");
        TYPED[BsonTypes.DOCUMENT] = bytes("?object");
        TYPED[BsonTypes.ARRAY] = bytes("?array");
        TYPED[BsonTypes.BINARY] = bytes("?binData");
        TYPED[BsonTypes.UNDEFINED] = bytes("?undefined");
        TYPED[BsonTypes.OBJECT_ID] = bytes("?objectId");
        TYPED[BsonTypes.BOOLEAN] = bytes("?bool");
        TYPED[BsonTypes.DATE_TIME] = bytes("?date");
        TYPED[BsonTypes.NULL] = bytes("?null");
        TYPED[BsonTypes.REGEX] = bytes("?regex");
        TYPED[BsonTypes.DB_POINTER] = bytes("?dbPointer");
        TYPED[BsonTypes.JAVASCRIPT] = bytes("?javascript");
        TYPED[BsonTypes.SYMBOL] = bytes("?symbol");
        TYPED[BsonTypes.CODE_WITH_SCOPE] = bytes("?javascriptWithScope");
        TYPED[BsonTypes.INT32] = TYPED[BsonTypes.DOUBLE];
        TYPED[BsonTypes.TIMESTAMP] = bytes("?timestamp");
        TYPED[BsonTypes.INT64] = TYPED[BsonTypes.DOUBLE];
        TYPED[BsonTypes.DECIMAL128] = TYPED[BsonTypes.DOUBLE];
        TYPED[BsonTypes.MIN_KEY & 0xff] = bytes("?minKey");
        TYPED[BsonTypes.MAX_KEY] = bytes("?maxKey");
        ALL = new byte[][]{FIXED, TYPED[BsonTypes.DOUBLE], TYPED[BsonTypes.STRING], TYPED[BsonTypes.DOCUMENT],
                TYPED[BsonTypes.ARRAY], TYPED[BsonTypes.BINARY], TYPED[BsonTypes.UNDEFINED], TYPED[BsonTypes.OBJECT_ID],
                TYPED[BsonTypes.BOOLEAN], TYPED[BsonTypes.DATE_TIME], TYPED[BsonTypes.NULL], TYPED[BsonTypes.REGEX],
                TYPED[BsonTypes.DB_POINTER], TYPED[BsonTypes.JAVASCRIPT], TYPED[BsonTypes.SYMBOL], TYPED[BsonTypes.CODE_WITH_SCOPE],
                TYPED[BsonTypes.TIMESTAMP], TYPED[BsonTypes.MIN_KEY & 0xff], TYPED[BsonTypes.MAX_KEY]};
    }

    private Placeholders() {
    }

    private static byte[] bytes(final String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** @return the placeholder for a BSON type byte */
    public static byte[] of(final byte type, final boolean fixed) {
        return fixed ? FIXED : TYPED[type & 0xff];
    }

    /** A small number that stands for the placeholder's category in fingerprints (numbers share one). */
    public static int category(final byte type) {
        switch (type) {
            case BsonTypes.INT32:
            case BsonTypes.INT64:
            case BsonTypes.DECIMAL128:
                return BsonTypes.DOUBLE;
            default:
                return type & 0xff;
        }
    }

    /** @return whether the string bytes {@code src[off, off + len)} are already a placeholder (kept, so that redaction is idempotent) */
    public static boolean isPlaceholder(final byte[] src, final int off, final int len) {
        if (len < 1 || len > 21 || src[off] != '?') {
            return false;
        }
        for (byte[] p : ALL) {
            if (Bytes.equal(p, src, off, len)) {
                return true;
            }
        }
        return false;
    }
}
