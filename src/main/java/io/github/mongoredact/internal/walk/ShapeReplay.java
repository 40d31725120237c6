package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.BsonValidation;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.mask.Placeholders;
import io.github.mongoredact.internal.rules.CompiledPolicy;

import java.util.Arrays;

/**
 * The redacted copy of a small command made again without deciding again: a command of the same shape as one walked before
 * (under the same policy and rules, the same keys in the same order with values of the same types, kept values of the same
 * lengths) gets that walk's output with the new command's kept values copied into their places. What a walk decides depends
 * only on keys, types, positions and counts, except where {@link HoleLog} notes otherwise (such a walk is not remembered).
 *
 * <p>A shape is remembered only when every source element appears in the output under its own key (nothing dropped, no key
 * masked, no container replaced whole): its keys are then read from the output, and nothing is kept of a command but its
 * redacted copy and its element types. The new command is checked as the walk checks it (kept strings UTF-8 without NUL,
 * booleans 0 or 1, old binary's lengths, the framing of every element); where it fails, or where a string the walk replaced
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
    private static final int MAX_DEPTH = 8;
    /** Rule sets share {@value #SETS} sets of {@value #WAYS} shapes each, by their identity. */
    private static final int SETS = 4;
    private static final int WAYS = 4;
    /** The walks a set that stopped remembering lets pass before it tries again. */
    private static final int REST = 4096;
    private static final int REPLAYABLE_TYPES = 0b1111_0000_0111_1011_1110;
    /** The node that closes a document. */
    private static final byte END = 0;

    private final ReplayShape[] slots = new ReplayShape[SETS * WAYS];
    /** Where a recording pairs the nodes, at their most; a shape kept takes a copy of the size it needs. */
    private final ReplayShape scratch = new ReplayShape(MAX_NODES, HoleLog.MAX_HOLES);
    private final int[] trialWalks = new int[SETS];
    private final int[] trialReplays = new int[SETS];
    private final int[] resting = new int[SETS];
    private final int[] values = new int[MAX_NODES];
    private final int[] outValues = new int[MAX_NODES];
    private final int[] srcStack = new int[MAX_DEPTH];
    private final int[] outStack = new int[MAX_DEPTH];
    // where the recording's pairing is: node, source and output positions, their documents' ends, depth
    private int n;
    private int p;
    private int q;
    private int docEnd;
    private int outEnd;
    private int depth;
    /** The last replay's output, the collection's place in its source and the values it redacted. */
    @Nullable byte[] output;
    int collectionOffset;
    int collectionLength;
    long valuesRedacted;
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
                   final CompiledPolicy.RuleSet rules, final int cap) {
        int set = set(rules);
        for (int w = set * WAYS; w < set * WAYS + WAYS; w++) {
            ReplayShape shape = slots[w];
            if (shape == null || shape.rules != rules || shape.policy != policy || shape.nodes == 0
                    || (cap > 0 && shape.template.length > cap)) {
                continue;
            }
            try {
                if (!matches(shape, src, off, end)) {
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

    private void replayed(final ReplayShape shape, final byte[] src) {
        byte[] out = shape.template.clone();
        for (int h = 0; h < shape.holes; h++) {
            int node = shape.holeNodes[h];
            System.arraycopy(src, values[node], out, shape.holeOuts[h], shape.keptLengths[node]);
        }
        int collection = shape.collectionNode;
        collectionOffset = collection < 0 ? -1 : values[collection] + 4;
        collectionLength = collection < 0 ? 0 : Bytes.readInt(src, values[collection]) - 1;
        valuesRedacted = shape.valuesRedacted;
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
            if (key + keyLength >= docEnd || src[key + keyLength] != 0
                    || !sameKey(src, key, keys, shape.keyOffsets[n], keyLength)) {
                return false;
            }
            int v = key + keyLength + 1;
            int valueEnd = BsonBounds.valueEnd(src, type, v, docEnd);
            if (shape.hole[n] && valueEnd - v != shape.keptLengths[n]) {
                // a kept value of another length: the output's lengths differ
                return false;
            }
            values[n] = v;
            if (type == BsonTypes.DOCUMENT || type == BsonTypes.ARRAY) {
                srcStack[depth++] = docEnd;
                docEnd = valueEnd - 1;
                p = v + 4;
                n++;
                continue;
            }
            if (!checked(shape, n, src, type, v, valueEnd)) {
                return false;
            }
            p = valueEnd;
            n++;
        }
    }

    /** Keys are short: a loop costs less than a vectorised comparison's call. */
    private static boolean sameKey(final byte[] src, final int key, final byte[] keys, final int at, final int length) {
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
        shape.nodes = 0;
        byte[] template = Arrays.copyOfRange(out, outOff, outOff + size);
        try {
            if (!nodes(shape, src, off, end, template) || !holes(shape, log, outOff)
                    || !collection(shape, src, walker.collectionOffset(), walker.collectionLength())) {
                return;
            }
        } catch (BsonFormatException | ArrayIndexOutOfBoundsException e) {
            return;
        }
        shape.template = template;
        shape.valuesRedacted = walker.valuesRedacted();
        victim(set).take(shape, walker.policy(), rules);
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

    /** Pairs the source's elements with the output's, which must hold each under the same key. @return whether all pair */
    private boolean nodes(final ReplayShape shape, final byte[] src, final int off, final int end, final byte[] template) {
        n = 0;
        p = off + 4;
        docEnd = end - 1;
        q = 4;
        outEnd = template.length - 1;
        depth = 0;
        while (n < MAX_NODES) {
            if (p != docEnd) {
                if (!pair(shape, src, template)) {
                    return false;
                }
                continue;
            }
            if (q != outEnd) {
                return false;
            }
            shape.types[n++] = END;
            if (depth == 0) {
                shape.nodes = n;
                return true;
            }
            p = docEnd + 1;
            q = outEnd + 1;
            depth--;
            docEnd = srcStack[depth];
            outEnd = outStack[depth];
        }
        return false;
    }

    /** Pairs the source's element at {@code p} with the output's at {@code q}, and moves past them (or into them). */
    private boolean pair(final ReplayShape shape, final byte[] src, final byte[] template) {
        byte type = src[p];
        if (!replayable(type) || q >= outEnd) {
            return false;
        }
        int keyEnd = BsonBounds.cstringEnd(src, p + 1, docEnd);
        int outKeyEnd = BsonBounds.cstringEnd(template, q + 1, outEnd);
        int keyLength = keyEnd - p - 1;
        if (outKeyEnd - q - 1 != keyLength || !Arrays.equals(src, p + 1, keyEnd, template, q + 1, outKeyEnd)) {
            return false;
        }
        byte outType = template[q];
        int v = keyEnd + 1;
        int w = outKeyEnd + 1;
        shape.types[n] = type;
        shape.keyOffsets[n] = q + 1;
        shape.keyLengths[n] = keyLength;
        shape.subtypes[n] = type == BsonTypes.BINARY ? src[v + 4] : 0;
        shape.hole[n] = false;
        values[n] = v;
        outValues[n] = w;
        n++;
        int valueEnd = BsonBounds.valueEnd(src, type, v, docEnd);
        int outValueEnd = BsonBounds.valueEnd(template, outType, w, outEnd);
        if (type != BsonTypes.DOCUMENT && type != BsonTypes.ARRAY) {
            p = valueEnd;
            q = outValueEnd;
            return true;
        }
        if (outType != type || depth == MAX_DEPTH) {
            // a container replaced whole: the keys inside it are not in the output
            return false;
        }
        srcStack[depth] = docEnd;
        outStack[depth] = outEnd;
        depth++;
        docEnd = valueEnd - 1;
        outEnd = outValueEnd - 1;
        p = v + 4;
        q = w + 4;
        return true;
    }

    /** Finds the node of each value the walk kept. @return whether each is one, at the place in the output it was written */
    private boolean holes(final ReplayShape shape, final HoleLog log, final int outOff) {
        for (int h = 0; h < log.holes; h++) {
            int node = nodeAt(shape, log.src[h]);
            if (node < 0 || outValues[node] != log.out[h] - outOff) {
                return false;
            }
            shape.hole[node] = true;
            shape.holeNodes[h] = node;
            shape.holeOuts[h] = log.out[h] - outOff;
            shape.keptLengths[node] = log.length[h];
        }
        shape.holes = log.holes;
        return true;
    }

    private boolean collection(final ReplayShape shape, final byte[] src, final int collectionOffset, final int collectionLength) {
        shape.collectionNode = -1;
        if (collectionOffset < 0) {
            return true;
        }
        int node = nodeAt(shape, collectionOffset - 4);
        if (node < 0 || shape.types[node] != BsonTypes.STRING || Bytes.readInt(src, collectionOffset - 4) - 1 != collectionLength) {
            return false;
        }
        shape.collectionNode = node;
        return true;
    }

    private int nodeAt(final ReplayShape shape, final int value) {
        for (int i = 0; i < shape.nodes; i++) {
            if (shape.types[i] != END && values[i] == value) {
                return i;
            }
        }
        return -1;
    }

    /** The types a shape may hold: those whose value the walk reads by its type alone (no code, regex, pointer, symbol). */
    private static boolean replayable(final byte type) {
        // double, string, document, array, binary, object id, boolean, date, null, int32, timestamp, int64, decimal128
        return type >= 0 && type < 0x14 && (REPLAYABLE_TYPES & (1 << type)) != 0;
    }

    private static int set(final CompiledPolicy.RuleSet rules) {
        return System.identityHashCode(rules) & (SETS - 1);
    }
}
