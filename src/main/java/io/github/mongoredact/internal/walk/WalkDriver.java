package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.mask.Placeholders;
import io.github.mongoredact.internal.rules.CompiledPolicy;

/**
 * The loop that runs a walk: one pass over the open documents' frames ({@link WalkFrames}, no recursion), each step reading an
 * element with the {@link BsonCursor}, asking the {@code PathMatcher} and the {@link KnownPlaces} for its action (a typed
 * {@code KEEP} keeps only the types it names) and whether its key looks like data ({@code DataLikeKeys}), and emitting it
 * through the {@link ElementWriter} into the shared {@code Output}, the {@link ShapeHash} fingerprinting on the way. The
 * command {@code explain} wraps is walked with that command's own rules, as if it were sent alone. Where no rule, cap, limit
 * or fingerprint can reach, the {@link PlaceholderRun} takes whole runs of elements and documents; under a cap the
 * {@link CapBudget} decides where the output is cut.
 *
 * <p>Not thread-safe: one per {@link RedactionWalker}, which sets the output's mode and the analysis before {@link #walk()}.</p>
 */
final class WalkDriver extends WalkState {

    /** Walks the bound document, from its top level. */
    void walk() {
        frames.clear();
        matcher.depth(0);
        CompiledPolicy.RuleSet bound = boundRules;
        if (bound == null) {
            throw new IllegalStateException("no rules: the walker runs only after bind()");
        }
        inForce(bound);
        open(srcOff, bound.root, bound.unmatched, WalkFrames.TOP | WalkFrames.HASHING);
        run(-1);
    }

    /** Runs the walk until the frames are back to {@code base} open documents. */
    private void run(final int base) {
        while (frames.depth > base) {
            int d = frames.depth;
            if (cap.cut() || frames.next[d] >= frames.end[d]) {
                close(d);
            } else if (!isRuleFree(d)) {
                step(d);
            } else if (frames.is(d, WalkFrames.ARRAY)) {
                ruleFreeArray(d);
            } else {
                int stop = placeholderRun(frames.next[d], frames.end[d]);
                frames.next[d] = stop;
                if (stop < frames.end[d]) {
                    step(d);
                }
            }
        }
    }

    /**
     * Whether no rule, cap, limit or fingerprint applies in the document at {@code d} and below: every value there is
     * replaced, every key kept (the counters of its elements are then unused).
     */
    private boolean isRuleFree(final int d) {
        if (!placeholderRuns || frames.node[d] != null || frames.inherited[d] != CompiledPolicy.REDACT || cap.capped()) {
            return false;
        }
        int flags = frames.flags[d];
        if ((flags & ~(WalkFrames.HASHING | WalkFrames.ARRAY)) != 0) {
            return false;
        }
        // fingerprinted: all of a document, the first element of an array
        return !hash.enabled || (flags & WalkFrames.HASHING) == 0
                || ((flags & WalkFrames.ARRAY) != 0 && frames.index[d] > 0);
    }

    /** Runs the {@link PlaceholderRun} over the documents of the rule-free array at {@code d}, then what it leaves. */
    private void ruleFreeArray(final int d) {
        int stop = placeholders.documents(frames.next[d], frames.end[d], frames.shown[d], d);
        int taken = placeholders.documents;
        frames.index[d] += taken;
        frames.shown[d] += taken;
        if (places.analysing()) {
            valuesRedacted += placeholders.redacted;
        }
        frames.next[d] = stop;
        if (stop < frames.end[d] && !ruleFreeDocument(d)) {
            step(d);
        }
    }

    /**
     * The next element of a rule-free array when it is a document: its scalars replaced by the {@link PlaceholderRun} without
     * a frame of its own, unless it holds more (then it becomes a frame from there).
     *
     * @return whether the element was taken; if not, the general {@link #step} takes it
     */
    private boolean ruleFreeDocument(final int d) {
        int p = frames.next[d];
        if (cursor.src()[p] != BsonTypes.DOCUMENT) {
            return false;
        }
        cursor.read(p, frames.end[d]);
        int document = cursor.value;
        int documentEnd = cursor.open(document, d + 1);
        frames.next[d] = cursor.valueEnd;
        frames.index[d]++;
        writer.head(BsonTypes.DOCUMENT, ElementWriter.KEYS_INDEX, frames.shown[d]++);
        int lengthIndex = out.reserveInt();
        int stop = placeholderRun(document + 4, documentEnd);
        if (stop == documentEnd) {
            out.putByte((byte) 0);
            out.patchLength(lengthIndex, lengthIndex);
            return true;
        }
        frames.push(documentEnd, stop, null, CompiledPolicy.REDACT, 0);
        frames.lengthIndex[d + 1] = lengthIndex;
        frames.keys[d + 1] = frames.keys[d];
        cap.opened();
        return true;
    }

    /** Runs the {@link PlaceholderRun} over {@code [from, end)}. @return where it stopped */
    private int placeholderRun(final int from, final int end) {
        int stop = placeholders.elements(from, end);
        if (places.analysing()) {
            valuesRedacted += placeholders.redacted;
        }
        return stop;
    }

    private void open(final int off, @Nullable final CompiledPolicy.Node node, final byte inherited, final int kind) {
        int documentEnd = cursor.open(off, frames.depth + 1);
        frames.push(documentEnd, off + 4, node, inherited, kind);
        int d = frames.depth;
        frames.lengthIndex[d] = out.reserveInt();
        frames.keys[d] = matcher.depth();
        cap.opened();
        if ((kind & WalkFrames.HASHING) != 0) {
            hash.mix((kind & WalkFrames.ARRAY) != 0 ? ShapeHash.ARRAY : ShapeHash.DOCUMENT);
        }
    }

    private void close(final int d) {
        if (frames.is(d, WalkFrames.HASHING)) {
            hash.mix(ShapeHash.END);
        }
        if (frames.is(d, WalkFrames.WRAPPED)) {
            inForce(boundRules());
        }
        long omitted = frames.omitted[d];
        if (omitted > 0 && !cap.cut()) {
            int shown = frames.shown[d];
            if (cap.fits(ElementWriter.omittedSize(shown))) {
                writer.omitted(shown, omitted);
            } else {
                cap.cutHere();
            }
        }
        cap.closed();
        if (frames.is(d, WalkFrames.TOP) && cap.cut()) {
            writer.truncationMarker(cap.truncated());
        }
        out.putByte((byte) 0);
        int lengthIndex = frames.lengthIndex[d];
        out.patchLength(lengthIndex, lengthIndex);
        frames.depth--;
    }

    /** Reads the next element of the document at {@code d}, decides its action and emits it. */
    private void step(final int d) {
        int p = frames.next[d];
        int end = frames.end[d];
        cursor.read(p, end);
        byte type = cursor.type;
        if (type == BsonTypes.CODE_WITH_SCOPE && cursor.strict()) {
            // the driver decodes the scope of a redacted value too
            hash.codeWithScope(cursor.value, cursor.valueEnd, d);
        }
        frames.next[d] = cursor.valueEnd;
        int index = frames.index[d]++;
        if (frames.is(d, WalkFrames.LIMITED) && limited(d)) {
            return;
        }
        if (!decide(d, index, type)) {
            return;
        }
        keyStyle = maskKeys ? maskedKeyStyle(d, index) : frames.keyStyle(d);
        int shown = frames.shown[d]++;
        outIndex = keyStyle == ElementWriter.KEYS_DATA ? frames.dataKeys[d]++ : shown;
        // tokens count only while the fingerprint is computed: otherwise the shape is not looked at
        hashElement = hash.enabled && hashes(d, index, type);
        if (cap.capped()) {
            cappedElement(d, p, end);
        } else {
            emit(d);
        }
    }

    /**
     * Under a cap: the element whole when it fits, else a container entered to be cut inside, else the cut. The trial
     * measure walks the element's subtree, so the cursor reads the element again after it.
     */
    private void cappedElement(final int d, final int p, final int end) {
        byte savedAction = action;
        CompiledPolicy.Node savedChild = child;
        int savedIndex = outIndex;
        int savedKeyStyle = keyStyle;
        boolean savedTypedArray = typedArray;
        boolean savedWrapper = wrapper;
        int size = measure(d);
        cursor.read(p, end);
        action = savedAction;
        child = savedChild;
        outIndex = savedIndex;
        keyStyle = savedKeyStyle;
        typedArray = savedTypedArray;
        wrapper = savedWrapper;
        if (cap.fits(size)) {
            cap.suspend();
            emit(d);
            run(d);
            cap.resume();
        } else if (cursor.container() && cap.fits(1 + writer.keySize(keyStyle, outIndex) + 1 + 4 + 1)) {
            // enter the container and cut inside it
            emit(d);
        } else {
            cap.cutHere();
        }
    }

    /** @return the bytes the element would take, counted without writing, uncapped */
    private int measure(final int d) {
        boolean savedHash = hash.enabled;
        boolean savedAnalysing = places.analysing();
        int savedOpen = cap.openDocuments();
        out.suspend();
        hash.enabled = false;
        places.analysing(false);
        cap.suspend();
        emit(d);
        run(d);
        cap.resume();
        int size = out.resume();
        hash.enabled = savedHash;
        places.analysing(savedAnalysing);
        cap.openDocuments(savedOpen);
        return size;
    }

    /** Emits the element the cursor read, with the decision {@link #step} made: written, or its document opened. */
    private void emit(final int d) {
        byte type = cursor.type;
        boolean container = cursor.container();
        int keys = keyStyle;
        if (hashElement) {
            mixElement(type, container, keys);
        }
        if (wrapper) {
            writer.head(type, keys, outIndex);
            openWrapped(cursor.value);
            return;
        }
        if (action == CompiledPolicy.PIPELINE) {
            if (type == BsonTypes.ARRAY) {
                writer.head(type, keys, outIndex);
                // each element is a stage: walked with the stage rules, everything they do not name redacted
                open(cursor.value, rules().stage, CompiledPolicy.REDACT, WalkFrames.ARRAY | hashing(hashElement));
                return;
            }
            action = CompiledPolicy.REDACT;
            child = null;
        }
        boolean sequence = container && places.isSequence(d);
        if (action == CompiledPolicy.KEEP && !(container && (cap.capped() || typedArray
                || (child != null && child.hasChildren()) || places.holdsLimited(sequence, d)))) {
            keep(d, container, keys);
        } else if (container) {
            writer.head(type, keys, outIndex);
            // masked keys stay masked at every depth below: keys that are data can nest
            boolean flags = action == CompiledPolicy.KEEP_FLAGS || action == CompiledPolicy.FLAGS_ONLY;
            int kind = (type == BsonTypes.ARRAY ? WalkFrames.ARRAY : 0) | (sequence && maxSequence != Integer.MAX_VALUE
                    ? WalkFrames.LIMITED : 0) | (action == CompiledPolicy.REDACT_KEYS && type == BsonTypes.DOCUMENT ? WalkFrames.MASKED : 0)
                    | hashing(hashElement);
            open(cursor.value, child, flags ? CompiledPolicy.REDACT : action, kind);
        } else if (places.keepsScalar(action)) {
            keep(d, false, keys);
        } else if (type == BsonTypes.STRING && action == CompiledPolicy.SCRUB) {
            writer.scrubbed(keys, outIndex);
        } else if (writer.redacted(keys, outIndex) && places.analysing()) {
            valuesRedacted++;
        }
    }

    /** Mixes the element the cursor read into the fingerprint: its key as the output names it, its category, a namespace. */
    private void mixElement(final byte type, final boolean container, final int keys) {
        if (keys == ElementWriter.KEYS_AS_IS) {
            hash.mixBytes(cursor.src(), cursor.key, cursor.keyLength());
        } else if (keys == ElementWriter.KEYS_DATA) {
            hash.mixMaskedKey(cursor.src(), cursor.key, cursor.keyEnd);
        }
        hash.mix(container ? type : Placeholders.category(type));
        if (hashValue) {
            hash.mixBytes(cursor.src(), cursor.value + 4, cursor.stringLength());
        }
    }

    private void keep(final int d, final boolean container, final int keys) {
        if (container) {
            hash.kept(cursor.value, cursor.type == BsonTypes.ARRAY, d + 1, hashElement);
        } else {
            if (cursor.type == BsonTypes.CODE_WITH_SCOPE) {
                hash.codeWithScope(cursor.value, cursor.valueEnd, d);
            }
            cursor.checkKept();
        }
        writer.kept(keys, outIndex);
    }

    /**
     * Opens the document of the command {@code explain} wraps, at {@code off}, and puts that command's own rules in force
     * until it closes: the rules are picked by its name, its first key, and its path starts again from its top level.
     */
    private void openWrapped(final int off) {
        open(off, null, CompiledPolicy.REDACT, WalkFrames.WRAPPED | hashing(hashElement));
        int d = frames.depth;
        CompiledPolicy.RuleSet inner = boundRules();
        if (off + 4 < frames.end[d]) {
            int name = off + 5;
            int nameEnd = BsonBounds.cstringEnd(cursor.src(), name, frames.end[d]);
            inner = policy().commandRules(cursor.src(), name, nameEnd - name);
        }
        frames.node[d] = inner.root;
        frames.inherited[d] = inner.unmatched;
        frames.keys[d] = 0;
        inForce(inner);
    }

}
