package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Output;
import io.github.mongoredact.internal.mask.DataLikeKeys;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import io.github.mongoredact.internal.rules.PathMatcher;

/**
 * What a walk holds, and the decision it makes for each element: the walk's parts (cursor, matcher, writer, fingerprint, cap),
 * the rules and policy bound to it, and the action, key style and fingerprinting of the element being emitted, which
 * {@link WalkDriver}'s loop reads. Split from the loop for its length only: the fields are read directly, the methods are final.
 *
 * <p>Not thread-safe: one per {@link RedactionWalker}.</p>
 */
abstract class WalkState {
    final Output out = new Output();
    final ShapeHash hash = new ShapeHash();
    final CapBudget cap = new CapBudget(out);
    final BsonCursor cursor = new BsonCursor();
    final PathMatcher matcher = new PathMatcher();
    final KnownPlaces places = new KnownPlaces(cursor, matcher);
    final ElementWriter writer = new ElementWriter(out, cursor);
    final PlaceholderRun placeholders = new PlaceholderRun(out, cursor);
    final WalkFrames frames = new WalkFrames();

    @Nullable
    CompiledPolicy.RuleSet boundRules;
    /** The rules in force: the bound ones, or a wrapped command's while its document is open. */
    @Nullable
    CompiledPolicy.RuleSet rules;
    @Nullable
    CompiledPolicy policy;
    int srcOff;
    int maxSequence;
    boolean strict;
    /** No {@code **.} rule, a redacting policy: a frame with no node and an inherited {@code REDACT} is rule-free. */
    boolean placeholderRuns;
    /** A redacting policy that masks keys looking like data. */
    boolean maskKeys;

    // the element being emitted: the step's decision, read by emit()
    byte action;
    @Nullable
    CompiledPolicy.Node child;
    /**
     * The index the element's key is written with: its index in the output (array elements, masked keys), or, for a key that
     * looks like data, how many such keys of its document came before it ({@code ?key}, {@code ?key1}...).
     */
    int outIndex;
    /** How the element's key is written ({@link ElementWriter#KEYS_AS_IS} ...). */
    int keyStyle;
    /** An array a typed {@code KEEP} does not take whole: its elements are each kept or redacted. */
    boolean typedArray;
    /** The element is the command {@code explain} wraps. */
    boolean wrapper;
    /** A rule names the element's key. */
    boolean named;
    boolean hashElement;
    boolean hashValue;

    /** Values replaced while analysing. */
    long valuesRedacted;

    /**
     * Binds the source of the next {@link WalkDriver#walk()}: the document at {@code src[off]}, before {@code end}, with the rules and
     * policy that apply to it; no cap.
     */
    final void bind(final byte[] src, final int off, final int end, final CompiledPolicy.RuleSet rules, final boolean command,
                    final CompiledPolicy policy) {
        this.boundRules = rules;
        this.rules = rules;
        this.policy = policy;
        this.srcOff = off;
        this.maxSequence = policy.maxSequenceDocuments;
        strict = !rules.verbatim;
        maskKeys = strict && policy.maskDataLikeKeys;
        cursor.bind(src, end, strict);
        hash.bind(src, end, strict);
        matcher.bind(rules);
        places.bind(command, maxSequence != Integer.MAX_VALUE);
        writer.fixedPlaceholders(policy.fixedPlaceholders);
        placeholders.fixedPlaceholders(policy.fixedPlaceholders);
        placeholders.maskDataLikeKeys(maskKeys);
        writer.maskDataLikeKeys(maskKeys);
        placeholderRuns = strict && !matcher.hasSuffixRules();
        cap.off();
    }

    /** Forgets the source and destination arrays (the source may be a driver buffer's) and the open documents. */
    final void clear() {
        cursor.clear();
        hash.clear();
        out.clear();
        frames.clear();
        cap.off();
    }

    /** Puts the rules in force: the bound ones, or a wrapped command's. */
    final void inForce(final CompiledPolicy.RuleSet set) {
        rules = set;
        matcher.rules(set);
        placeholderRuns = strict && !matcher.hasSuffixRules();
    }

    /**
     * Decides the action of the element the cursor read, at {@code index} of the document at {@code d}: its rule (a typed
     * {@code KEEP} only for its types), the place it has at a command's top level, whether it is the command {@code explain}
     * wraps.
     *
     * @return false when the element is left out
     */
    final boolean decide(final int d, final int index, final byte type) {
        matcher.depth(frames.keys[d]);
        named = false;
        if (frames.is(d, WalkFrames.ARRAY)) {
            child = frames.node[d];
            action = frames.inherited[d];
        } else {
            action = matcher.push(cursor.src(), cursor.key, cursor.keyLength(), frames.node[d], frames.inherited[d]);
            child = matcher.child();
            named = matcher.named(frames.node[d]);
        }
        typedArray = false;
        CompiledPolicy.Node node = child;
        if (action == CompiledPolicy.KEEP && node != null && !node.accepts(type)) {
            // a kept field holds a type the server does not accept there: a value; an array's elements are each looked at
            typedArray = type == BsonTypes.ARRAY;
            action = typedArray ? CompiledPolicy.KEEP : CompiledPolicy.REDACT;
        }
        wrapper = false;
        if (frames.is(d, WalkFrames.COMMAND_TOP)) {
            boolean top = frames.is(d, WalkFrames.TOP);
            action = places.topLevel(action, index, top);
            wrapper = top && places.isWrapper(index);
        }
        return action != CompiledPolicy.DROP;
    }

    /** @return how the key of the element the cursor read is written, when keys that look like data are masked */
    final int maskedKeyStyle(final int d, final int index) {
        int keys = frames.keyStyle(d);
        if (keys == ElementWriter.KEYS_AS_IS && action != CompiledPolicy.KEEP && !named && cursor.keyMayLookLikeData()
                && !(index == 0 && frames.is(d, WalkFrames.COMMAND_TOP))
                && DataLikeKeys.isDataLike(cursor.src(), cursor.key, cursor.keyEnd)) {
            return ElementWriter.KEYS_DATA;
        }
        return keys;
    }

    /**
     * Whether the element the cursor read counts in the fingerprint (all of a document, the first element of an array, not
     * the session fields), and whether its value does ({@link #hashValue}: a namespace, never any other value, the same
     * whatever the policy).
     */
    final boolean hashes(final int d, final int index, final byte type) {
        boolean top = frames.is(d, WalkFrames.TOP);
        boolean counts = frames.is(d, WalkFrames.HASHING) && (!frames.is(d, WalkFrames.ARRAY) || index == 0)
                && !(top && places.isUnhashedTopLevel());
        hashValue = counts && frames.is(d, WalkFrames.COMMAND_TOP) && type == BsonTypes.STRING && action == CompiledPolicy.KEEP
                && places.isNamespace(index, top);
        return counts;
    }

    /** Counts a sequence document past the limit, or an omitted marker of an earlier redaction. @return whether left out */
    final boolean limited(final int d) {
        if (places.isOmittedMarker()) {
            frames.omitted[d] += places.omittedCount();
            return true;
        }
        if (frames.shown[d] >= maxSequence) {
            frames.omitted[d]++;
            return true;
        }
        return false;
    }

    final CompiledPolicy.RuleSet rules() {
        CompiledPolicy.RuleSet current = rules;
        if (current == null) {
            throw new IllegalStateException("no rules: the walker runs only after bind()");
        }
        return current;
    }

    final CompiledPolicy.RuleSet boundRules() {
        CompiledPolicy.RuleSet bound = boundRules;
        if (bound == null) {
            throw new IllegalStateException("no rules: the walker runs only after bind()");
        }
        return bound;
    }

    final CompiledPolicy policy() {
        CompiledPolicy bound = policy;
        if (bound == null) {
            throw new IllegalStateException("no policy: the walker runs only after bind()");
        }
        return bound;
    }

    static int hashing(final boolean hashing) {
        return hashing ? WalkFrames.HASHING : 0;
    }
}
