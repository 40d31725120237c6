package io.github.mongoredact.internal.policy;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.BsonFraming;
import io.github.mongoredact.internal.bson.BsonValidation;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.bson.Output;

import static io.github.mongoredact.internal.bson.Bytes.readInt;
import static io.github.mongoredact.internal.policy.CompiledPolicy.DROP;
import static io.github.mongoredact.internal.policy.CompiledPolicy.FLAGS_ONLY;
import static io.github.mongoredact.internal.policy.CompiledPolicy.KEEP;
import static io.github.mongoredact.internal.policy.CompiledPolicy.KEEP_FLAGS;
import static io.github.mongoredact.internal.policy.CompiledPolicy.NONE;
import static io.github.mongoredact.internal.policy.CompiledPolicy.PIPELINE;
import static io.github.mongoredact.internal.policy.CompiledPolicy.REDACT;
import static io.github.mongoredact.internal.policy.CompiledPolicy.REDACT_KEYS;
import static io.github.mongoredact.internal.policy.CompiledPolicy.SCRUB;

/**
 * Applies a policy's rules to one BSON document held as bytes. The same walk runs twice: first with no destination, to
 * size the output exactly (and, on that pass, to compute the query-shape fingerprint, find the collection name and count the
 * values redacted), then with the destination array of exactly that size. Because one piece of code decides every byte in both
 * passes, they cannot disagree.
 *
 * <p>Under a redacting policy ({@code strict}) every key, every boolean and old binary, and every kept string is checked as
 * {@link BsonValidation} says; a verbatim policy checks the framing only (lengths, types, terminators, depth).</p>
 *
 * <p>Not thread-safe: one instance per thread, reused. Allocation-free. {@link #clear()} forgets the source and destination
 * at the end of every call, so that the thread's state references no command's bytes after its callback.</p>
 */
final class RedactionWalker {
    static final int MAX_DEPTH = BsonBounds.MAX_DEPTH;
    /** {@code "$truncatedBytes": int64}: type, key, NUL, 8 bytes. */
    static final int TRUNCATION_MARKER_SIZE = 1 + 15 + 1 + 8;
    private static final byte[] TRUNCATED_KEY = {'$', 't', 'r', 'u', 'n', 'c', 'a', 't', 'e', 'd', 'B', 'y', 't', 'e', 's'};
    private static final byte[] OMITTED_KEY = {'$', 'o', 'm', 'i', 't', 't', 'e', 'd'};
    /** {@code {"$omitted": int32}}: length, type, key, NUL, 4 bytes, end. */
    private static final int OMITTED_DOCUMENT_SIZE = 4 + 1 + 8 + 1 + 4 + 1;

    private static final byte[][] COMMAND_SEQUENCES = {
            {'d', 'o', 'c', 'u', 'm', 'e', 'n', 't', 's'}, {'u', 'p', 'd', 'a', 't', 'e', 's'}, {'d', 'e', 'l', 'e', 't', 'e', 's'},
            {'o', 'p', 's'}, {'n', 's', 'I', 'n', 'f', 'o'}};
    private static final byte[] COLLECTION = {'c', 'o', 'l', 'l', 'e', 'c', 't', 'i', 'o', 'n'};
    private static final byte[] CURSOR = {'c', 'u', 'r', 's', 'o', 'r'};
    private static final byte[] FIRST_BATCH = {'f', 'i', 'r', 's', 't', 'B', 'a', 't', 'c', 'h'};
    private static final byte[] NEXT_BATCH = {'n', 'e', 'x', 't', 'B', 'a', 't', 'c', 'h'};
    private static final byte[][] UNHASHED_TOP_LEVEL = {
            {'l', 's', 'i', 'd'}, {'$', 'c', 'l', 'u', 's', 't', 'e', 'r', 'T', 'i', 'm', 'e'},
            {'t', 'x', 'n', 'N', 'u', 'm', 'b', 'e', 'r'}};

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    // input
    private byte[] src;
    private int srcEnd;
    /** Where the bound document starts ({@link #bind}). */
    private int srcOff;
    private CompiledPolicy.RuleSet rules;
    private boolean command;
    private boolean fixed;
    /** Whether keys and kept values are validated as the driver's decoder would (any policy but a verbatim one). */
    private boolean strict;
    private int maxSequence;

    private final Output out = new Output();
    private final BsonFraming framing = new BsonFraming();

    // path of keys from the top (array levels are transparent and not pushed)
    private final int[] keyOff = new int[MAX_DEPTH];
    private final int[] keyLen = new int[MAX_DEPTH];
    private int keyDepth;

    // results of the sizing pass
    private boolean measuring;
    private long hash;
    private int collectionOff;
    private int collectionLen;
    private long valuesRedacted;

    // cap
    private boolean capped;
    private int cap;
    private boolean cut;
    private int openDocuments;
    /** For a capped write: the bytes left out, written into the truncation marker. */
    private long truncated;

    /**
     * Sizes the redacted output of the document at {@code src[off]}, computing fingerprint, collection and counts.
     *
     * @return the exact size of the output in bytes, without any cap
     * @throws BsonFormatException if the bytes are not valid BSON
     */
    int size(final byte[] src, final int off, final int end, final CompiledPolicy.RuleSet rules, final boolean command,
             final CompiledPolicy policy) {
        bind(src, off, end, rules, command, policy);
        int size = analyse(true);
        clear();
        return size;
    }

    /**
     * Binds the source of the next {@link #analyse} or {@link #sizeAndWrite}: the document at {@code src[off]}, before
     * {@code end}, with the rules and policy that apply to it.
     */
    void bind(final byte[] src, final int off, final int end, final CompiledPolicy.RuleSet rules, final boolean command,
              final CompiledPolicy policy) {
        start(src, end, rules, command, policy, null, 0);
        this.srcOff = off;
    }

    /**
     * Sizes the bound document's output and analyses it (collection, values redacted and, when {@code fingerprint}, the
     * query-shape fingerprint), writing nothing.
     *
     * @return the exact size of the output in bytes, without any cap
     */
    int analyse(final boolean fingerprint) {
        out.count(0);
        return analysed(fingerprint, 0);
    }

    /**
     * One pass over the bound document: the analysis of {@link #analyse}, and the output written into {@code dst} from
     * {@code dstOff} while it fits below {@code dstLimit}. When it did not fit ({@link #overflowed()}), the size and the
     * analysis are still exact and the bytes in {@code dst} are to be ignored.
     *
     * @return the exact size of the output in bytes, without any cap
     */
    int sizeAndWrite(final byte[] dst, final int dstOff, final int dstLimit, final boolean fingerprint) {
        out.bounded(dst, dstOff, dstLimit);
        return analysed(fingerprint, dstOff);
    }

    /** @return whether the last {@link #sizeAndWrite} ran out of room in its destination */
    boolean overflowed() {
        return out.overflowed();
    }

    private int analysed(final boolean fingerprint, final int from) {
        measuring = true;
        hash = FNV_OFFSET;
        collectionOff = -1;
        collectionLen = 0;
        valuesRedacted = 0;
        document(srcOff, rules.root, rules.unmatched, 0, false, false, false, true, fingerprint);
        measuring = false;
        return out.position() - from;
    }

    /**
     * Checks the structure of the document at {@code src[off]} (lengths, types, terminators, depth), as {@link #size} does,
     * without computing the analysis.
     *
     * @throws BsonFormatException if the bytes are not valid BSON
     */
    void check(final byte[] src, final int off, final int end, final CompiledPolicy.RuleSet rules, final boolean command,
               final CompiledPolicy policy) {
        if (rules.verbatim) {
            // every element is kept as it is: only the framing matters, checked by one tight loop
            framing.check(src, off, end);
            return;
        }
        start(src, end, rules, command, policy, null, 0);
        document(off, rules.root, rules.unmatched, 0, false, false, false, true, false);
        clear();
    }

    /**
     * Sizes the output under a cap, cutting at element boundaries; call after {@link #size}, with the same arguments.
     *
     * @return the size of the capped output, truncation marker included
     */
    int sizeCapped(final byte[] src, final int off, final int end, final CompiledPolicy.RuleSet rules, final boolean command,
                   final CompiledPolicy policy, final int cap) {
        start(src, end, rules, command, policy, null, 0);
        beginCap(cap);
        document(off, rules.root, rules.unmatched, 0, false, false, false, true, false);
        int size = out.position();
        capped = false;
        clear();
        return size;
    }

    /**
     * Writes the output into {@code dst} at {@code dstOff}: must follow {@link #size} (and {@link #sizeCapped} when
     * {@code cap > 0}) with the same arguments.
     *
     * @param truncatedBytes for a capped write, the bytes left out (written into the marker)
     * @return bytes written
     */
    int write(final byte[] src, final int off, final int end, final CompiledPolicy.RuleSet rules, final boolean command,
              final CompiledPolicy policy, final byte[] dst, final int dstOff, final int cap, final long truncatedBytes) {
        start(src, end, rules, command, policy, dst, dstOff);
        if (cap > 0) {
            beginCap(cap + dstOff);
            truncated = truncatedBytes;
        }
        document(off, rules.root, rules.unmatched, 0, false, false, false, true, false);
        capped = false;
        int written = out.position() - dstOff;
        if (out.overflowed()) {
            throw new IllegalStateException("output larger than sized: sized=" + (dst.length - dstOff) + " written=" + written);
        }
        clear();
        return written;
    }

    /** Forgets the source and destination arrays (the source may be a driver buffer's). Called after every pass. */
    void clear() {
        this.src = null;
        out.clear();
    }

    private void start(final byte[] src, final int end, final CompiledPolicy.RuleSet rules, final boolean command,
                       final CompiledPolicy policy, @Nullable final byte[] dst, final int dstOff) {
        this.src = src;
        this.srcEnd = end;
        this.rules = rules;
        this.command = command;
        this.fixed = policy.fixedPlaceholders;
        this.strict = !rules.verbatim;
        this.maxSequence = policy.maxSequenceDocuments;
        if (dst == null) {
            out.count(dstOff);
        } else {
            out.exact(dst, dstOff);
        }
        this.keyDepth = 0;
        this.capped = false;
        this.cut = false;
        this.openDocuments = 0;
    }

    private void beginCap(final int cap) {
        this.capped = true;
        this.cap = cap;
        this.cut = false;
        this.openDocuments = 0;
    }

    long fingerprint() {
        long h = hash;
        // finalizer (splitmix64) so that close shapes spread over all bits
        h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
        h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
        return h ^ (h >>> 31);
    }

    int collectionOffset() {
        return collectionOff;
    }

    int collectionLength() {
        return collectionLen;
    }

    long valuesRedacted() {
        return valuesRedacted;
    }

    // ---------------------------------------------------------------------------------------------------------------------

    /**
     * Walks the document or array at {@code off}.
     *
     * @param node the rule node of this document (null: no rule below)
     * @param inherited the action that applies to elements no rule names
     * @param array whether this is an array (elements are transparent for paths, keys renumbered)
     * @param sequence whether this array is a document sequence or a reply batch (limited by maxSequenceDocuments)
     * @param maskKeys whether the keys of this document are replaced
     * @param top whether this is the top-level document
     * @param hashing whether this document contributes to the fingerprint
     */
    private void document(final int off, @Nullable final CompiledPolicy.Node node, final byte inherited, final int depth,
                          final boolean array, final boolean sequence, final boolean maskKeys, final boolean top,
                          final boolean hashing) {
        if (depth >= MAX_DEPTH) {
            throw new BsonFormatException("document nested deeper than " + MAX_DEPTH + " levels at index=" + off);
        }
        if (off + 5 > srcEnd) {
            throw new BsonFormatException("document truncated: index=" + off + " end=" + srcEnd);
        }
        int length = readInt(src, off);
        int end = off + length - 1;
        if (length < 5 || (long) off + length > srcEnd) {
            throw new BsonFormatException("document length out of bounds: index=" + off + " length=" + length + " end="
                    + srcEnd);
        }
        if (src[end] != 0) {
            throw new BsonFormatException("document does not end with NUL: index=" + off + " length=" + length);
        }
        int lengthIndex = out.reserveInt();
        openDocuments++;
        if (hashing) {
            mix(array ? 0x44 : 0x33);
        }
        int p = off + 4;
        int index = 0;
        int shown = 0;
        long omitted = 0;
        boolean limit = sequence && maxSequence != Integer.MAX_VALUE;
        while (p < end) {
            if (cut) {
                break;
            }
            byte type = src[p];
            int k = p + 1;
            int keyEnd = BsonBounds.cstringEnd(src, k, end);
            int v = keyEnd + 1;
            int vEnd = BsonBounds.valueEnd(src, type, v, end);
            int kLen = keyEnd - k;
            if (strict) {
                BsonValidation.checkKey(src, k, keyEnd);
                BsonValidation.checkValue(src, type, v, vEnd);
                if (type == 0x0F) {
                    // the driver decodes the scope of a redacted value too
                    checkCodeWithScope(v, vEnd, depth);
                }
            }
            if (limit) {
                if (type == 0x03 && isOmittedMarker(v, vEnd)) {
                    omitted += readInt(src, v + 4 + 1 + 8 + 1);
                    p = vEnd;
                    index++;
                    continue;
                }
                if (shown >= maxSequence) {
                    omitted++;
                    p = vEnd;
                    index++;
                    continue;
                }
            }
            CompiledPolicy.Node child;
            byte action;
            if (array) {
                child = node;
                action = inherited;
            } else {
                if (keyDepth >= MAX_DEPTH) {
                    throw new BsonFormatException("path deeper than " + MAX_DEPTH + " keys at index=" + p);
                }
                keyOff[keyDepth] = k;
                keyLen[keyDepth] = kLen;
                keyDepth++;
                child = node == null ? null : node.child(src, k, kLen);
                action = child == null ? NONE : child.action;
                if (action == NONE) {
                    action = suffixAction();
                }
                if (action == NONE) {
                    action = inherited;
                }
                if (top && command && index == 0) {
                    action = firstFieldAction(action, type, v);
                } else if (top && command && measuring && collectionOff < 0 && type == 0x02
                        && Bytes.equal(COLLECTION, src, k, kLen)) {
                    // getMore names its collection in a field of its own
                    collectionOff = v + 4;
                    collectionLen = readInt(src, v) - 1;
                }
            }
            if (action != DROP) {
                boolean hashElement = hashing && (!array || index == 0) && !(top && isUnhashedTopLevel(k, kLen));
                boolean hashValue = hashElement && top && command && index == 0 && type == 0x02;
                if (capped) {
                    int size = measureElement(type, k, kLen, v, vEnd, child, action, depth, array, shown, maskKeys);
                    if ((long) out.position() + size + reserve() <= cap) {
                        capped = false;
                        element(type, k, kLen, v, vEnd, child, action, depth, array, shown, maskKeys, top, false, false);
                        capped = true;
                    } else if ((type == 0x03 || type == 0x04)
                            && (long) out.position() + 1 + keySize(kLen, array, shown, maskKeys, k) + 1 + 4 + 1 + reserve() <= cap) {
                        // enter the container and cut inside it
                        element(type, k, kLen, v, vEnd, child, action, depth, array, shown, maskKeys, top, false, false);
                    } else {
                        cut = true;
                    }
                } else {
                    element(type, k, kLen, v, vEnd, child, action, depth, array, shown, maskKeys, top, hashElement,
                            hashValue);
                }
                shown++;
            }
            if (!array) {
                keyDepth--;
            }
            p = vEnd;
            index++;
        }
        if (omitted > 0 && !cut) {
            if (!capped || out.position() + 1 + Bytes.digits(shown) + 1 + OMITTED_DOCUMENT_SIZE + reserve() <= cap) {
                writeOmitted(shown, omitted);
            } else {
                cut = true;
            }
        }
        openDocuments--;
        if (top && cut) {
            writeTruncationMarker();
        }
        putByte((byte) 0);
        out.patchLength(lengthIndex, lengthIndex);
    }

    private int keySize(final int kLen, final boolean array, final int outIndex, final boolean maskKeys, final int k) {
        if (maskKeys) {
            return 1 + Bytes.digits(outIndex);
        }
        return array && !isDecimal(k, kLen, outIndex) ? Bytes.digits(outIndex) : kLen;
    }

    /** Bytes to keep free under the cap: one NUL per open document, and the truncation marker. */
    private int reserve() {
        return openDocuments + TRUNCATION_MARKER_SIZE;
    }

    private int measureElement(final byte type, final int k, final int kLen, final int v, final int vEnd,
                               @Nullable final CompiledPolicy.Node child, final byte action, final int depth,
                               final boolean array, final int outIndex, final boolean maskKeys) {
        boolean savedMeasuring = measuring;
        boolean savedCapped = capped;
        int savedOpen = openDocuments;
        out.suspend();
        measuring = false;
        capped = false;
        element(type, k, kLen, v, vEnd, child, action, depth, array, outIndex, maskKeys, false, false, false);
        int size = out.resume();
        measuring = savedMeasuring;
        capped = savedCapped;
        openDocuments = savedOpen;
        return size;
    }

    private void element(final byte type, final int k, final int kLen, final int v, final int vEnd,
                         @Nullable final CompiledPolicy.Node child, final byte action, final int depth, final boolean array,
                         final int outIndex, final boolean maskKeys, final boolean top, final boolean hashElement,
                         final boolean hashValue) {
        boolean container = type == 0x03 || type == 0x04;
        if (hashElement) {
            if (!array && !maskKeys) {
                mixBytes(src, k, kLen);
            }
            mix(container ? type : Placeholders.category(type));
            if (hashValue) {
                mixBytes(src, v + 4, readInt(src, v) - 1);
            }
        }
        if (action == PIPELINE) {
            if (type == 0x04) {
                putByte(type);
                putKey(k, kLen, array, outIndex, maskKeys);
                // each element is a stage: walked with the stage rules, everything they do not name redacted
                document(v, rules.stage, REDACT, depth + 1, true, false, false, false, hashElement);
                return;
            }
            element(type, k, kLen, v, vEnd, null, REDACT, depth, array, outIndex, maskKeys, top, false, false);
            return;
        }
        boolean childSequence = container && isSequence(depth, type, k, kLen);
        boolean holdsLimited = maxSequence != Integer.MAX_VALUE && (childSequence
                || (!command && depth == 0 && type == 0x03 && Bytes.equal(CURSOR, src, k, kLen)));
        if (action == KEEP && !(container && (capped || (child != null && child.hasChildren()) || holdsLimited))) {
            if (container) {
                hashShape(v, type == 0x04, depth + 1, hashElement);
            } else {
                if (type == 0x0F) {
                    checkCodeWithScope(v, vEnd, depth);
                }
                if (strict) {
                    BsonValidation.checkKept(src, type, v, vEnd);
                }
            }
            putByte(type);
            putKey(k, kLen, array, outIndex, maskKeys);
            putBytes(v, vEnd - v);
            return;
        }
        if (container) {
            putByte(type);
            putKey(k, kLen, array, outIndex, maskKeys);
            // masked keys stay masked at every depth below: keys that are data can nest
            byte childInherited = action == KEEP_FLAGS || action == FLAGS_ONLY ? REDACT : action;
            document(v, child, childInherited, depth + 1, type == 0x04, childSequence,
                    action == REDACT_KEYS && type == 0x03, false, hashElement);
            return;
        }
        if (action == KEEP || ((action == KEEP_FLAGS || action == FLAGS_ONLY) && Flags.isFlag(src, type, v, action == KEEP_FLAGS))) {
            if (type == 0x0F) {
                checkCodeWithScope(v, vEnd, depth);
            }
            if (strict) {
                BsonValidation.checkKept(src, type, v, vEnd);
            }
            putByte(type);
            putKey(k, kLen, array, outIndex, maskKeys);
            putBytes(v, vEnd - v);
            return;
        }
        if (type == 0x02) {
            int strLen = readInt(src, v) - 1;
            if (action == SCRUB) {
                BsonValidation.checkString(src, v + 4, strLen);
                putByte(type);
                putKey(k, kLen, array, outIndex, maskKeys);
                int lengthIndex = out.reserveInt();
                int scrubbed = MessageScrubber.scrub(src, v + 4, strLen, null, 0);
                byte[] room = out.room(scrubbed);
                if (room != null) {
                    MessageScrubber.scrub(src, v + 4, strLen, room, out.position());
                }
                out.advance(scrubbed);
                putByte((byte) 0);
                out.patchLength(lengthIndex, lengthIndex + 4);
                return;
            }
            if (Placeholders.isPlaceholder(src, v + 4, strLen)) {
                putByte(type);
                putKey(k, kLen, array, outIndex, maskKeys);
                putBytes(v, vEnd - v);
                return;
            }
        }
        // a redacted value: a string that names its type
        byte[] placeholder = Placeholders.of(type, fixed);
        putByte((byte) 0x02);
        putKey(k, kLen, array, outIndex, maskKeys);
        putInt(placeholder.length + 1);
        putArray(placeholder);
        putByte((byte) 0);
        if (measuring) {
            valuesRedacted++;
        }
    }

    /**
     * The action of the first field of a command, and the collection it names: its value is kept where a rule keeps it (the
     * commands whose first field names a collection); elsewhere only a flag ({@code {"ping": 1}}) stays.
     */
    private byte firstFieldAction(final byte action, final byte type, final int v) {
        if (action == KEEP) {
            if (measuring && type == 0x02) {
                collectionOff = v + 4;
                collectionLen = readInt(src, v) - 1;
            }
            return action;
        }
        boolean container = type == 0x03 || type == 0x04;
        return !container && (action == REDACT || action == REDACT_KEYS) ? FLAGS_ONLY : action;
    }

    private boolean isSequence(final int depth, final byte type, final int k, final int kLen) {
        if (type != 0x04) {
            return false;
        }
        if (command) {
            if (depth != 0) {
                return false;
            }
            for (byte[] name : COMMAND_SEQUENCES) {
                if (Bytes.equal(name, src, k, kLen)) {
                    return true;
                }
            }
            return false;
        }
        return depth == 1 && keyDepth == 2 && Bytes.equal(CURSOR, src, keyOff[0], keyLen[0])
                && (Bytes.equal(FIRST_BATCH, src, k, kLen) || Bytes.equal(NEXT_BATCH, src, k, kLen));
    }

    private boolean isUnhashedTopLevel(final int k, final int kLen) {
        for (byte[] name : UNHASHED_TOP_LEVEL) {
            if (Bytes.equal(name, src, k, kLen)) {
                return true;
            }
        }
        return false;
    }

    private boolean isOmittedMarker(final int v, final int vEnd) {
        return vEnd - v == OMITTED_DOCUMENT_SIZE && readInt(src, v) == OMITTED_DOCUMENT_SIZE && src[v + 4] == 0x10
                && Bytes.equal(OMITTED_KEY, src, v + 5, 8) && src[v + 13] == 0;
    }

    /** The action of the most specific {@code **.} rule that matches the current path, or NONE. */
    private byte suffixAction() {
        if (rules.suffixes.length == 0) {
            return NONE;
        }
        CompiledPolicy.Suffix[] suffixes = rules.suffixesByLast[CompiledPolicy.suffixSlot(src, keyOff[keyDepth - 1],
                keyLen[keyDepth - 1])];
        byte best = NONE;
        int bestLength = 0;
        for (CompiledPolicy.Suffix suffix : suffixes) {
            byte[][] segments = suffix.segments;
            int n = segments.length;
            if (n > keyDepth || n <= bestLength) {
                continue;
            }
            boolean match = true;
            for (int i = 0; i < n; i++) {
                int level = keyDepth - n + i;
                byte[] segment = segments[i];
                if (!(segment.length == 1 && segment[0] == '*') && !Bytes.equal(segment, src, keyOff[level], keyLen[level])) {
                    match = false;
                    break;
                }
            }
            if (match) {
                best = suffix.action;
                bestLength = n;
            }
        }
        return best;
    }

    /**
     * Checks the structure of a kept document and, when {@code hashing}, hashes its shape: keys and value categories, first
     * array element only.
     */
    private void hashShape(final int off, final boolean array, final int depth, final boolean hashing) {
        if (depth >= MAX_DEPTH) {
            throw new BsonFormatException("document nested deeper than " + MAX_DEPTH + " levels at index=" + off);
        }
        int length = readInt(src, off);
        int end = off + length - 1;
        if (src[end] != 0) {
            throw new BsonFormatException("document does not end with NUL: index=" + off + " length=" + length);
        }
        if (hashing) {
            mix(array ? 0x44 : 0x33);
        }
        int p = off + 4;
        int index = 0;
        while (p < end) {
            byte type = src[p];
            int k = p + 1;
            int keyEnd = BsonBounds.cstringEnd(src, k, end);
            int v = keyEnd + 1;
            int vEnd = BsonBounds.valueEnd(src, type, v, end);
            if (strict) {
                // a kept subtree: every key and value is forwarded as it is
                BsonValidation.checkKey(src, k, keyEnd);
                BsonValidation.checkValue(src, type, v, vEnd);
                BsonValidation.checkKept(src, type, v, vEnd);
            }
            boolean hashElement = hashing && (!array || index == 0);
            if (hashElement && !array) {
                mixBytes(src, k, keyEnd - k);
            }
            if (type == 0x03 || type == 0x04) {
                if (hashElement) {
                    mix(type);
                }
                hashShape(v, type == 0x04, depth + 1, hashElement);
            } else if (type == 0x0F) {
                checkCodeWithScope(v, vEnd, depth);
                if (hashElement) {
                    mix(Placeholders.category(type));
                }
            } else if (hashElement) {
                mix(Placeholders.category(type));
            }
            p = vEnd;
            index++;
        }
        if (hashing) {
            mix(0x55);
        }
    }

    /** Checks the string and scope inside a JavaScript-with-scope value. */
    private void checkCodeWithScope(final int v, final int vEnd, final int depth) {
        long codeEnd = BsonBounds.stringEnd(src, v + 4, vEnd);
        int scope = (int) codeEnd;
        BsonBounds.checkAvailable(scope, 5, vEnd);
        if ((long) scope + readInt(src, scope) != vEnd) {
            throw new BsonFormatException("JavaScript scope length does not match: index=" + v + " end=" + vEnd);
        }
        hashShape(scope, false, depth + 1, false);
    }

    // ---------------------------------------------------------------------------------------------------------------------
    // BSON structure

    // ---------------------------------------------------------------------------------------------------------------------
    // output (counting when dst is null)

    private void putByte(final byte b) {
        out.putByte(b);
    }

    private void putInt(final int value) {
        out.putInt(value);
    }

    private void putBytes(final int from, final int length) {
        out.putBytes(src, from, length);
    }

    private void putArray(final byte[] bytes) {
        out.putArray(bytes);
    }

    private void putKey(final int k, final int kLen, final boolean array, final int outIndex, final boolean maskKeys) {
        if (maskKeys) {
            putByte((byte) '?');
            putDigits(outIndex);
        } else if (array && !isDecimal(k, kLen, outIndex)) {
            putDigits(outIndex);
        } else {
            putBytes(k, kLen);
        }
        putByte((byte) 0);
    }

    private void putDigits(final int value) {
        out.putDigits(value);
    }

    /** Whether the key {@code src[k, k + kLen)} is the decimal form of {@code value}. */
    private boolean isDecimal(final int k, final int kLen, final int value) {
        if (kLen != Bytes.digits(value)) {
            return false;
        }
        int v = value;
        for (int i = k + kLen - 1; i >= k; i--) {
            if (src[i] != '0' + v % 10) {
                return false;
            }
            v /= 10;
        }
        return true;
    }

    private void writeOmitted(final int outIndex, final long omitted) {
        putByte((byte) 0x03);
        putDigits(outIndex);
        putByte((byte) 0);
        putInt(OMITTED_DOCUMENT_SIZE);
        putByte((byte) 0x10);
        putArray(OMITTED_KEY);
        putByte((byte) 0);
        putInt((int) Math.min(Integer.MAX_VALUE, omitted));
        putByte((byte) 0);
    }

    private void writeTruncationMarker() {
        putByte((byte) 0x12);
        putArray(TRUNCATED_KEY);
        putByte((byte) 0);
        out.putLong(truncated);
    }

    // ---------------------------------------------------------------------------------------------------------------------
    // fingerprint (FNV-1a over structure tokens, finalized in fingerprint())

    private void mix(final int token) {
        if (measuring) {
            hash = (hash ^ (token & 0xff)) * FNV_PRIME;
        }
    }

    private void mixBytes(final byte[] bytes, final int off, final int len) {
        if (measuring) {
            long h = hash;
            for (int i = off; i < off + len; i++) {
                h = (h ^ (bytes[i] & 0xff)) * FNV_PRIME;
            }
            hash = (h ^ 0xfe) * FNV_PRIME;
        }
    }
}
