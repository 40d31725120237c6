package io.github.mongoredact.internal.bson;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An output's modes, and what it is after {@link Output#clear()}: it writes into nothing, whether it forgot its destination
 * (an exact one, an owned copy) or still references a scratch's own array (kept anyway, so that the next call does not store
 * the reference afresh).
 */
class OutputTest {

    @Test
    void aClearedOutputWritesNothingIntoTheScratchArrayItStillReferences() {
        Workspace.Scratch scratch = new Workspace.Scratch();
        byte[] own = scratch.array(64);
        Output out = new Output();
        out.growing(scratch, own, 0);
        out.putByte((byte) 7);
        assertTrue(out.writing());
        out.clear();
        byte[] before = own.clone();
        assertFalse(out.writing());
        assertEquals(0, out.remaining());
        assertNull(out.room(1), "no room while not writing");
        out.putByte((byte) 9);
        int index = out.reserveInt();
        out.patchLength(index, 0);
        assertArrayEquals(before, own, "a cleared output wrote into its scratch's array");
        IllegalStateException e = assertThrows(IllegalStateException.class, out::array);
        assertEquals("no destination: the output is counting", e.getMessage());
    }

    @Test
    void aClearedOutputWritesAgainWhereItIsToldTo() {
        Workspace.Scratch scratch = new Workspace.Scratch();
        Output out = new Output();
        out.growing(scratch, scratch.array(64), 0);
        out.putByte((byte) 1);
        out.clear();
        byte[] exact = new byte[2];
        out.exact(exact, 0);
        out.putByte((byte) 2);
        out.putByte((byte) 3);
        assertArrayEquals(new byte[]{2, 3}, exact);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> out.putByte((byte) 4));
        assertEquals("output larger than sized: capacity=2 needed=3", e.getMessage());
    }

    @Test
    void onlyAScratchsOwnArrayIsRetained() {
        Workspace.Scratch scratch = new Workspace.Scratch();
        byte[] own = scratch.array(64);
        assertTrue(scratch.retains(own));
        assertFalse(scratch.retains(new byte[64]));
        assertFalse(scratch.retains(null));
        byte[] borrowed = scratch.array(Workspace.RETAINED_SCRATCH_BYTES + 1);
        assertFalse(scratch.retains(borrowed), "an array from the shared pool goes back to it");
        scratch.release();
    }
}
