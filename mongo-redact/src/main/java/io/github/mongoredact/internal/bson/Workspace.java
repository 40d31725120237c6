package io.github.mongoredact.internal.bson;

import com.mongodb.lang.Nullable;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Byte space of one redaction: the {@link #input} scratch, where a document is gathered into one piece (a plain top level with
 * its document sequences placed, a buffer that is not a heap array), the {@link #output} scratch, where a walk writes before
 * the exact copy, the encoder that gathers, and where the current source bytes are. Held by a {@code DocumentRedactor}, and
 * borrowed with it for one callback from the listener's bounded pool, so that no thread keeps one.
 *
 * <p>Each scratch keeps only a small array between callbacks ({@link #RETAINED_SCRATCH_BYTES}). A larger one is borrowed from
 * one pool shared by all threads ({@link #POOL_SLOTS} arrays of at most {@link #MAX_POOLED_BYTES} each) and given back by
 * {@link #release()} at the end of the callback; when the pool has none that fits, an array of the size needed is allocated
 * and, if the pool has no room for it, dropped after the callback. Taking and giving back never blocks: one compare-and-set
 * per slot looked at. Steady state allocates nothing for commands up to the pooled size.</p>
 *
 * <p>Pooled arrays hold the raw bytes of earlier commands: they never leave this package's callers, and each use reads only
 * what it wrote.</p>
 */
public final class Workspace implements DocumentBytes.Viewer {
    /** Scratch arrays up to this size stay with their scratch (and so with the pooled redactor that holds it). */
    static final int RETAINED_SCRATCH_BYTES = 64 * 1024;
    /** Scratch arrays up to this size go back to the shared pool after the callback; larger ones are dropped. */
    static final int MAX_POOLED_BYTES = 4 << 20;
    /** Arrays the shared pool holds at most: with {@link #MAX_POOLED_BYTES}, at most 16 MiB in all. */
    static final int POOL_SLOTS = 4;
    /** The largest array every JVM allocates. */
    public static final int MAX_ARRAY = Integer.MAX_VALUE - 8;
    /** Pooled arrays are sized in steps of this, so that commands of about the same size share them. */
    private static final int POOLED_STEP = 64 * 1024;
    private static final int INITIAL_SCRATCH_BYTES = 4096;
    private static final AtomicReferenceArray<byte[]> POOL = new AtomicReferenceArray<>(POOL_SLOTS);

    /** Where a document is gathered into one piece: a plain top level encoded, a buffer that is not a heap array copied. */
    public final Scratch input = new Scratch();
    /** Where a walk writes its output, before the exact copy. */
    public final Scratch output = new Scratch();
    /** Where the documents of a sequence that are not in heap arrays are copied, to be read in one array. */
    public final Scratch gathered = new Scratch();
    public final PlainEncoder encoder = new PlainEncoder();

    /**
     * The current source; after {@link #release()}, still the input scratch's own array where it was that (a plain top level
     * encoded there: the next call encodes there again, and a reference stored afresh into this long-lived object costs the
     * collector's write barrier), else null.
     */
    @Nullable
    private byte[] source;
    /** Whether {@link #source} is the current one (false after {@link #release()}). */
    private boolean sourced;
    private int sourceOff;
    private int sourceEnd;

    /** {@link Scratch#array} of the {@link #input} scratch. */
    public byte[] scratch(final int count) {
        return input.array(count);
    }

    /**
     * Forgets the current source, which may be a driver buffer's array (the input scratch's own array, kept anyway, stays
     * referenced), and gives borrowed scratch arrays back.
     */
    public void release() {
        if (!input.retains(source)) {
            source = null;
        }
        sourced = false;
        input.release();
        output.release();
        gathered.release();
    }

    @Override
    public void source(final byte[] array, final int off, final int end) {
        if (source != array) {
            source = array;
        }
        sourced = true;
        this.sourceOff = off;
        this.sourceEnd = end;
    }

    /** @return the current source array: call only between {@link #source(byte[], int, int)} and {@link #release()} */
    public byte[] source() {
        byte[] current = source;
        if (current == null || !sourced) {
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

    /**
     * One scratch: its own small array (grown by doubling up to {@link #RETAINED_SCRATCH_BYTES}), or a larger one borrowed from
     * the shared pool (or allocated past it) until {@link #release()}. As the {@link Output.Growth} of a growing output, it
     * replaces the array by a larger one with the bytes written so far.
     */
    public static final class Scratch implements Output.Growth {
        /** Made on first use, at {@link #INITIAL_SCRATCH_BYTES} at least: a fresh redactor holds no scratch yet. */
        private byte[] own = new byte[0];
        /** The array taken from the pool (or allocated past it) for the current callback; given back by {@link #release()}. */
        @Nullable
        private byte[] borrowed;

        /**
         * An array with room for {@code count} bytes, valid until {@link #release()} or the next call (whose array replaces
         * it, its bytes not kept). Up to {@link #RETAINED_SCRATCH_BYTES} it is the scratch's own array (grown by doubling up to
         * that bound); a larger one comes from the shared pool or is allocated at the size needed (rounded up to 64 KiB only
         * while it can be pooled).
         */
        public byte[] array(final int count) {
            if (count <= own.length) {
                return own;
            }
            if (count > MAX_ARRAY || count < 0) {
                throw new BsonFormatException("document too large: count=" + count + " max=" + MAX_ARRAY);
            }
            if (count <= RETAINED_SCRATCH_BYTES) {
                long doubled = Math.max(INITIAL_SCRATCH_BYTES, (long) own.length * 2);
                own = new byte[(int) Math.min(RETAINED_SCRATCH_BYTES, Math.max(count, doubled))];
                return own;
            }
            byte[] held = borrowed;
            if (held != null && held.length >= count) {
                return held;
            }
            // the caller is done with the smaller array (each call replaces the previous one): give it back first
            release();
            held = take(count);
            if (held == null) {
                held = new byte[count <= MAX_POOLED_BYTES ? pooledSize(count) : count];
            }
            borrowed = held;
            return held;
        }

        @Override
        public byte[] grow(final byte[] current, final int used, final int needed) {
            if (needed < 0 || needed > MAX_ARRAY) {
                throw new BsonFormatException("document too large: count=" + needed + " max=" + MAX_ARRAY);
            }
            int wanted = (int) Math.min(MAX_ARRAY, Math.max(Math.max(needed, INITIAL_SCRATCH_BYTES), 2L * current.length));
            byte[] next;
            if (wanted <= RETAINED_SCRATCH_BYTES) {
                next = new byte[wanted];
                own = next;
            } else {
                next = take(wanted);
                if (next == null) {
                    next = new byte[wanted <= MAX_POOLED_BYTES ? pooledSize(wanted) : wanted];
                }
            }
            System.arraycopy(current, 0, next, 0, used);
            if (next != own) {
                byte[] previous = borrowed;
                borrowed = next;
                if (previous != null) {
                    offer(previous);
                }
            }
            return next;
        }

        /** Gives a borrowed array back to the shared pool; the scratch keeps its own small one. */
        /** @return whether {@code array} is this scratch's own array, which it keeps between callbacks */
        @Override
        public boolean retains(@Nullable final byte[] array) {
            return array != null && array == own;
        }

        /** @return this scratch's own array, which it keeps between callbacks (empty until a call needed one) */
        public byte[] kept() {
            return own;
        }

        public void release() {
            byte[] array = borrowed;
            if (array != null) {
                borrowed = null;
                offer(array);
            }
        }
    }
}
