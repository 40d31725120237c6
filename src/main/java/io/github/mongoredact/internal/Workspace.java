package io.github.mongoredact.internal;

import com.mongodb.lang.Nullable;

import java.lang.ref.SoftReference;

/**
 * Per-thread state of the listener: a scratch array for documents that must be gathered into one piece (plain top levels
 * with document sequences, buffers that are not heap arrays), the walker, and where the current source bytes are. Reused, so
 * that steady state allocates nothing here.
 */
final class Workspace {
    /** Scratch arrays up to this size are kept by the thread; larger ones are held softly. */
    static final int RETAINED_SCRATCH_BYTES = 1 << 20;
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;
    private static final CollectionNames COLLECTION_NAMES = new CollectionNames();
    private static final ThreadLocal<Workspace> CURRENT = ThreadLocal.withInitial(Workspace::new);

    private byte[] scratch = new byte[4096];
    @Nullable
    private SoftReference<byte[]> large;
    final RedactionWalker walker = new RedactionWalker();
    final PlainEncoder encoder = new PlainEncoder();
    final DocumentRedactor redactor = new DocumentRedactor(COLLECTION_NAMES);
    final ReplyErrors replyErrors = new ReplyErrors();

    private byte[] source;
    private int sourceOff;
    private int sourceEnd;

    static Workspace current() {
        return CURRENT.get();
    }

    /**
     * A scratch array with room for {@code count} bytes. Up to {@link #RETAINED_SCRATCH_BYTES} the thread keeps it, growing
     * by doubling; a larger one is held softly, so that repeated large commands reuse it while the collector lets it go under
     * memory pressure.
     */
    byte[] scratch(final int count) {
        if (count <= scratch.length) {
            return scratch;
        }
        if (count > MAX_ARRAY || count < 0) {
            throw new BsonFormatException("document too large: count=" + count + " max=" + MAX_ARRAY);
        }
        if (count <= RETAINED_SCRATCH_BYTES) {
            scratch = new byte[(int) Math.min(RETAINED_SCRATCH_BYTES, Math.max(count, (long) scratch.length * 2))];
            return scratch;
        }
        byte[] held = large == null ? null : large.get();
        if (held != null && held.length >= count) {
            return held;
        }
        long grown = Math.max(count, held == null ? 0 : Math.min(MAX_ARRAY, (long) held.length * 2));
        held = new byte[(int) grown];
        large = new SoftReference<>(held);
        return held;
    }

    /** Forgets the current source, which may be a driver buffer's array. */
    void release() {
        source = null;
    }

    void source(final byte[] array, final int off, final int end) {
        this.source = array;
        this.sourceOff = off;
        this.sourceEnd = end;
    }

    byte[] source() {
        return source;
    }

    int sourceOff() {
        return sourceOff;
    }

    int sourceEnd() {
        return sourceEnd;
    }

    int sourceLength() {
        return sourceEnd - sourceOff;
    }
}
