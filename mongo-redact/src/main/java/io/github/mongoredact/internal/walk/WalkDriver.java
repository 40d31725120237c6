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
 * <p>The walk's {@link WalkMode} (analysing, fingerprint, cap) is a value handed down the loop, and each element's
 * {@link Decision} a value handed from {@link #step} to {@link #emit}: a trial measure under a cap walks with a mode of its
 * own and leaves both as they were, so the walk saves and restores nothing (the output counts the trial without writing by
 * its own {@code suspend} and {@code resume}).</p>
 *
 * <p>Not thread-safe: one per {@link RedactionWalker}, which sets the output's destination (and the cap's limit) before
 * {@link #walk}.</p>
 */
final class WalkDriver extends WalkState {

    /** Walks the bound document, from its top level, in the given mode (an analysing one starts a new analysis). */
    void walk(final WalkMode mode) {
        frames.clear();
        cap.start();
        if (mode.analysing) {
            places.startAnalysis();
            hash.reset();
            valuesRedacted = 0;
        }
        matcher.depth(0);
        CompiledPolicy.RuleSet bound = boundRules;
        if (bound == null) {
            throw new IllegalStateException("no rules: the walker runs only after bind()");
        }
        inForce(bound);
        byte[] top = boundSrc();
        if (bound.verbatim && !mode.analysing) {
            // every element kept and nothing to note on the way: the document is kept whole, as a kept container is
            int size = keptWholeSize(top);
            byte[] room = out.room(size);
            if (room != null) {
                keptWhole(top, size, room, out.position());
            }
            out.advance(size);
            return;
        }
        // a walk before this one may have left the cursor in a sequence document's array
        read(top, boundEnd);
        open(srcOff, bound.root, bound.unmatched, WalkFrames.TOP | hashing(mode.fingerprint));
        run(-1, mode);
    }

    /**
     * Writes the bound document kept whole into {@code dst} from index 0, which the caller sized exactly: a verbatim policy's
     * copy with nothing to note on the way, as {@link #walk} keeps it, the array not handed to the output (it is new for
     * every call: a reference to it stored into the pooled output would cost the collector's write barrier).
     *
     * @return bytes written
     * @throws IllegalStateException if the document does not fit {@code dst}
     */
    int keptWhole(final byte[] dst) {
        frames.clear();
        byte[] top = boundSrc();
        int size = keptWholeSize(top);
        if (size > dst.length) {
            throw new IllegalStateException("output does not fit: size=" + size + " capacity=" + dst.length);
        }
        return keptWhole(top, size, dst, 0);
    }

    /** Runs the walk until the frames are back to {@code base} open documents. */
    private void run(final int base, final WalkMode mode) {
        while (frames.depth > base) {
            int d = frames.depth;
            // back from a document that lies in another array
            readFrame(d);
            if (cap.cut() || frames.next[d] >= frames.end[d]) {
                close(d, mode);
            } else if (!isRuleFree(d, mode)) {
                step(d, mode);
            } else if (frames.is(d, WalkFrames.ARRAY)) {
                ruleFreeArray(d, mode);
            } else {
                int stop = placeholderRun(frames.next[d], frames.end[d], d, mode);
                frames.next[d] = stop;
                if (stop < frames.end[d]) {
                    step(d, mode);
                }
            }
        }
    }

    /**
     * Whether no rule, cap, limit or fingerprint applies in the document at {@code d} and below: every value there is
     * replaced, every key kept (the counters of its elements are then unused).
     */
    private boolean isRuleFree(final int d, final WalkMode mode) {
        if (!placeholderRuns || frames.node[d] != null || frames.inherited[d] != CompiledPolicy.REDACT || mode.capped) {
            return false;
        }
        int flags = frames.flags[d];
        if ((flags & ~(WalkFrames.HASHING | WalkFrames.ARRAY | WalkFrames.EXTERNAL)) != 0) {
            return false;
        }
        // fingerprinted: all of a document, the first element of an array
        return !mode.fingerprint || (flags & WalkFrames.HASHING) == 0
                || ((flags & WalkFrames.ARRAY) != 0 && frames.index[d] > 0);
    }

    /** Runs the {@link PlaceholderRun} over the documents of the rule-free array at {@code d}, then what it leaves. */
    private void ruleFreeArray(final int d, final WalkMode mode) {
        int stop = frames.is(d, WalkFrames.EXTERNAL)
                ? placeholders.documents(sequences, frames.next[d], frames.end[d], frames.shown[d], d)
                : placeholders.documents(frames.next[d], frames.end[d], frames.shown[d], d);
        int taken = placeholders.documents;
        frames.index[d] += taken;
        frames.shown[d] += taken;
        if (mode.analysing) {
            valuesRedacted += placeholders.redacted;
        }
        frames.next[d] = stop;
        if (stop < frames.end[d] && !ruleFreeDocument(d, mode)) {
            step(d, mode);
        }
    }

    /**
     * The next element of a rule-free array when it is a document: its scalars replaced by the {@link PlaceholderRun} without
     * a frame of its own, unless it holds more (then it becomes a frame from there).
     *
     * @return whether the element was taken; if not, the general {@link #step} takes it
     */
    private boolean ruleFreeDocument(final int d, final WalkMode mode) {
        int p = frames.next[d];
        if (!frames.is(d, WalkFrames.EXTERNAL) && cursor.src()[p] != BsonTypes.DOCUMENT) {
            return false;
        }
        int next = read(d, p, frames.end[d]);
        int document = cursor.value;
        int documentEnd = cursor.open(document, d + 1);
        frames.next[d] = next;
        frames.index[d]++;
        writer.head(BsonTypes.DOCUMENT, ElementWriter.KEYS_INDEX, frames.shown[d]++);
        int lengthIndex = out.reserveInt();
        int stop = placeholderRun(document + 4, documentEnd, d + 1, mode);
        if (stop == documentEnd) {
            out.putByte((byte) 0);
            out.patchLength(lengthIndex, lengthIndex);
            return true;
        }
        frames.push(documentEnd, stop, null, CompiledPolicy.REDACT, 0, cursor.src(), cursor.srcEnd());
        frames.lengthIndex[d + 1] = lengthIndex;
        frames.keys[d + 1] = frames.keys[d];
        cap.opened();
        return true;
    }

    /** Runs the {@link PlaceholderRun} over {@code [from, end)} of the document at depth {@code d}. @return where it stopped */
    private int placeholderRun(final int from, final int end, final int d, final WalkMode mode) {
        int stop = placeholders.elements(from, end, d);
        if (mode.analysing) {
            valuesRedacted += placeholders.redacted;
        }
        return stop;
    }

    private void open(final int off, @Nullable final CompiledPolicy.Node node, final byte inherited, final int kind) {
        int documentEnd = cursor.open(off, frames.depth + 1);
        int s = sequenceAt(off);
        if (s >= 0) {
            // the empty array that holds the place of a sequence left where it lies: its elements are that sequence's
            frames.push(sequences.end(s), sequences.first(s), node, inherited, kind | WalkFrames.EXTERNAL, null, 0);
        } else {
            frames.push(documentEnd, off + 4, node, inherited, kind, cursor.src(), cursor.srcEnd());
        }
        int d = frames.depth;
        frames.lengthIndex[d] = out.reserveInt();
        frames.keys[d] = matcher.depth();
        cap.opened();
        if ((kind & WalkFrames.HASHING) != 0) {
            hash.mix((kind & WalkFrames.ARRAY) != 0 ? ShapeHash.ARRAY : ShapeHash.DOCUMENT);
        }
    }

    private void close(final int d, final WalkMode mode) {
        if (frames.is(d, WalkFrames.HASHING)) {
            hash.mix(ShapeHash.END);
        }
        if (frames.is(d, WalkFrames.WRAPPED)) {
            inForce(boundRules());
        }
        long omitted = frames.omitted[d];
        if (omitted > 0 && !cap.cut()) {
            int shown = frames.shown[d];
            if (!mode.capped || cap.fits(ElementWriter.omittedSize(shown))) {
                writer.omitted(shown, omitted);
            } else {
                cap.cutHere();
            }
        }
        cap.closed();
        if (frames.is(d, WalkFrames.TOP) && cap.cut()) {
            // its count is written by the walk's caller, once the capped size is known
            writer.truncationMarker(0);
        }
        out.putByte((byte) 0);
        int lengthIndex = frames.lengthIndex[d];
        out.patchLength(lengthIndex, lengthIndex);
        frames.pop();
    }

    /** Reads the next element of the document at {@code d}, decides its action and emits it. */
    private void step(final int d, final WalkMode mode) {
        int p = frames.next[d];
        int end = frames.end[d];
        int next = read(d, p, end);
        byte type = cursor.type;
        if (type == BsonTypes.CODE_WITH_SCOPE && cursor.strict()) {
            // the driver decodes the scope of a redacted value too
            hash.codeWithScope(cursor.value, cursor.valueEnd, d);
        }
        frames.next[d] = next;
        int index = frames.index[d]++;
        if (frames.is(d, WalkFrames.LIMITED) && limited(d)) {
            return;
        }
        long decision = decide(d, index, type, mode.analysing);
        if (Decision.action(decision) == CompiledPolicy.DROP) {
            return;
        }
        CompiledPolicy.Node child = child(d);
        int keys = maskKeys ? maskedKeyStyle(d, index, decision) : frames.keyStyle(d);
        int shown = frames.shown[d]++;
        decision = Decision.key(decision, keys, keys == ElementWriter.KEYS_DATA ? frames.dataKeys[d]++ : shown);
        if (mode.fingerprint) {
            // tokens count only while the fingerprint is computed: otherwise the shape is not looked at
            decision = hashes(d, index, type, decision);
        }
        if (mode.capped) {
            cappedElement(d, p, end, mode, decision, child);
        } else {
            emit(d, mode, decision, child);
        }
    }

    /**
     * Under a cap: the element whole when it fits, else a container entered to be cut inside, else the cut. The trial
     * measure walks the element's subtree, so the cursor reads the element again after it.
     */
    private void cappedElement(final int d, final int p, final int end, final WalkMode mode, final long decision,
                               @Nullable final CompiledPolicy.Node child) {
        int size = measure(d, decision, child);
        // the trial may have left the cursor in a sequence document's array
        readFrame(d);
        read(d, p, end);
        if (cap.fits(size)) {
            WalkMode whole = mode.uncapped();
            emit(d, whole, decision, child);
            run(d, whole);
        } else if (cursor.container()
                && cap.fits(1 + writer.keySize(Decision.keyStyle(decision), Decision.outIndex(decision)) + 1 + 4 + 1)) {
            // enter the container and cut inside it
            emit(d, mode, decision, child);
        } else {
            cap.cutHere();
        }
    }

    /**
     * @return the bytes the element would take, counted without writing, uncapped ({@link WalkMode#TRIAL}); the path is the
     *         element's again after it, as the trial pushed the keys below it
     */
    private int measure(final int d, final long decision, @Nullable final CompiledPolicy.Node child) {
        int keys = matcher.depth();
        out.suspend();
        emit(d, WalkMode.TRIAL, decision, child);
        run(d, WalkMode.TRIAL);
        matcher.depth(keys);
        return out.resume();
    }

    /** Emits the element the cursor read, as {@link #step} decided: written, or its document opened. */
    private void emit(final int d, final WalkMode mode, final long decision, @Nullable final CompiledPolicy.Node child) {
        byte type = cursor.type;
        boolean container = cursor.container();
        int keys = Decision.keyStyle(decision);
        int outIndex = Decision.outIndex(decision);
        boolean hashing = mode.fingerprint && Decision.is(decision, Decision.HASHED);
        if (hashing) {
            mixElement(type, container, keys, Decision.is(decision, Decision.HASHED_VALUE));
        }
        if (Decision.is(decision, Decision.WRAPPER)) {
            writer.head(type, keys, outIndex);
            openWrapped(cursor.value, hashing);
            return;
        }
        byte action = Decision.action(decision);
        CompiledPolicy.Node node = child;
        if (action == CompiledPolicy.PIPELINE) {
            if (type == BsonTypes.ARRAY) {
                writer.head(type, keys, outIndex);
                // each element is a stage: walked with the stage rules, everything they do not name redacted
                open(cursor.value, rules().stage, CompiledPolicy.REDACT, WalkFrames.ARRAY | hashing(hashing));
                return;
            }
            action = CompiledPolicy.REDACT;
            node = null;
        }
        boolean sequence = container && places.isSequence(d);
        // a kept container is copied whole unless something inside it may be decided otherwise: a rule below it, a **.
        // rule (any depth), a typed array's elements, a limit, a cut
        if (action == CompiledPolicy.KEEP && !(container && (mode.capped || Decision.is(decision, Decision.TYPED_ARRAY)
                || (node != null && node.hasChildren()) || matcher.hasSuffixRules() || places.holdsLimited(sequence, d)))) {
            keep(d, container, keys, outIndex, hashing);
        } else if (container) {
            writer.head(type, keys, outIndex);
            // masked keys stay masked at every depth below: keys that are data can nest
            boolean flags = action == CompiledPolicy.KEEP_FLAGS || action == CompiledPolicy.FLAGS_ONLY;
            int kind = (type == BsonTypes.ARRAY ? WalkFrames.ARRAY : 0) | (sequence && maxSequence != Integer.MAX_VALUE
                    ? WalkFrames.LIMITED : 0) | (action == CompiledPolicy.REDACT_KEYS && type == BsonTypes.DOCUMENT ? WalkFrames.MASKED : 0)
                    | (places.holdsLimited(false, d) ? WalkFrames.HOLDS_LIMITED : 0) | hashing(hashing);
            open(cursor.value, node, flags ? CompiledPolicy.REDACT : action, kind);
        } else if (keepsScalar(action)) {
            keep(d, false, keys, outIndex, hashing);
        } else if (type == BsonTypes.STRING && action == CompiledPolicy.SCRUB) {
            writer.scrubbed(keys, outIndex);
        } else if (writer.redacted(keys, outIndex) && mode.analysing) {
            valuesRedacted++;
        }
    }

    /** @return whether the scalar is kept (a flag by its value) */
    private boolean keepsScalar(final byte action) {
        return places.keepsScalar(action);
    }

    /** Mixes the element the cursor read into the fingerprint: its key as the output names it, its category, a namespace. */
    private void mixElement(final byte type, final boolean container, final int keys, final boolean hashValue) {
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

    private void keep(final int d, final boolean container, final int keys, final int outIndex, final boolean hashing) {
        int s = container ? sequenceAt(cursor.value) : -1;
        if (s >= 0) {
            keepSequence(s, d, keys, outIndex, hashing);
            return;
        }
        if (container) {
            hash.kept(cursor.value, cursor.type == BsonTypes.ARRAY, d + 1, hashing);
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
    private void openWrapped(final int off, final boolean hashing) {
        open(off, null, CompiledPolicy.REDACT, WalkFrames.WRAPPED | hashing(hashing));
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
