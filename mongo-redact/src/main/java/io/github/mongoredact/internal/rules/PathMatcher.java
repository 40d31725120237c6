package io.github.mongoredact.internal.rules;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.Bytes;

import static io.github.mongoredact.internal.rules.CompiledPolicy.NONE;
import java.util.Arrays;

/**
 * Which rule applies where: the path of keys from the top level down to the element being walked (array levels are
 * transparent and not pushed), and the lookup of the action for it: the rule tree's node, else the most specific
 * {@code **.} suffix rule, else the action inherited from above.
 *
 * <p>Not thread-safe: one per walker. The path holds indexes into the source, never the bytes nor the arrays: its first key
 * lies in the walk's top-level array, the keys below it in the array of the key pushed last (a plain top level's sequence
 * documents are read where they lie, each in its own array, under a key of the top level's), so that a lookup takes the two
 * arrays from its caller.</p>
 */
public final class PathMatcher {
    private static final byte[] CURSOR = {'c', 'u', 'r', 's', 'o', 'r'};
    private static final byte[] FIRST_BATCH = {'f', 'i', 'r', 's', 't', 'B', 'a', 't', 'c', 'h'};
    private static final byte[] NEXT_BATCH = {'n', 'e', 'x', 't', 'B', 'a', 't', 'c', 'h'};

    /** The keys of the path, grown by doubling up to {@link BsonBounds#MAX_DEPTH}. */
    private int[] keyOff = new int[16];
    private int[] keyLen = new int[16];
    private int depth;
    private CompiledPolicy.Suffix[][] suffixesByLast = new CompiledPolicy.Suffix[0][];
    private boolean suffixes;
    /** The node of the key matched last: its child rules apply below it. */
    @Nullable
    private CompiledPolicy.Node child;

    public void bind(final CompiledPolicy.RuleSet rules) {
        rules(rules);
        this.depth = 0;
    }

    /** Matches with these rules from here on, the path kept: a wrapped command's own rules, or its wrapper's again. */
    public void rules(final CompiledPolicy.RuleSet rules) {
        // stored only when it changes: a reference stored into this pooled, long-lived object costs the collector's write barrier
        if (suffixesByLast != rules.suffixesByLast) {
            this.suffixesByLast = rules.suffixesByLast;
        }
        this.suffixes = rules.suffixes.length > 0;
    }

    /** @return whether a {@code **.} rule may match anywhere: without one, a subtree with no node keeps its inherited action */
    public boolean hasSuffixRules() {
        return suffixes;
    }

    /** @return the number of keys on the path */
    public int depth() {
        return depth;
    }

    /** Cuts the path back to {@code depth} keys: the path of the document whose element is read next. */
    public void depth(final int keys) {
        this.depth = keys;
    }

    /**
     * Pushes the key {@code src[k, k + kLen)} and looks up its action.
     *
     * @param top the array the path's first key lies in: the walk's top level (the same as {@code src} but under a sequence
     *            document read where it lies, whose keys lie in its own array)
     * @param node the rule node of the document the key is in (null: no rule below)
     * @param inherited the action of elements no rule names
     * @return the action for the key; its node is {@link #child()}
     */
    public byte push(final byte[] top, final byte[] src, final int k, final int kLen, @Nullable final CompiledPolicy.Node node,
                     final byte inherited) {
        if (depth >= BsonBounds.MAX_DEPTH) {
            throw new BsonFormatException("path deeper than " + BsonBounds.MAX_DEPTH + " keys at index=" + k);
        }
        if (depth == keyOff.length) {
            keyOff = Arrays.copyOf(keyOff, Math.min(BsonBounds.MAX_DEPTH, 2 * depth));
            keyLen = Arrays.copyOf(keyLen, keyOff.length);
        }
        keyOff[depth] = k;
        keyLen[depth] = kLen;
        depth++;
        CompiledPolicy.Node found = node == null ? null : node.child(src, k, kLen);
        if (child != found) {
            // stored only when it changes: a reference stored into this pooled, long-lived object costs the collector's write
            // barrier (two elements in a row without a rule leave it null)
            child = found;
        }
        byte action = found == null ? NONE : found.action;
        if (action == NONE && suffixes) {
            action = suffixAction(top, src);
        }
        return action == NONE ? inherited : action;
    }

    /** Forgets the node of the key matched last: an element decided without a lookup has none. */
    public void noChild() {
        child = null;
    }

    /** @return the rule node of the key pushed last, or null */
    @Nullable
    public CompiledPolicy.Node child() {
        return child;
    }

    /**
     * @param node the rule node of the document the key pushed last is in
     * @return whether a rule names the key pushed last: a key a rule names is the policy's, never data
     */
    public boolean named(@Nullable final CompiledPolicy.Node node) {
        CompiledPolicy.Node found = child;
        return found != null && node != null && !found.isWildcardOf(node);
    }

    /**
     * @return whether the path is {@code cursor.<key>} with the key a reply batch ({@code firstBatch}, {@code nextBatch}): a
     *         reply's keys all lie in {@code src}, one array
     */
    public boolean isReplyBatch(final byte[] src, final int k, final int kLen) {
        return depth == 2 && Bytes.equal(CURSOR, src, keyOff[0], keyLen[0])
                && (Bytes.equal(FIRST_BATCH, src, k, kLen) || Bytes.equal(NEXT_BATCH, src, k, kLen));
    }

    /**
     * The action of the most specific {@code **.} rule that matches the current path, or NONE: the path's first key read in
     * {@code top}, the others in {@code src}.
     */
    private byte suffixAction(final byte[] top, final byte[] src) {
        if (depth == 1) {
            return topLevelSuffixAction(suffixesByLast, top, keyOff[0], keyLen[0]);
        }
        CompiledPolicy.Suffix[] candidates = suffixesByLast[CompiledPolicy.suffixSlot(src, keyOff[depth - 1],
                keyLen[depth - 1])];
        byte best = NONE;
        int bestLength = 0;
        for (CompiledPolicy.Suffix suffix : candidates) {
            int n = suffix.segments.length;
            if (n <= depth && n > bestLength && matches(top, src, suffix.segments)) {
                best = suffix.action;
                bestLength = n;
            }
        }
        return best;
    }

    private boolean matches(final byte[] top, final byte[] src, final byte[][] segments) {
        int n = segments.length;
        for (int i = 0; i < n; i++) {
            int level = depth - n + i;
            if (!segmentMatches(segments[i], level == 0 ? top : src, keyOff[level], keyLen[level])) {
                return false;
            }
        }
        return true;
    }

    /**
     * The action of a {@code **.} rule for the top-level key {@code src[off, off + len)}: the first rule of one segment that
     * matches it (no longer suffix matches a path of one key), or NONE. The matcher's own lookup at depth 1.
     *
     * @param suffixesByLast the rule set's suffix rules by the slot of their last segment
     */
    static byte topLevelSuffixAction(final CompiledPolicy.Suffix[][] suffixesByLast, final byte[] src, final int off,
                                     final int len) {
        for (CompiledPolicy.Suffix suffix : suffixesByLast[CompiledPolicy.suffixSlot(src, off, len)]) {
            if (suffix.segments.length == 1 && segmentMatches(suffix.segments[0], src, off, len)) {
                return suffix.action;
            }
        }
        return NONE;
    }

    /** @return whether a rule's segment ({@code *} or a key) matches the key {@code src[off, off + len)} */
    private static boolean segmentMatches(final byte[] segment, final byte[] src, final int off, final int len) {
        return (segment.length == 1 && segment[0] == '*') || Bytes.equal(segment, src, off, len);
    }
}
