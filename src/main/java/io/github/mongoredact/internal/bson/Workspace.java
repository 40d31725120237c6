package io.github.mongoredact.internal.bson;

import com.mongodb.lang.Nullable;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Byte space of one redaction: scratch space for documents that must be gathered into one piece (plain top levels with
 * document sequences, buffers that are not heap arrays), the encoder that gathers them, and where the current source bytes
 * are. Held by a {@code DocumentRedactor}, and borrowed with it for one callback from the listener's bounded pool, so that no
 * thread keeps one.
 *
 * <p>A workspace keeps only a small scratch array between callbacks ({@link #THREAD_SCRATCH_BYTES}). A larger scratch is borrowed
 * from one pool shared by all threads ({@link #POOL_SLOTS} arrays of at most {@link #MAX_POOLED_BYTES} each) and given back
 * by {@link #release()} at the end of the callback; when the pool has none that fits, an array of the size needed is
 * allocated and, if the pool has no room for it, dropped after the callback. Taking and giving back never blocks: one
 * compare-and-set per slot looked at. Steady state allocates nothing for commands up to the pooled size.</p>
 *
 * <p>Pooled arrays hold the raw bytes of earlier commands: they never leave this package, and each use reads only what it
 * wrote.</p>
 */
public final class Workspace {
    /** Scratch arrays up to this size stay with the workspace (and so with the pooled redactor that holds it). */
    static final int THREAD_SCRATCH_BYTES = 64 * 1024;
    /** Scratch arrays up to this size go back to the shared pool after the callback; larger ones are dropped. */
    static final int MAX_POOLED_BYTES = 4 << 20;
    /**
     * The largest scratch a redaction asks for to write its output in one pass next to its source: the pooled bound, so
     * that one pass never costs memory the pool does not bound; larger commands are sized, then written exactly.
     */
    public static final int MAX_ONE_PASS_BYTES = MAX_POOLED_BYTES;
    /** Arrays the shared pool holds at most: with {@link #MAX_POOLED_BYTES}, at most 16 MiB in all. */
    static final int POOL_SLOTS = 4;
    /** Pooled arrays are sized in steps of this, so that commands of about the same size share them. */
    private static final int POOLED_STEP = 64 * 1024;
    private static final int INITIAL_SCRATCH_BYTES = 4096;
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;
    private static final AtomicReferenceArray<byte[]> POOL = new AtomicReferenceArray<>(POOL_SLOTS);

    private byte[] scratch = new byte[INITIAL_SCRATCH_BYTES];
    /** The array taken from the pool (or allocated past it) for the current callback; given back by {@link #release()}. */
    @Nullable
    private byte[] borrowed;
    public final PlainEncoder encoder = new PlainEncoder();

    @Nullable
    private byte[] source;
    private int sourceOff;
    private int sourceEnd;

    /**
     * A scratch array with room for {@code count} bytes, valid until {@link #release()} or the next call. Up to
     * {@link #THREAD_SCRATCH_BYTES} it is the workspace's own array (grown by doubling up to that bound); a larger one comes from
     * the shared pool or is allocated at the size needed (rounded up to 64 KiB only while it can be pooled).
     */
    public byte[] scratch(final int count) {
        if (count <= scratch.length) {
            return scratch;
        }
        if (count > MAX_ARRAY || count < 0) {
            throw new BsonFormatException("document too large: count=" + count + " max=" + MAX_ARRAY);
        }
        if (count <= THREAD_SCRATCH_BYTES) {
            scratch = new byte[(int) Math.min(THREAD_SCRATCH_BYTES, Math.max(count, (long) scratch.length * 2))];
            return scratch;
        }
        byte[] held = borrowed;
        if (held != null && held.length >= count) {
            return held;
        }
        // the caller is done with the smaller array (each call replaces the previous scratch): give it back first
        giveBack();
        held = take(count);
        if (held == null) {
            held = new byte[count <= MAX_POOLED_BYTES ? pooledSize(count) : count];
        }
        borrowed = held;
        return held;
    }

    /** Forgets the current source, which may be a driver buffer's array, and gives a borrowed scratch array back. */
    public void release() {
        source = null;
        giveBack();
    }

    public void source(final byte[] array, final int off, final int end) {
        this.source = array;
        this.sourceOff = off;
        this.sourceEnd = end;
    }

    /** @return the current source array: call only between {@link #source(byte[], int, int)} and {@link #release()} */
    public byte[] source() {
        byte[] current = source;
        if (current == null) {
            throw new IllegalStateException("no source: source() is called only between source(array, off, end) and release()");
        }
        return current;
    }

    public int sourceOff() {
        return sourceOff;
    }

    public int sourceEnd() {
        return sourceEnd;
    }

    public int sourceLength() {
        return sourceEnd - sourceOff;
    }

    /** @return the bytes the shared pool holds now (tests and diagnostics; racy) */
    static long pooledBytes() {
        long total = 0;
        for (int i = 0; i < POOL_SLOTS; i++) {
            byte[] array = POOL.get(i);
            total += array == null ? 0 : array.length;
        }
        return total;
    }

    /** Empties the shared pool (tests). */
    static void clearPool() {
        for (int i = 0; i < POOL_SLOTS; i++) {
            POOL.set(i, null);
        }
    }

    private void giveBack() {
        byte[] array = borrowed;
        if (array != null) {
            borrowed = null;
            offer(array);
        }
    }

    private static int pooledSize(final int count) {
        return (int) Math.min(MAX_POOLED_BYTES, ((long) count + POOLED_STEP - 1) / POOLED_STEP * POOLED_STEP);
    }

    /** @return the smallest pooled array with room for {@code count} bytes, now owned by the caller; null if none */
    @Nullable
    private static byte[] take(final int count) {
        if (count > MAX_POOLED_BYTES) {
            return null;
        }
        for (int attempt = 0; attempt < POOL_SLOTS; attempt++) {
            int best = -1;
            byte[] fit = null;
            for (int i = 0; i < POOL_SLOTS; i++) {
                byte[] array = POOL.get(i);
                if (array != null && array.length >= count && (fit == null || array.length < fit.length)) {
                    best = i;
                    fit = array;
                }
            }
            if (fit == null) {
                return null;
            }
            if (POOL.compareAndSet(best, fit, null)) {
                return fit;
            }
            // another thread took it first: look again
        }
        return null;
    }

    /** Keeps the array in an empty slot, or in place of a smaller one; otherwise the collector takes it. */
    private static void offer(final byte[] array) {
        if (array.length > MAX_POOLED_BYTES) {
            return;
        }
        for (int i = 0; i < POOL_SLOTS; i++) {
            if (POOL.get(i) == null && POOL.compareAndSet(i, null, array)) {
                return;
            }
        }
        int smallest = -1;
        byte[] replaced = array;
        for (int i = 0; i < POOL_SLOTS; i++) {
            byte[] pooled = POOL.get(i);
            if (pooled != null && pooled.length < replaced.length) {
                smallest = i;
                replaced = pooled;
            }
        }
        if (smallest >= 0) {
            // a lost race leaves the pool as another thread made it: still bounded, and this array is dropped
            POOL.compareAndSet(smallest, replaced, array);
        }
    }
}
