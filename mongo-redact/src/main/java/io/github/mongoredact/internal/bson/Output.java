package io.github.mongoredact.internal.bson;

import com.mongodb.lang.Nullable;

/**
 * Where an encoder's bytes go: a position that always advances, and a destination array written at it. Three modes by the
 * same code, so that sizing and writing cannot disagree:
 * <ul>
 *     <li>counting ({@link #count(int)}): no destination, only the position moves;</li>
 *     <li>exact ({@link #exact(byte[], int)}): the caller sized the destination; a byte past its end is an
 *     {@link IllegalStateException} (the sizing and the writing disagreed);</li>
 *     <li>growing ({@link #growing(Growth, byte[], int)}): a scratch array that its {@link Growth} replaces by a larger one,
 *     the bytes written so far copied, when a write needs more room: explicit, by doubling, never past
 *     {@link Workspace#MAX_ARRAY}.</li>
 * </ul>
 *
 * <p>Not thread-safe: one instance per encoder, reused. {@link #clear()} forgets the destination.</p>
 */
public final class Output {
    /**
     * What gives a growing output more room: an array of at least {@code needed} bytes whose first {@code used} bytes are
     * those of {@code current}; {@code current} is the caller's no more.
     */
    public interface Growth {
        /**
         * @return an array of at least {@code needed} bytes holding {@code current[0, used)}
         * @throws BsonFormatException when {@code needed} is past the largest array
         */
        byte[] grow(byte[] current, int used, int needed);

        /**
         * @return whether {@code array} is one this growth keeps between callbacks anyway (its own small array), so that an
         *         output may go on referencing it after {@link #clear()}
         */
        default boolean retains(@Nullable final byte[] array) {
            return false;
        }
    }

    /**
     * The destination while {@link #writing}; after {@link #clear()}, still its growth's own array where the growth retains it
     * (the next call writes there again, and a reference stored afresh into this long-lived object costs the collector's
     * write barrier), else null.
     */
    @Nullable
    private byte[] dst;
    /** Whether bytes are written into {@link #dst} (false: counting, or cleared). */
    private boolean writing;
    private int pos;
    /** Bytes below this index may be written without growing; {@link Integer#MIN_VALUE} while counting. */
    private int limit = Integer.MIN_VALUE;
    /**
     * What grows the destination, while {@link #grows}; else the last one, kept: the growths are the holder's scratches, and a
     * reference stored into this long-lived object costs the collector's write barrier, so it is stored only when it changes.
     */
    @Nullable
    private Growth growth;
    /** Whether the destination grows (false: counting or exact). */
    private boolean grows;
    @Nullable
    private byte[] suspendedDst;
    private int suspendedLimit;
    private int suspendedPos;

    /** Counting mode from position {@code from}. */
    public void count(final int from) {
        set(null, from, Integer.MIN_VALUE, null);
    }

    /** Writes into {@code dst} from {@code from}; the caller sized it exactly. */
    public void exact(final byte[] dst, final int from) {
        set(dst, from, dst.length, null);
    }

    /** Writes into {@code dst} from {@code from}, which {@code growth} replaces by a larger array where a write needs it. */
    public void growing(final Growth growth, final byte[] dst, final int from) {
        set(dst, from, dst.length, growth);
    }

    private void set(@Nullable final byte[] dst, final int from, final int limit, @Nullable final Growth growth) {
        // each stored only when it changes (the write barrier, above): a scratch's array and growth are the same call to call
        if (this.dst != dst) {
            this.dst = dst;
        }
        this.pos = from;
        this.limit = limit;
        writing = dst != null;
        grows = growth != null;
        if (growth != null && this.growth != growth) {
            this.growth = growth;
        }
    }

    /**
     * Forgets the destination (it may be an owned copy, or a pooled array holding a command's bytes), unless its growth retains
     * it ({@link Growth#retains}).
     */
    public void clear() {
        if (!(grows && growth != null && growth.retains(dst))) {
            dst = null;
        }
        writing = false;
        suspendedDst = null;
        grows = false;
        limit = Integer.MIN_VALUE;
    }

    /** @return whether bytes are being written (false: counting) */
    public boolean writing() {
        return writing;
    }

    /** @return the array written into, which a growing output may have replaced since it started: call only while writing */
    public byte[] array() {
        return dst();
    }

    public int position() {
        return pos;
    }

    /** Counts from here on, without writing, until {@link #resume()}: a trial measure. Not nested. */
    public void suspend() {
        suspendedDst = dst;
        suspendedLimit = limit;
        suspendedPos = pos;
        dst = null;
        writing = false;
        limit = Integer.MIN_VALUE;
    }

    /** Back to the mode and position of {@link #suspend()}. @return the bytes counted since */
    public int resume() {
        int counted = pos - suspendedPos;
        dst = suspendedDst;
        writing = dst != null;
        limit = suspendedLimit;
        pos = suspendedPos;
        suspendedDst = null;
        return counted;
    }

    /** @return the destination while writing: call only when {@link #writing()} */
    private byte[] dst() {
        byte[] d = dst;
        if (d == null || !writing) {
            throw new IllegalStateException("no destination: the output is counting");
        }
        return d;
    }

    /**
     * @return whether {@code length} bytes are to be written at the position (false: counting), the destination grown when
     *         they do not fit it
     */
    private boolean fits(final int length) {
        if (pos + length <= limit) {
            return true;
        }
        if (!writing) {
            if ((long) pos + length > Workspace.MAX_ARRAY) {
                throw tooLarge((long) pos + length);
            }
            return false;
        }
        grow(length);
        return true;
    }

    private static BsonFormatException tooLarge(final long size) {
        return new BsonFormatException("document too large: size=" + size + " max=" + Workspace.MAX_ARRAY);
    }

    private void grow(final int length) {
        byte[] current = dst();
        Growth g = grows ? growth : null;
        long needed = (long) pos + length;
        if (g == null) {
            throw new IllegalStateException("output larger than sized: capacity=" + current.length + " needed=" + needed);
        }
        if (needed > Workspace.MAX_ARRAY) {
            throw tooLarge(needed);
        }
        byte[] next = g.grow(current, pos, (int) needed);
        dst = next;
        limit = next.length;
    }

    public void putByte(final byte b) {
        byte[] d = room(1);
        if (d != null) {
            d[pos] = b;
        }
        pos++;
    }

    public void putInt(final int value) {
        byte[] d = room(4);
        if (d != null) {
            Bytes.writeInt(d, pos, value);
        }
        pos += 4;
    }

    public void putLong(final long value) {
        byte[] d = room(8);
        if (d != null) {
            Bytes.writeLong(d, pos, value);
        }
        pos += 8;
    }

    /** Copies {@code src[from, from + length)}. */
    public void putBytes(final byte[] src, final int from, final int length) {
        byte[] d = room(length);
        if (d != null) {
            System.arraycopy(src, from, d, pos, length);
        }
        pos += length;
    }

    public void putArray(final byte[] bytes) {
        putBytes(bytes, 0, bytes.length);
    }

    /** The decimal digits of a non-negative value. */
    public void putDigits(final int value) {
        int digits = Bytes.digits(value);
        byte[] d = room(digits);
        if (d != null) {
            Bytes.writeDigits(d, pos, value);
        }
        pos += digits;
    }

    /** Leaves room for a length field, written later by {@link #patchLength(int, int)}. @return its index */
    public int reserveInt() {
        int index = pos;
        fits(4);
        pos += 4;
        return index;
    }

    /** Writes into the length field at {@code index} (from {@link #reserveInt()}) the bytes from {@code from} to here. */
    public void patchLength(final int index, final int from) {
        byte[] d = dst;
        if (writing && d != null) {
            Bytes.writeInt(d, index, pos - from);
        }
    }

    /** Writes {@code value} at {@code index}, before the position (a value known only once what follows it was written). */
    public void patchLong(final int index, final long value) {
        byte[] d = dst;
        if (writing && d != null) {
            Bytes.writeLong(d, index, value);
        }
    }

    /**
     * Room for a writer that puts its bytes itself: the destination, with {@code length} bytes at the position (grown where
     * needed), or null while counting. The caller then calls {@link #advance(int)}.
     */
    @Nullable
    public byte[] room(final int length) {
        return fits(length) ? dst : null;
    }

    /** @return the bytes that fit at the position while writing, without growing; 0 while counting */
    public int remaining() {
        return writing ? limit - pos : 0;
    }

    /** Moves the position past {@code length} bytes a writer put itself (or, counting, that it counted). */
    public void advance(final int length) {
        if ((long) pos + length > Workspace.MAX_ARRAY) {
            throw tooLarge((long) pos + length);
        }
        pos += length;
    }
}
