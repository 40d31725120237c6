package io.github.mongoredact.internal.mask;

import io.github.mongoredact.internal.bson.Bytes;

import java.nio.charset.StandardCharsets;

/**
 * The placeholder strings that replace redacted values, one per BSON type, as UTF-8 bytes.
 */
public final class Placeholders {
    public static final byte[] FIXED = bytes("?");
    private static final byte[][] TYPED = new byte[256][];
    private static final byte[][] ALL;

    static {
        TYPED[0x01] = bytes("?number");
        TYPED[0x02] = bytes("?string");
        TYPED[0x03] = bytes("?object");
        TYPED[0x04] = bytes("?array");
        TYPED[0x05] = bytes("?binData");
        TYPED[0x06] = bytes("?undefined");
        TYPED[0x07] = bytes("?objectId");
        TYPED[0x08] = bytes("?bool");
        TYPED[0x09] = bytes("?date");
        TYPED[0x0A] = bytes("?null");
        TYPED[0x0B] = bytes("?regex");
        TYPED[0x0C] = bytes("?dbPointer");
        TYPED[0x0D] = bytes("?javascript");
        TYPED[0x0E] = bytes("?symbol");
        TYPED[0x0F] = bytes("?javascriptWithScope");
        TYPED[0x10] = TYPED[0x01];
        TYPED[0x11] = bytes("?timestamp");
        TYPED[0x12] = TYPED[0x01];
        TYPED[0x13] = TYPED[0x01];
        TYPED[0xFF] = bytes("?minKey");
        TYPED[0x7F] = bytes("?maxKey");
        ALL = new byte[][]{FIXED, TYPED[0x01], TYPED[0x02], TYPED[0x03], TYPED[0x04], TYPED[0x05], TYPED[0x06],
                TYPED[0x07], TYPED[0x08], TYPED[0x09], TYPED[0x0A], TYPED[0x0B], TYPED[0x0C], TYPED[0x0D], TYPED[0x0E],
                TYPED[0x0F], TYPED[0x11], TYPED[0xFF], TYPED[0x7F]};
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
            case 0x10:
            case 0x12:
            case 0x13:
                return 0x01;
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
