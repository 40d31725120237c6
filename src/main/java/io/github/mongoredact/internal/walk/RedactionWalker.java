package io.github.mongoredact.internal.walk;

import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFraming;
import io.github.mongoredact.internal.bson.Output;
import io.github.mongoredact.internal.bson.SequenceViews;
import io.github.mongoredact.internal.rules.CompiledPolicy;

/**
 * Applies a policy's rules to one BSON document held as bytes: the entry points of a walk (analyse, one pass into a scratch,
 * capped size, exact write, structure check), each setting the output's destination and running, in its {@link WalkMode}, the
 * {@link WalkDriver} over the walk's parts: the {@link BsonCursor} reads the source, the {@code PathMatcher} says which action
 * applies, the {@link ElementWriter} and the {@link PlaceholderRun} write into the shared {@link Output}, the
 * {@link ShapeHash} fingerprints.
 *
 * <p>The same walk sizes and writes: with no destination it counts (and, while analysing, computes the query-shape
 * fingerprint, finds the collection name and counts the values redacted); with one it writes. Because one piece of code
 * decides every byte in both, they cannot disagree. Under a redacting policy ({@code strict}) every key, every boolean and old
 * binary, and every kept string is checked as {@link io.github.mongoredact.internal.bson.BsonValidation} says; a verbatim
 * policy checks the framing only.</p>
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
    private final BsonFraming framing = new BsonFraming();

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
     * Binds the source of the next {@link #analyse} or {@link #sizeAndWrite}: the document at {@code src[off]}, before
     * {@code end}, with the rules and policy that apply to it.
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
        driver.walk(WalkMode.analysis(fingerprint));
        return out.position() - from;
    }

    /**
     * Checks the structure of the document at {@code src[off]} (lengths, types, terminators, depth), as {@link #size} does,
     * without computing the analysis.
     *
     * @throws io.github.mongoredact.internal.bson.BsonFormatException if the bytes are not valid BSON
     */
    void check(final byte[] src, final int off, final int end, final CompiledPolicy.RuleSet rules, final boolean command,
               final CompiledPolicy policy) {
        if (rules.verbatim) {
            // every element is kept as it is: only the framing matters, checked by one tight loop
            framing.check(src, off, end);
            return;
        }
        bind(src, off, end, rules, command, policy);
        out.count(0);
        driver.walk(WalkMode.PLAIN);
        clear();
    }

    /**
     * Sizes the bound document's output under a cap, cut at element boundaries; call after {@link #bind} (and before
     * {@link #write}, which it leaves bound).
     *
     * @return the size of the capped output, truncation marker included
     */
    int sizeCapped(final int cap) {
        out.count(0);
        driver.cap.limit(cap, 0);
        driver.walk(WalkMode.CAPPED_WALK);
        return out.position();
    }

    /**
     * Writes the bound document's output into {@code dst} at {@code dstOff}, which the caller sized from {@link #size} or
     * {@link #analyse} (and {@link #sizeCapped} when {@code cap > 0}); then forgets the binding.
     *
     * @param cap the cap, 0 for none
     * @param truncatedBytes for a capped write, the bytes left out (written into the marker)
     * @return bytes written
     */
    int write(final byte[] dst, final int dstOff, final int cap, final long truncatedBytes) {
        out.exact(dst, dstOff);
        if (cap > 0) {
            driver.cap.limit(cap + dstOff, truncatedBytes);
            driver.walk(WalkMode.CAPPED_WALK);
        } else {
            driver.walk(WalkMode.PLAIN);
        }
        int written = out.position() - dstOff;
        if (out.overflowed()) {
            throw new IllegalStateException("output larger than sized: sized=" + (dst.length - dstOff) + " written=" + written);
        }
        clear();
        return written;
    }

    /** Forgets the source and destination arrays (the source may be a driver buffer's). Called after every pass. */
    void clear() {
        driver.clear();
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
     * @return where {@link OnePass} puts the document sequences of a plain top level left where they lie, before
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
