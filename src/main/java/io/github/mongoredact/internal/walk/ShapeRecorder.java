package io.github.mongoredact.internal.walk;

import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;

import java.util.Arrays;

import static io.github.mongoredact.internal.walk.ShapeReplay.END;
import static io.github.mongoredact.internal.walk.ShapeReplay.MAX_DEPTH;
import static io.github.mongoredact.internal.walk.ShapeReplay.MAX_NODES;

/**
 * Makes the {@link ReplayShape} of a command the walk just redacted: pairs each source element with the output's element under
 * the same key (an element not in the output was dropped: its key and type are remembered; a container replaced whole makes
 * no shape, nor does a walk that masked a key), finds each kept value's node, the collection's and the fingerprint's values.
 * Not thread-safe: one per {@link ShapeReplay}.
 */
final class ShapeRecorder {
    private static final int REPLAYABLE_TYPES = 0b1111_0000_0111_1011_1110;
    private final int[] values = new int[MAX_NODES];
    private final int[] outValues = new int[MAX_NODES];
    private final int[] srcStack = new int[MAX_DEPTH];
    private final int[] outStack = new int[MAX_DEPTH];
    private final boolean[] arrayStack = new boolean[MAX_DEPTH];
    /** Whether the document being paired is an array. */
    private boolean array;
    // where the pairing is: node, source and output positions, their documents' ends, depth
    private int n;
    private int p;
    private int q;
    private int docEnd;
    private int outEnd;
    private int depth;

    /**
     * Fills {@code shape} from the source {@code src[off, end)}, the walk's output {@code template} (written at {@code outOff}
     * of the walk's destination) and what the walker logged and found.
     *
     * @return whether the walk can be replayed exactly: if not, the shape is to be ignored
     */
    boolean shape(final ReplayShape shape, final byte[] src, final int off, final int end, final byte[] template,
                  final RedactionWalker walker, final int outOff) {
        HoleLog log = walker.holes();
        shape.nodes = 0;
        try {
            if (!nodes(shape, src, off, end, template) || !holes(shape, log, outOff)
                    || !collection(shape, src, walker.collectionOffset(), walker.collectionLength())) {
                return false;
            }
        } catch (BsonFormatException | ArrayIndexOutOfBoundsException e) {
            return false;
        }
        shape.template = template;
        shape.valuesRedacted = walker.valuesRedacted();
        shape.fingerprinted = log.fingerprinted() && hashed(shape, log);
        shape.fingerprint = shape.fingerprinted ? walker.fingerprint() : 0;
        return true;
    }

    /** Pairs the source's elements with the output's, which must hold each under the same key. @return whether all pair */
    private boolean nodes(final ReplayShape shape, final byte[] src, final int off, final int end, final byte[] template) {
        n = 0;
        p = off + 4;
        docEnd = end - 1;
        q = 4;
        outEnd = template.length - 1;
        depth = 0;
        array = false;
        shape.droppedKeysLength = 0;
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
            array = arrayStack[depth];
        }
        return false;
    }

    /** Pairs the source's element at {@code p} with the output's at {@code q}, and moves past them (or into them). */
    private boolean pair(final ReplayShape shape, final byte[] src, final byte[] template) {
        byte type = src[p];
        if (!replayable(type)) {
            return false;
        }
        int keyEnd = BsonBounds.cstringEnd(src, p + 1, docEnd);
        int keyLength = keyEnd - p - 1;
        int outKeyEnd = q < outEnd ? BsonBounds.cstringEnd(template, q + 1, outEnd) : -1;
        if (outKeyEnd < 0 || outKeyEnd - q - 1 != keyLength || !Arrays.equals(src, p + 1, keyEnd, template, q + 1, outKeyEnd)) {
            // not in the output under its key: dropped by the policy (keys are masked in no remembered walk), except in an
            // array, whose elements are all written
            return !array && dropped(shape, src, type, keyEnd);
        }
        byte outType = template[q];
        int v = keyEnd + 1;
        int w = outKeyEnd + 1;
        shape.types[n] = type;
        shape.keyOffsets[n] = q + 1;
        shape.keyLengths[n] = keyLength;
        shape.subtypes[n] = type == BsonTypes.BINARY ? src[v + 4] : 0;
        shape.hole[n] = false;
        shape.dropped[n] = false;
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
        arrayStack[depth] = array;
        depth++;
        array = type == BsonTypes.ARRAY;
        docEnd = valueEnd - 1;
        outEnd = outValueEnd - 1;
        p = v + 4;
        q = w + 4;
        return true;
    }

    /** A source element the output does not hold: remembered by its key and type, its value skipped as the walk skips it. */
    private boolean dropped(final ReplayShape shape, final byte[] src, final byte type, final int keyEnd) {
        int keyLength = keyEnd - p - 1;
        int v = keyEnd + 1;
        shape.types[n] = type;
        shape.keyOffsets[n] = shape.droppedKeysLength;
        shape.keyLengths[n] = keyLength;
        shape.subtypes[n] = type == BsonTypes.BINARY ? src[v + 4] : 0;
        shape.hole[n] = false;
        shape.dropped[n] = true;
        System.arraycopy(src, p + 1, shape.droppedKeys, shape.droppedKeysLength, keyLength);
        shape.droppedKeysLength += keyLength;
        values[n] = v;
        outValues[n] = -1;
        n++;
        p = BsonBounds.valueEnd(src, type, v, docEnd);
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
            shape.keptOuts[node] = log.out[h] - outOff;
            shape.keptLengths[node] = log.length[h];
        }
        shape.holes = log.holes;
        return true;
    }

    /** Finds the kept value of each value the fingerprint mixed in. @return whether each is one */
    private boolean hashed(final ReplayShape shape, final HoleLog log) {
        for (int h = 0; h < log.hashedValues; h++) {
            int node = nodeAt(shape, log.hashed[h]);
            if (node < 0 || !shape.hole[node]) {
                return false;
            }
            shape.hashedNodes[h] = node;
        }
        shape.hashedValues = log.hashedValues;
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
}
