package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.bson.Output;
import io.github.mongoredact.internal.bson.SequenceViews;
import io.github.mongoredact.internal.mask.DataLikeKeys;
import io.github.mongoredact.internal.mask.IndexKeys;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import io.github.mongoredact.internal.rules.PathMatcher;

/**
 * What a walk holds, and the decision it makes for each element: the walk's parts (cursor, matcher, writer, fingerprint, cap),
 * the rules and policy bound to it, and the {@link Decision} for an element, which it returns to {@link WalkDriver}'s loop.
 * Split from the loop for its length only: the fields are read directly, the methods are final.
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
    /** The document sequences of a plain top level, read where they lie; none unless the one pass put them there. */
    final SequenceViews sequences = new SequenceViews();

    @Nullable
    CompiledPolicy.RuleSet boundRules;
    /** The rules in force: the bound ones, or a wrapped command's while its document is open. */
    @Nullable
    CompiledPolicy.RuleSet rules;
    @Nullable
    CompiledPolicy policy;
    int srcOff;
    /** The bound source: the top level lies there (the cursor reads elsewhere while in a sequence left where it lies). */
    @Nullable
    byte[] boundSrc;
    int boundEnd;
    int maxSequence;
    boolean strict;
    /** No {@code **.} rule, a redacting policy: a frame with no node and an inherited {@code REDACT} is rule-free. */
    boolean placeholderRuns;
    /** A redacting policy that masks keys looking like data. */
    boolean maskKeys;

    /** Values replaced while analysing. */
    long valuesRedacted;

    /**
     * Binds the source of the next {@link WalkDriver#walk()}: the document at {@code src[off]}, before {@code end}, with the rules and
     * policy that apply to it; no cap.
     */
    final void bind(final byte[] src, final int off, final int end, final CompiledPolicy.RuleSet rules, final boolean command,
                    final CompiledPolicy policy) {
        // a reference stored into this pooled, long-lived object costs the collector's write barrier (with G1 a fence): the
        // rules, the policy and a scratch's array are the same from call to call, so each is stored only when it changes; the
        // cursor and the matcher are bound by the walk itself
        if (boundRules != rules) {
            boundRules = rules;
        }
        if (this.policy != policy) {
            this.policy = policy;
        }
        if (boundSrc != src) {
            boundSrc = src;
        }
        this.srcOff = off;
        this.boundEnd = end;
        this.maxSequence = policy.maxSequenceDocuments;
        strict = !rules.verbatim;
        maskKeys = strict && policy.maskDataLikeKeys;
        places.bind(command, maxSequence != Integer.MAX_VALUE);
        writer.fixedPlaceholders(policy.fixedPlaceholders);
        placeholders.fixedPlaceholders(policy.fixedPlaceholders);
        placeholders.maskDataLikeKeys(maskKeys);
        writer.maskDataLikeKeys(maskKeys);
        placeholderRuns = strict && !matcher.hasSuffixRules();
    }

    /**
     * Forgets the source and destination arrays (the source may be a driver buffer's) and the open documents; a bound source
     * that is {@code kept} (a scratch's own array, kept anyway) stays referenced, as the next call binds it again and a
     * reference stored afresh into this pooled object costs the collector's write barrier.
     */
    final void clear(@Nullable final byte[] kept) {
        cursor.clear();
        hash.clear();
        out.clear();
        frames.clear();
        sequences.clear();
        if (boundSrc != kept) {
            boundSrc = null;
        }
    }

    /** Points the cursor and the fingerprint's reader at {@code src}, no document of which ends after {@code end}. */
    final void read(final byte[] src, final int end) {
        cursor.bind(src, end, strict);
        hash.bind(src, end, strict);
    }

    /** Puts the rules in force: the bound ones, or a wrapped command's. */
    final void inForce(final CompiledPolicy.RuleSet set) {
        if (rules != set) {
            rules = set;
        }
        matcher.rules(set);
        placeholderRuns = strict && !matcher.hasSuffixRules();
    }

    /**
     * Decides the action of the element the cursor read, at {@code index} of the document at {@code d}: its rule (a typed
     * {@code KEEP} only for its types), the place it has at a command's top level, whether it is the command {@code explain}
     * wraps. Its rule node is then {@link #child(int)}.
     *
     * @param analysing whether the walk analyses: the collection is found on the way
     * @return the {@link Decision}, its key not yet styled; its action {@code DROP} when the element is left out
     */
    final long decide(final int d, final int index, final byte type, final boolean analysing) {
        if (!strict && !analysing) {
            // a verbatim policy keeps every element; only an analysing walk notes the command's places on the way
            matcher.noChild();
            return Decision.of(CompiledPolicy.KEEP, 0);
        }
        matcher.depth(frames.keys[d]);
        boolean named = false;
        byte action;
        CompiledPolicy.Node node;
        if (frames.is(d, WalkFrames.ARRAY)) {
            node = frames.node[d];
            action = frames.inherited[d];
        } else {
            action = matcher.push(boundSrc(), cursor.src(), cursor.key, cursor.keyLength(), frames.node[d],
                    frames.inherited[d]);
            node = matcher.child();
            named = matcher.named(frames.node[d]);
        }
        boolean typedArray = false;
        if (action == CompiledPolicy.KEEP && node != null && !node.accepts(type)) {
            // a kept field holds a type the server does not accept there: a value; an array's elements are each looked at
            typedArray = type == BsonTypes.ARRAY;
            action = typedArray ? CompiledPolicy.KEEP : CompiledPolicy.REDACT;
        }
        boolean wrapper = false;
        if (frames.is(d, WalkFrames.COMMAND_TOP)) {
            boolean top = frames.is(d, WalkFrames.TOP);
            action = places.topLevel(action, index, top, analysing);
            wrapper = top && places.isWrapper(index);
        }
        return Decision.of(action, (typedArray ? Decision.TYPED_ARRAY : 0) | (wrapper ? Decision.WRAPPER : 0)
                | (named ? Decision.NAMED : 0));
    }

    /** @return the rule node of the element {@link #decide} decided last, in the document at {@code d} */
    @Nullable
    final CompiledPolicy.Node child(final int d) {
        return frames.is(d, WalkFrames.ARRAY) ? frames.node[d] : matcher.child();
    }

    /** @return how the key of the element the cursor read is written, when keys that look like data are masked */
    final int maskedKeyStyle(final int d, final int index, final long decision) {
        int keys = frames.keyStyle(d);
        if (keys == ElementWriter.KEYS_AS_IS && Decision.action(decision) != CompiledPolicy.KEEP
                && !Decision.is(decision, Decision.NAMED) && cursor.keyMayLookLikeData()
                && !(index == 0 && frames.is(d, WalkFrames.COMMAND_TOP))
                && DataLikeKeys.isDataLike(cursor.src(), cursor.key, cursor.keyEnd)) {
            return ElementWriter.KEYS_DATA;
        }
        return keys;
    }

    /**
     * Whether the element the cursor read counts in the fingerprint (all of a document, the first element of an array, not
     * the session fields), and whether its value does (a namespace, never any other value, the same whatever the policy).
     *
     * @return the decision with {@link Decision#HASHED} and {@link Decision#HASHED_VALUE} set as they apply
     */
    final long hashes(final int d, final int index, final byte type, final long decision) {
        boolean top = frames.is(d, WalkFrames.TOP);
        boolean counts = frames.is(d, WalkFrames.HASHING) && (!frames.is(d, WalkFrames.ARRAY) || index == 0)
                && !(top && places.isUnhashedTopLevel());
        boolean value = counts && frames.is(d, WalkFrames.COMMAND_TOP) && type == BsonTypes.STRING
                && Decision.action(decision) == CompiledPolicy.KEEP && places.isNamespace(index, top);
        return Decision.with(Decision.with(decision, Decision.HASHED, counts), Decision.HASHED_VALUE, value);
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

    /**
     * @return the sequence left where it lies whose place is the container at {@code off} that the top level's element the
     *         cursor read holds, or -1 (any other container)
     */
    final int sequenceAt(final int off) {
        return frames.depth == 0 && sequences.sequences() > 0 ? sequences.at(off) : -1;
    }

    /** Points the cursor at the array the document at {@code d} lies in, unless it reads there already or has none. */
    final void readFrame(final int d) {
        byte[] src = frames.source[d];
        if (src != null && !cursor.reads(src)) {
            read(src, frames.sourceEnd[d]);
        }
    }

    /**
     * Reads the element at {@code p} of the document at {@code d} (ending at {@code end}), from the array it lies in, which the
     * cursor reads ({@link #readFrame}): in a sequence left where it lies, document {@code p} of the sequence, in its own
     * array.
     *
     * @return where the next element of the document at {@code d} is
     */
    final int read(final int d, final int p, final int end) {
        if (frames.is(d, WalkFrames.EXTERNAL)) {
            int off = sequences.offset(p);
            int documentEnd = off + sequences.length(p);
            read(sequences.array(p), documentEnd);
            cursor.document(off, documentEnd);
            return p + 1;
        }
        cursor.read(p, end);
        return cursor.valueEnd;
    }

    /**
     * Checks the bound document that is kept whole: its framing element by element by the kept subtrees' walk
     * ({@link ShapeHash#kept}, through the same reader); a plain top level with its sequences where they lie, which the plain
     * encoder wrote (well formed by construction, so not read again), only its length against its end.
     *
     * @return the size of the document kept whole, each sequence as the array {@link #keptWhole} writes in its place
     */
    final int keptWholeSize(final byte[] top) {
        if (sequences.sequences() == 0) {
            read(top, boundEnd);
            int end = cursor.open(srcOff, 0) + 1;
            hash.kept(srcOff, false, 0, false);
            return end - srcOff;
        }
        int end = srcOff + Bytes.readInt(top, srcOff);
        if (end != boundEnd) {
            throw new IllegalStateException("the encoded top level's length disagrees with its end: off=" + srcOff + " length="
                    + (end - srcOff) + " end=" + boundEnd);
        }
        return (int) sequences.inputLength(end - srcOff);
    }

    /**
     * Writes the bound document kept whole, which {@link #keptWholeSize} checked and sized ({@code size}), into {@code dst}
     * from {@code at}, which has room for it: copied in one piece, or a plain top level copied in pieces around the empty
     * arrays that hold its sequences' places, each of which becomes the sequence's array, as {@link #keepSequence} writes it.
     * Written by absolute index, not through the output: the exact array a verbatim copy goes into is new for every call,
     * and a reference to it stored into the pooled output would cost the collector's write barrier.
     *
     * @return the index after what it wrote
     */
    final int keptWhole(final byte[] top, final int size, final byte[] dst, final int at) {
        int n = sequences.sequences();
        if (n == 0) {
            System.arraycopy(top, srcOff, dst, at, size);
            return at + size;
        }
        int end = boundEnd;
        int p = srcOff;
        int q = at;
        for (int s = 0; s < n; s++) {
            int place = sequences.place(s);
            System.arraycopy(top, p, dst, q, place - p);
            int arrayLength = q + place - p;
            q = arrayLength + 4;
            int first = sequences.first(s);
            for (int j = first; j < sequences.end(s); j++) {
                q = sequenceDocument(j, j - first, dst, q);
            }
            dst[q++] = 0;
            Bytes.writeInt(dst, arrayLength, q - arrayLength);
            // past the empty array: its length and its terminator
            p = place + 5;
        }
        System.arraycopy(top, p, dst, q, end - p);
        q += end - p;
        Bytes.writeInt(dst, at, q - at);
        return q;
    }

    /**
     * Keeps whole a sequence left where it lies, as the walker keeps an array: its documents copied from their arrays with
     * their index keys, checked, and its shape hashed, as {@link ShapeHash#kept} hashes the array they would form. Under a
     * verbatim policy, which checks framing only, a sequence document is checked by its own frame ({@code SequenceViews}
     * checked it where it reached it: its length within its buffer, its terminator) and copied as the driver encoded it, as
     * a framed copy would; the one the fingerprint hashes is also walked.
     */
    final void keepSequence(final int s, final int d, final int keys, final int outIndex, final boolean hashing) {
        writer.head(BsonTypes.ARRAY, keys, outIndex);
        int lengthIndex = out.reserveInt();
        if (hashing) {
            hash.mix(ShapeHash.ARRAY);
        }
        int first = sequences.first(s);
        for (int j = first; j < sequences.end(s); j++) {
            boolean hashed = hashing && j == first;
            if (hashed) {
                hash.mix(BsonTypes.DOCUMENT);
            }
            if (strict || hashed) {
                int off = sequences.offset(j);
                read(sequences.array(j), off + sequences.length(j));
                hash.kept(off, false, d + 2, hashed);
            }
            // else a verbatim policy: forwarded as the driver encoded it, its frame checked where it was reached
            int index = j - first;
            int size = 2 + IndexKeys.digits(index) + sequences.length(j);
            byte[] room = out.room(size);
            if (room != null) {
                sequenceDocument(j, index, room, out.position());
            }
            out.advance(size);
        }
        out.putByte((byte) 0);
        out.patchLength(lengthIndex, lengthIndex);
        if (hashing) {
            hash.mix(ShapeHash.END);
        }
    }

    /**
     * Writes sequence document {@code j} as the element {@code index} of its array into {@code dst} from {@code at}, which
     * has room for it: its type, its position as key, its bytes as the driver encoded them.
     *
     * @return the index after it
     */
    private int sequenceDocument(final int j, final int index, final byte[] dst, final int at) {
        dst[at] = BsonTypes.DOCUMENT;
        IndexKeys.copy(dst, at + 1, index);
        int q = at + 1 + IndexKeys.digits(index);
        dst[q++] = 0;
        int length = sequences.length(j);
        System.arraycopy(sequences.array(j), sequences.offset(j), dst, q, length);
        return q + length;
    }

    /** @return the bound source, where the top level lies (and with it the first key of every path) */
    final byte[] boundSrc() {
        byte[] src = boundSrc;
        if (src == null) {
            throw new IllegalStateException("no source: the walker runs only after bind()");
        }
        return src;
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
