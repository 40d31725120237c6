package io.github.mongoredact.internal;

/**
 * Per-thread state of the listener: a scratch array for documents that must be gathered into one piece (plain top levels
 * with document sequences, buffers that are not heap arrays), the walker, and where the current source bytes are. Reused, so
 * that steady state allocates nothing here.
 */
final class Workspace {
    /** Scratch arrays larger than this are dropped after use, so that one huge command does not stay reachable. */
    static final int RETAINED_SCRATCH_BYTES = 1 << 20;
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;
    private static final CollectionNames COLLECTION_NAMES = new CollectionNames();
    private static final ThreadLocal<Workspace> CURRENT = ThreadLocal.withInitial(Workspace::new);

    private byte[] scratch = new byte[4096];
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

    /** Grows the scratch array so that {@code count} bytes fit, at least doubling. @return the scratch array */
    byte[] scratch(final int count) {
        long needed = count;
        if (needed <= scratch.length) {
            return scratch;
        }
        if (needed > MAX_ARRAY) {
            throw new BsonFormatException("document too large: count=" + count + " max=" + MAX_ARRAY);
        }
        long grown = Math.max(needed, Math.min(MAX_ARRAY, (long) scratch.length * 2));
        scratch = new byte[(int) grown];
        return scratch;
    }

    /** Drops a scratch array grown past {@link #RETAINED_SCRATCH_BYTES}. */
    void release() {
        source = null;
        if (scratch.length > RETAINED_SCRATCH_BYTES) {
            scratch = new byte[4096];
        }
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
