package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.Output;
import io.github.mongoredact.internal.bson.SequenceViews;
import io.github.mongoredact.internal.rules.CompiledPolicy;

/**
 * Applies a policy's rules to one BSON document held as bytes: the entry points of the one walk, each setting the output's
 * mode (counting, exact, growing) and running, in its {@link WalkMode} (analysing, fingerprint, capped), the
 * {@link WalkDriver} over the walk's parts: the {@link BsonCursor} reads the source, the {@code PathMatcher} says which action
 * applies, the {@link ElementWriter} and the {@link PlaceholderRun} write into the shared {@link Output}, the
 * {@link ShapeHash} fingerprints.
 *
 * <p>The same walk sizes and writes: with no destination it counts (and, while analysing, computes the query-shape
 * fingerprint, finds the collection name and counts the values redacted); with one it writes. Because one piece of code
 * decides every byte in both, they cannot disagree. Under a redacting policy ({@code strict}) every key, every boolean and old
 * binary, and every kept string is checked as {@link io.github.mongoredact.internal.bson.BsonValidation} says; a verbatim
 * policy keeps every element and checks the framing only, by the same reader.</p>
 *
 * <p>Not thread-safe: one instance per redactor, reused. Allocation-free. {@link #clear()} forgets the source and destination
 * at the end of every call, so that a pooled redactor references no command's bytes after its callback.</p>
 */
final class RedactionWalker {
    static final int MAX_DEPTH = BsonBounds.MAX_DEPTH;
    /** {@code "$truncatedBytes": int64}: type, key, NUL, 8 bytes. */
    static final int TRUNCATION_MARKER_SIZE = ElementWriter.TRUNCATION_MARKER_SIZE;

    private final WalkDriver driver = new WalkDriver();
    private final Output out = driver.out;

    /**
     * Sizes the redacted output of the document at {@code src[off]}, computing fingerprint, collection and counts.
     *
     * @return the exact size of the output in bytes, without any cap
     * @throws io.github.mongoredact.internal.bson.BsonFormatException if the bytes are not valid BSON
     */
    int size(final byte[] src, final int off, final int end, final CompiledPolicy.RuleSet rules, final boolean command,
             final CompiledPolicy policy) {
        bind(src, off, end, rules, command, policy);
        int size = analyse(true);
        clear();
        return size;
    }

    /**
     * Binds the source of the next walk: the document at {@code src[off]}, before {@code end}, with the rules and policy that
     * apply to it.
     */
    void bind(final byte[] src, final int off, final int end, final CompiledPolicy.RuleSet rules, final boolean command,
              final CompiledPolicy policy) {
        driver.bind(src, off, end, rules, command, policy);
    }

    /**
     * Sizes the bound document's output and analyses it (collection, values redacted and, when {@code fingerprint}, the
     * query-shape fingerprint), writing nothing.
     *
     * @return the exact size of the output in bytes, without any cap
     */
    int analyse(final boolean fingerprint) {
        out.count(0);
        return walk(WalkMode.analysis(fingerprint));
    }

    /**
     * Writes the bound document's output from the start of {@code first}, an array of {@code growth}'s, which replaces it by
     * a larger one where the output needs more room ({@link #written()} is then the last one), and analyses it as
     * {@link #analyse} does, in the same pass.
     *
     * @return the exact size of the output in bytes, without any cap
     */
    int write(final Output.Growth growth, final byte[] first, final boolean fingerprint) {
        out.growing(growth, first, 0);
        return walk(WalkMode.analysis(fingerprint));
    }

    /**
     * Writes the bound document's output under a cap, cut at element boundaries, from the start of {@code first} of
     * {@code growth} as {@link #write(Output.Growth, byte[], boolean)} does, without the analysis; the truncation marker
     * says how many bytes of the uncapped output ({@code size}, from an uncapped walk) were left out.
     *
     * @return the size of the capped output, truncation marker included
     */
    int writeCapped(final Output.Growth growth, final byte[] first, final int cap, final int size) {
        out.growing(growth, first, 0);
        return capped(cap, size);
    }

    /**
     * Writes the bound document's output into {@code dst} from index 0, which the caller sized exactly, and, when
     * {@code analysing} (or for the fingerprint), analyses it as {@link #analyse} does, in the same pass.
     *
     * @return bytes written
     * @throws IllegalStateException if the output does not fit {@code dst}
     */
    int write(final byte[] dst, final boolean analysing, final boolean fingerprint) {
        if (!(analysing || fingerprint) && driver.boundRules().verbatim) {
            // kept whole, nothing to note: written into dst by absolute index, dst not stored into the pooled output
            return driver.keptWhole(dst);
        }
        out.exact(dst, 0);
        return walk(WalkMode.of(fingerprint, analysing || fingerprint, false));
    }

    /** @return the array the last write into a growing output ended in: its output starts at index 0 */
    byte[] written() {
        return out.array();
    }

    /**
     * Writes the bound document's output into {@code dst} at {@code dstOff}, which the caller sized from {@link #size} or
     * {@link #analyse} (and {@link #sizeCapped} when {@code cap > 0}); then forgets the binding.
     *
     * @param cap the cap, 0 for none
     * @param size for a capped write, the size of the uncapped output
     * @return bytes written
     * @throws IllegalStateException if the output does not fit {@code dst}
     */
    int write(final byte[] dst, final int dstOff, final int cap, final int size) {
        out.exact(dst, dstOff);
        int written = cap > 0 ? capped(cap, size) : walk(WalkMode.PLAIN);
        clear();
        return written;
    }

    /**
     * Sizes the bound document's output under a cap, cut at element boundaries; call after {@link #bind} (and before
     * {@link #write}, which it leaves bound).
     *
     * @return the size of the capped output, truncation marker included
     */
    int sizeCapped(final int cap) {
        out.count(0);
        return capped(cap, 0);
    }

    /** A capped walk from the output's position: the marker's count written once the output's size is known. */
    private int capped(final int cap, final int size) {
        int from = out.position();
        driver.cap.limit(from + cap);
        walk(WalkMode.CAPPED_WALK);
        int capped = out.position() - from;
        if (driver.cap.cut()) {
            // the marker is the top level's last element: its count just before the terminator
            out.patchLong(out.position() - 1 - 8, (long) size - (capped - TRUNCATION_MARKER_SIZE));
        }
        return capped;
    }

    /** Runs the walk over the bound document in {@code mode}, the output as its caller set it. @return bytes output */
    private int walk(final WalkMode mode) {
        int from = out.position();
        driver.walk(mode);
        return out.position() - from;
    }

    /** Forgets the source and destination arrays (the source may be a driver buffer's). Called after every pass. */
    void clear() {
        driver.clear(null);
    }

    /** As {@link #clear()}, but a bound source that is {@code kept} (a scratch's own array, kept anyway) stays referenced. */
    void clear(@Nullable final byte[] kept) {
        driver.clear(kept);
    }

    /** @return the policy of the bound document */
    CompiledPolicy policy() {
        return driver.policy();
    }

    /** @return the rules of the bound document */
    CompiledPolicy.RuleSet rules() {
        return driver.boundRules();
    }

    /**
     * @return where {@link WalkSource} puts the document sequences of a plain top level left where they lie, before
     *         {@link #bind}; {@link #clear()} forgets them
     */
    SequenceViews sequences() {
        return driver.sequences;
    }

    long fingerprint() {
        return driver.hash.fingerprint();
    }

    int collectionOffset() {
        return driver.places.collectionOffset();
    }

    int collectionLength() {
        return driver.places.collectionLength();
    }

    long valuesRedacted() {
        return driver.valuesRedacted;
    }
}
