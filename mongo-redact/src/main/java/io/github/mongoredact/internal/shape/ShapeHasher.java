package io.github.mongoredact.internal.shape;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The {@code queryShapeHash}: SHA-256 over the bytes a command type defines (FACTS §1: find's options word, namespace and
 * representative parts; count's and distinct's layouts; an aggregate's whole representative shape), shown as 64 upper-case hex
 * digits as the server shows {@code SHA256Block::toHexString}. Multi-byte integers are little-endian; an absent part is the
 * empty document.
 *
 * <p>Not thread-safe: one per {@link QueryShaper}, its digest reused for every hash.</p>
 */
final class ShapeHasher {
    /** The empty BSON document. */
    static final byte[] EMPTY_DOCUMENT = {5, 0, 0, 0, 0};
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private final MessageDigest sha256;
    private final byte[] scratch = new byte[4];
    /** Whether the bytes are hashed: off while a shape is only compared with another, whose hash is known. */
    private boolean hashing = true;

    ShapeHasher() {
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // every Java platform implements SHA-256
            throw new IllegalStateException(e);
        }
    }

    /** @param on whether the next shapes' bytes are hashed */
    void hashing(final boolean on) {
        hashing = on;
    }

    void start() {
        sha256.reset();
    }

    void bytes(final byte[] src, final int off, final int len) {
        if (hashing) {
            sha256.update(src, off, len);
        }
    }

    void bytes(final byte[] src) {
        sha256.update(src, 0, src.length);
    }

    /** A part that is a document: {@code src[start, end)}, or the empty document when {@code start < 0}. */
    void document(final byte[] src, final int start, final int end) {
        if (start < 0) {
            bytes(EMPTY_DOCUMENT);
        } else {
            bytes(src, start, end - start);
        }
    }

    void uint32(final int value) {
        scratch[0] = (byte) value;
        scratch[1] = (byte) (value >>> 8);
        scratch[2] = (byte) (value >>> 16);
        scratch[3] = (byte) (value >>> 24);
        bytes(scratch, 0, 4);
    }

    void int16(final int value) {
        scratch[0] = (byte) value;
        scratch[1] = (byte) (value >>> 8);
        bytes(scratch, 0, 2);
    }

    void byte1(final int value) {
        scratch[0] = (byte) value;
        bytes(scratch, 0, 1);
    }

    /** @return the digest as 64 upper-case hex digits; empty while the bytes are not hashed */
    String finish() {
        if (!hashing) {
            return "";
        }
        byte[] digest = sha256.digest();
        char[] hex = new char[digest.length * 2];
        for (int i = 0; i < digest.length; i++) {
            hex[2 * i] = HEX[(digest[i] >> 4) & 0xf];
            hex[2 * i + 1] = HEX[digest[i] & 0xf];
        }
        return new String(hex);
    }
}
