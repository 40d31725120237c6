package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.BsonFraming;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.BsonValidation;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.mask.Placeholders;
import io.github.mongoredact.internal.rules.CompiledPolicy;

import java.util.Arrays;

/**
 * The redacted copy of a small command made again without deciding again: a command of the same shape as one walked before
 * (under the same policy and rules, the same keys in the same order with values of the same types, kept values of the same
 * lengths) gets that walk's output with the new command's kept values copied into their places, and its fingerprint where
 * the values the fingerprint mixed in (the namespace) have the same bytes. What a walk decides depends only on keys, types,
 * positions and counts, except where {@link HoleLog} notes otherwise (such a walk is not remembered).
 *
 * <p>A shape is remembered only when every source element appears in the output under its own key or not at all (dropped by
 * the policy: its key and type are remembered), no key masked and no container replaced whole: the other keys are read from
 * the output, so that nothing is kept of a command but its redacted copy, its element types and the keys the policy drops.
 * The new command is checked as the walk checks it (kept strings UTF-8 without NUL, booleans 0 or 1, old binary's lengths,
 * the framing of every element); where it fails, or where a string the walk replaced
 * already is a placeholder, the walk takes it (and reports what fails). Each rule set has a few shapes; where its commands
 * keep changing shape ({@value #TRIAL} walks with fewer than a quarter as many replays), its set rests for {@value #REST}.</p>
 *
 * <p>Not thread-safe: one per {@link DocumentRedactor}, per thread.</p>
 */
final class ShapeReplay {
    /** The largest command (in bytes, as sent) that is remembered. */
    static final int MAX_SOURCE_BYTES = 512;
    /** The walks of one rule set per trial: with fewer than a quarter as many replays, the rule set is no longer remembered. */
    static final int TRIAL = 16;
    static final int MAX_NODES = 96;
    static final int MAX_DEPTH = 8;
    /** Rule sets share {@value #SETS} sets of {@value #WAYS} shapes each, by their identity. */
    private static final int SETS = 4;
    private static final int WAYS = 4;
    /** The walks a set that stopped remembering lets pass before it tries again. */
    private static final int REST = 4096;
    /** The node that closes a document. */
    static final byte END = 0;

    private final ReplayShape[] slots = new ReplayShape[SETS * WAYS];
    /** Where a recording pairs the nodes, at their most; a shape kept takes a copy of the size it needs. */
    private final ReplayShape scratch = new ReplayShape(MAX_NODES, HoleLog.MAX_HOLES);
    private final int[] trialWalks = new int[SETS];
    private final int[] trialReplays = new int[SETS];
    private final int[] resting = new int[SETS];
    private final int[] values = new int[MAX_NODES];
    private final int[] srcStack = new int[MAX_DEPTH];
    private final ShapeRecorder recorder = new ShapeRecorder();
    /** The last replay's output, the collection's place in its source and the values it redacted. */
    @Nullable byte[] output;
    int collectionOffset;
    int collectionLength;
    long valuesRedacted;
    /** The last replay's fingerprint, when its shape was recorded with one. */
    long fingerprint;
    /** Replays made (tests). */
    long replays;

    /** @return whether a walk under these rules is to be logged for {@link #record}: not while its set rests */
    boolean wantsRecording(final CompiledPolicy.RuleSet rules) {
        int set = set(rules);
        if (resting[set] > 0) {
            resting[set]--;
            return false;
        }
        return true;
    }

    /**
     * Replays a shape remembered for these rules on the command {@code src[off, end)}: on success, {@link #output},
     * {@link #collectionOffset} (-1: none), {@link #collectionLength} and {@link #valuesRedacted} are the walk's.
     *
     * @param cap the policy's cap on the output's size, 0 for none
     * @return whether the command had a shape remembered; if not, nothing is set and the walk takes it
     */
    boolean replay(final byte[] src, final int off, final int end, final CompiledPolicy policy,
                   final CompiledPolicy.RuleSet rules, final int cap, final boolean fingerprint) {
        int set = set(rules);
        for (int w = set * WAYS; w < set * WAYS + WAYS; w++) {
            ReplayShape shape = slots[w];
            if (shape == null || shape.rules != rules || shape.policy != policy || shape.nodes == 0
                    || (cap > 0 && shape.template.length > cap) || (fingerprint && !shape.fingerprinted)) {
                continue;
            }
            try {
                if (!matches(shape, src, off, end) || (fingerprint && !sameHashedValues(shape, src))) {
                    continue;
                }
            } catch (BsonFormatException e) {
                // the walk reports it
                return false;
            }
            replayed(shape, src);
            trialReplays[set]++;
            return true;
        }
        return false;
    }

    /** @return whether the kept values the fingerprint mixed in are the recorded walk's: then so is the fingerprint */
    private boolean sameHashedValues(final ReplayShape shape, final byte[] src) {
        for (int h = 0; h < shape.hashedValues; h++) {
            int node = shape.hashedNodes[h];
            if (!sameBytes(src, values[node], shape.template, shape.keptOuts[node], shape.keptLengths[node])) {
                return false;
            }
        }
        return true;
    }

    private void replayed(final ReplayShape shape, final byte[] src) {
        byte[] out = shape.template.clone();
        for (int h = 0; h < shape.holes; h++) {
            int node = shape.holeNodes[h];
            System.arraycopy(src, values[node], out, shape.keptOuts[node], shape.keptLengths[node]);
        }
        int collection = shape.collectionNode;
        collectionOffset = collection < 0 ? -1 : values[collection] + 4;
        collectionLength = collection < 0 ? 0 : Bytes.readInt(src, values[collection]) - 1;
        valuesRedacted = shape.valuesRedacted;
        fingerprint = shape.fingerprint;
        output = out;
        if (shape.hits < Integer.MAX_VALUE) {
            shape.hits++;
        }
        replays++;
    }

    /** Walks the command beside the shape's nodes, noting where each value lies. @return whether all match */
    private boolean matches(final ReplayShape shape, final byte[] src, final int off, final int end) {
        if (end - off < 5 || Bytes.readInt(src, off) != end - off || src[end - 1] != 0) {
            return false;
        }
        byte[] keys = shape.template;
        int n = 0;
        int p = off + 4;
        int docEnd = end - 1;
        int depth = 0;
        while (true) {
            if (n >= shape.nodes) {
                return false;
            }
            byte expected = shape.types[n];
            if (p == docEnd) {
                if (expected != END) {
                    return false;
                }
                n++;
                if (depth == 0) {
                    return n == shape.nodes;
                }
                p = docEnd + 1;
                docEnd = srcStack[--depth];
                continue;
            }
            byte type = src[p];
            if (expected == END || type != expected) {
                return false;
            }
            int keyLength = shape.keyLengths[n];
            int key = p + 1;
            boolean dropped = shape.dropped[n];
            if (key + keyLength >= docEnd || src[key + keyLength] != 0
                    || !sameBytes(src, key, dropped ? shape.droppedKeys : keys, shape.keyOffsets[n], keyLength)) {
                return false;
            }
            int v = key + keyLength + 1;
            int valueEnd = BsonBounds.valueEnd(src, type, v, docEnd);
            values[n] = v;
            if (dropped) {
                // read and skipped as the walk reads and skips it
                skipped(src, type, v, valueEnd);
            } else if (shape.hole[n] && valueEnd - v != shape.keptLengths[n]) {
                // a kept value of another length: the output's lengths differ
                return false;
            } else if (type == BsonTypes.DOCUMENT || type == BsonTypes.ARRAY) {
                srcStack[depth++] = docEnd;
                // entered as the walk enters it: its length's bounds and its terminator checked
                docEnd = BsonFraming.open(src, v, end, depth);
                p = v + 4;
                n++;
                continue;
            } else if (!checked(shape, n, src, type, v, valueEnd)) {
                return false;
            }
            p = valueEnd;
            n++;
        }
    }

    /** The checks the walk makes of an element it drops: its framing (done), a boolean's byte, old binary's lengths. */
    private static void skipped(final byte[] src, final byte type, final int v, final int valueEnd) {
        if (type == BsonTypes.BOOLEAN || type == BsonTypes.BINARY) {
            BsonValidation.checkValue(src, type, v, valueEnd);
        }
    }

    /** Keys and namespaces are short: a loop costs less than a vectorised comparison's call. */
    private static boolean sameBytes(final byte[] src, final int key, final byte[] keys, final int at, final int length) {
        for (int i = 0; i < length; i++) {
            if (src[key + i] != keys[at + i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return whether the scalar passes the checks the walk makes of it (the text of a kept string, a boolean's byte, old
     *         binary's lengths), and is not a placeholder the walk would keep
     * @throws BsonFormatException where the walk's check throws
     */
    private static boolean checked(final ReplayShape shape, final int n, final byte[] src, final byte type, final int v,
                                   final int valueEnd) {
        if (type == BsonTypes.STRING) {
            int length = Bytes.readInt(src, v) - 1;
            if (shape.hole[n]) {
                BsonValidation.checkString(src, v + 4, length);
                return true;
            }
            return src[v + 4] != '?' || !Placeholders.isPlaceholder(src, v + 4, length);
        }
        if (type == BsonTypes.BOOLEAN || type == BsonTypes.BINARY) {
            BsonValidation.checkValue(src, type, v, valueEnd);
        }
        return type != BsonTypes.BINARY || src[v + 4] == shape.subtypes[n];
    }

    /**
     * Remembers the shape of a command the walk just redacted into {@code out[outOff, outOff + size)}, uncapped, with the
     * holes it logged; a shape it cannot replay exactly is not remembered.
     */
    void record(final byte[] src, final int off, final int end, final RedactionWalker walker, final byte[] out, final int outOff,
                final int size) {
        CompiledPolicy.RuleSet rules = walker.rules();
        int set = set(rules);
        if (++trialWalks[set] == TRIAL) {
            boolean changing = trialReplays[set] < TRIAL / 4;
            trialWalks[set] = 0;
            trialReplays[set] = 0;
            if (changing) {
                // these rules' commands keep changing shape (or cannot be replayed): the set rests, then tries again
                Arrays.fill(slots, set * WAYS, set * WAYS + WAYS, null);
                resting[set] = REST;
                return;
            }
        }
        HoleLog log = walker.holes();
        if (!log.replayable() || end - off > MAX_SOURCE_BYTES) {
            return;
        }
        ReplayShape shape = scratch;
        if (recorder.shape(shape, src, off, end, Arrays.copyOfRange(out, outOff, outOff + size), walker, outOff)) {
            victim(set).take(shape, walker.policy(), rules);
        }
    }

    /** @return the way of the set to record into: an empty one, else the one replayed least lately (hits halve per record) */
    private ReplayShape victim(final int set) {
        int chosen = -1;
        for (int w = set * WAYS; w < set * WAYS + WAYS; w++) {
            ReplayShape shape = slots[w];
            if (shape == null) {
                shape = new ReplayShape(0, 0);
                slots[w] = shape;
            }
            shape.hits >>= 1;
            if (chosen < 0 || shape.nodes == 0 && slots[chosen].nodes != 0 || shape.hits < slots[chosen].hits) {
                chosen = w;
            }
        }
        return slots[chosen];
    }

    private static int set(final CompiledPolicy.RuleSet rules) {
        return System.identityHashCode(rules) & (SETS - 1);
    }
}
