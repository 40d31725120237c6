package io.github.mongoredact.internal.bson;

import com.mongodb.lang.Nullable;

/**
 * Where an encoder's bytes go: a position that always advances, and a destination array written while the bytes fit below
 * its limit. Three modes by the same code, so that sizing and writing cannot disagree:
 * <ul>
 *     <li>counting ({@link #count(int)}): no destination, only the position moves;</li>
 *     <li>exact ({@link #exact(byte[], int)}): the caller sized the destination, every byte fits;</li>
 *     <li>bounded ({@link #bounded(byte[], int, int)}): one pass into a scratch array whose room is a guess; the first byte
 *     that does not fit turns the output into counting mode ({@link #overflowed()}), so that the pass still ends with the exact
 *     size and the caller can size an array and write again.</li>
 * </ul>
 *
 * <p>Not thread-safe: one instance per encoder, reused. {@link #clear()} forgets the destination.</p>
 */
public final class Output {
    @Nullable
    private byte[] dst;
    private int pos;
    /** Bytes below this index may be written; {@link Integer#MIN_VALUE} while counting. */
    private int limit = Integer.MIN_VALUE;
    private boolean overflowed;
    @Nullable
    private byte[] suspendedDst;
    private int suspendedLimit;
    private int suspendedPos;

    /** Counting mode from position {@code from}. */
    public void count(final int from) {
        set(null, from, Integer.MIN_VALUE);
    }

    /** Writes into {@code dst} from {@code from}; the caller sized it exactly. */
    public void exact(final byte[] dst, final int from) {
        set(dst, from, dst.length);
    }

    /** Writes into {@code dst} from {@code from} while below {@code limit}, then counts. */
    public void bounded(final byte[] dst, final int from, final int limit) {
        set(dst, from, Math.min(limit, dst.length));
    }

    private void set(@Nullable final byte[] dst, final int from, final int limit) {
        this.dst = dst;
        this.pos = from;
        this.limit = limit;
        this.overflowed = false;
    }

    /** Forgets the destination (it may be a pooled array holding a command's bytes). */
    public void clear() {
        dst = null;
        suspendedDst = null;
        limit = Integer.MIN_VALUE;
    }

    /** @return whether a bounded pass ran out of room (its bytes are incomplete; its position is still exact) */
    public boolean overflowed() {
        return overflowed;
    }

    /** @return whether bytes are being written (false: counting) */
    public boolean writing() {
        return dst != null;
    }

    public int position() {
        return pos;
    }

    /** Moves the position back (a trial measured in counting mode). */
    public void position(final int position) {
        this.pos = position;
    }

    /** Counts from here on, without writing, until {@link #resume()}: a trial measure. Not nested. */
    public void suspend() {
        suspendedDst = dst;
        suspendedLimit = limit;
        suspendedPos = pos;
        dst = null;
        limit = Integer.MIN_VALUE;
    }

    /** Back to the mode and position of {@link #suspend()}. @return the bytes counted since */
    public int resume() {
        int counted = pos - suspendedPos;
        dst = suspendedDst;
        limit = suspendedLimit;
        pos = suspendedPos;
        suspendedDst = null;
        return counted;
    }

    private void spill() {
        if (dst != null) {
            overflowed = true;
            dst = null;
            limit = Integer.MIN_VALUE;
        }
    }

    /** @return the destination while writing: call only when {@link #writing()} */
    private byte[] dst() {
        byte[] d = dst;
        if (d == null) {
            throw new IllegalStateException("no destination: the output is counting");
        }
        return d;
    }

    public void putByte(final byte b) {
        if (pos < limit) {
            dst()[pos] = b;
        } else {
            spill();
        }
        pos++;
    }

    public void putInt(final int value) {
        if (pos + 4 <= limit) {
            Bytes.writeInt(dst(), pos, value);
        } else {
            spill();
        }
        pos += 4;
    }

    public void putLong(final long value) {
        if (pos + 8 <= limit) {
            Bytes.writeLong(dst(), pos, value);
        } else {
            spill();
        }
        pos += 8;
    }

    /** Copies {@code src[from, from + length)}. */
    public void putBytes(final byte[] src, final int from, final int length) {
        if (pos + length <= limit) {
            System.arraycopy(src, from, dst(), pos, length);
        } else {
            spill();
        }
        pos += length;
    }

    public void putArray(final byte[] bytes) {
        putBytes(bytes, 0, bytes.length);
    }

    /** The decimal digits of a non-negative value. */
    public void putDigits(final int value) {
        int digits = Bytes.digits(value);
        if (pos + digits <= limit) {
            Bytes.writeDigits(dst(), pos, value);
        } else {
            spill();
        }
        pos += digits;
    }

    /** Leaves room for a length field, written later by {@link #patchLength(int, int)}. @return its index */
    public int reserveInt() {
        int index = pos;
        if (pos + 4 > limit) {
            spill();
        }
        pos += 4;
        return index;
    }

    /** Writes into the length field at {@code index} (from {@link #reserveInt()}) the bytes from {@code from} to here. */
    public void patchLength(final int index, final int from) {
        if (dst != null) {
            Bytes.writeInt(dst, index, pos - from);
        }
    }

    /**
     * Room for a writer that puts its bytes itself: the destination when {@code length} bytes fit at the position,
     * otherwise null (and from then on counting). The caller then calls {@link #advance(int)}.
     */
    @Nullable
    public byte[] room(final int length) {
        if (pos + length <= limit) {
            return dst;
        }
        spill();
        return null;
    }

    /** @return the bytes that fit at the position while writing; 0 while counting */
    public int remaining() {
        return dst == null ? 0 : limit - pos;
    }

    public void advance(final int length) {
        pos += length;
    }
}
