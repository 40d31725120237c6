package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.BoundedPool;
import io.github.mongoredact.internal.bson.Workspace;
import io.github.mongoredact.internal.rules.CollectionNames;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import org.bson.BsonDocument;

import java.util.Arrays;

/**
 * Turns a command or reply into its owned, redacted copy, one exact-size array, and analyses it; three entry points named
 * for what they do: the two that copy return the copy, which the redactor does not keep, and leave the analysis in
 * {@link #redaction()}; the one that analyses returns that. Every document goes the same way: its bytes reached
 * where they lie or gathered ({@link WalkSource}), then one walk ({@link RedactionWalker}) in the mode the caller needs:
 *
 * <ul>
 *     <li>a copy: the walk writes the output into the workspace's output scratch, growing it where it needs more room, and
 *     analyses the document in the same pass; one exact-size copy of that is the output. A policy that keeps everything
 *     (verbatim: the spec-only policy) writes straight into an array of the input's size, which its output always is. Over the
 *     policy's cap ({@code maxDocumentBytes}), a second, capped walk writes the output cut at element boundaries.</li>
 *     <li>no copy (sinks that read the fingerprint or the collection only): the walk counts, analyses and writes nothing; no
 *     value is counted as redacted, since none was copied.</li>
 * </ul>
 *
 * <p>Not thread-safe: one caller at a time, for one callback, as a scratch borrowed from a pool shared by all threads (it
 * holds no state per thread). The walker forgets the document's bytes before each call returns; the workspace still points at
 * the document's source ({@link #sourceIsWhole()}) until {@link #giveBack()}, which forgets it, within the callback. What
 * the redactor keeps between callbacks is its own: the scratch arrays, the policy and rules it last used (stored only when
 * they change, as a reference stored into a pooled, long-lived object costs the collector's write barrier).</p>
 */
public final class DocumentRedactor {
    /** Redactors between callbacks, shared by all threads ({@link BoundedPool#DEFAULT_SLOTS} at most). */
    private static final BoundedPool<DocumentRedactor> POOL = new BoundedPool<>(DocumentRedactor::new);
    /**
     * The room an output asks for at first: the scratch's own array (kept between callbacks, up to 64 KiB) has at least this
     * much; a larger output grows it by doubling, from the shared pool up to its bound, so that a large command's output costs
     * what it writes, not a guess from its input.
     */
    private static final int FIRST_ROOM = 1024;
    private final CollectionNames collectionNames;
    private final RedactionWalker walker = new RedactionWalker();
    /** A reader for the holder's own reads of a top level (the collection of a command, a reply's errors). */
    private final BsonCursor cursor = new BsonCursor();
    private final Redaction result = new Redaction();
    private final WalkSource source = new WalkSource(walker.sequences());
    /** The byte space the redactor's calls use, borrowed with it. */
    private final Workspace workspace = new Workspace();
    // the current call; the document is handed down, not held. The policy and rules, long-lived and the same from call to call,
    // are stored only when they change: a reference stored into this pooled, long-lived object costs the collector's write
    // barrier
    @Nullable
    private CompiledPolicy policy;
    @Nullable
    private CompiledPolicy.RuleSet rules;
    private boolean command;
    private boolean analyse;
    private boolean fingerprint;

    /** A redactor that resolves collection names through the shared cache. */
    public DocumentRedactor() {
        this(CollectionNames.shared());
    }

    DocumentRedactor(final CollectionNames collectionNames) {
        this.collectionNames = collectionNames;
    }

    /**
     * @return a redactor owned by the caller until {@link #giveBack()}: one from the pool shared by all threads, or a fresh one
     *         when none is free (never blocks)
     */
    public static DocumentRedactor borrow() {
        return POOL.borrow();
    }

    /**
     * Gives the redactor back to the pool; the caller reads nothing of it after (its {@link Redaction} included). Its calls
     * forgot the documents they read before they returned.
     */
    public void giveBack() {
        cursor.clear();
        workspace.release();
        POOL.giveBack(this);
    }

    /** @return the pool the redactors come from (tests and diagnostics) */
    public static BoundedPool<DocumentRedactor> pool() {
        return POOL;
    }

    /** @return a reader of a top level for the holder's own reads, which it clears before {@link #giveBack()} */
    public BsonCursor cursor() {
        return cursor;
    }

    /**
     * @return whether the workspace's source ({@link Workspace#source()}) holds the whole document the last call read, as
     *         the driver sent it (a byte-backed document, or a plain top level without document sequences): valid until
     *         {@link #giveBack()}
     */
    public boolean sourceIsWhole() {
        return source.isWhole();
    }

    /** @return the workspace this redactor's calls use (its scratch, encoder and source), for a caller that holds it */
    public Workspace workspace() {
        return workspace;
    }

    /**
     * Redacts a started command into its owned copy; its analysis (values redacted, size) is then in {@link #redaction()}.
     *
     * @param analyse whether the collection (and the fingerprint, if wanted) are wanted
     * @param fingerprint whether the query-shape fingerprint is wanted (0 otherwise)
     * @return the copy, an exact-size array the caller owns (the redactor keeps no reference to it)
     */
    public byte[] redactCommand(final BsonDocument command, final CompiledPolicy policy, final CompiledPolicy.RuleSet rules,
                                final boolean analyse, final boolean fingerprint) {
        begin(policy, rules, true);
        this.analyse = analyse;
        this.fingerprint = analyse && fingerprint;
        return copied(run(command, workspace, true));
    }

    /** Analyses a started command (collection, values redacted, size, fingerprint when wanted) without making its copy. */
    public Redaction analyseCommand(final BsonDocument command, final CompiledPolicy policy,
                                    final CompiledPolicy.RuleSet rules, final boolean fingerprint) {
        begin(policy, rules, true);
        this.analyse = true;
        this.fingerprint = fingerprint;
        run(command, workspace, false);
        return result;
    }

    /**
     * Redacts a reply into its owned copy; the values redacted and its size are then in {@link #redaction()}.
     *
     * @return the copy, an exact-size array the caller owns (the redactor keeps no reference to it)
     */
    public byte[] redactReply(final BsonDocument reply, final CompiledPolicy policy, final CompiledPolicy.RuleSet rules) {
        begin(policy, rules, false);
        this.analyse = false;
        this.fingerprint = false;
        return copied(run(reply, workspace, true));
    }

    /**
     * @return the analysis of the last call (the copy is what that call returned): read it before the redactor's next call or
     *         its return to the pool
     */
    public Redaction redaction() {
        return result;
    }

    private static byte[] copied(@Nullable final byte[] bytes) {
        if (bytes == null) {
            throw new IllegalStateException("a copying walk made no copy");
        }
        return bytes;
    }

    private void begin(final CompiledPolicy policy, final CompiledPolicy.RuleSet rules, final boolean command) {
        if (this.policy != policy) {
            this.policy = policy;
        }
        if (this.rules != rules) {
            this.rules = rules;
        }
        this.command = command;
    }

    /** @return the copy, or null when {@code copy} is false */
    @Nullable
    private byte[] run(final BsonDocument document, final Workspace workspace, final boolean copy) {
        result.reset();
        try {
            return walk(document, workspace, copy);
        } finally {
            // the pooled walker keeps no document's bytes (but its input scratch's own array, where it encodes a plain top
            // level); its workspace forgets them when the redactor is given back
            walker.clear(workspace.input.kept());
        }
    }

    private CompiledPolicy policy() {
        CompiledPolicy current = policy;
        if (current == null) {
            throw new IllegalStateException("no policy: called outside a redaction");
        }
        return current;
    }

    private CompiledPolicy.RuleSet rules() {
        CompiledPolicy.RuleSet current = rules;
        if (current == null) {
            throw new IllegalStateException("no rules: called outside a redaction");
        }
        return current;
    }

    /**
     * @return the copy, or null when {@code copy} is false: returned, not kept in the pooled {@link Redaction}, since a
     *         reference to a new array stored into a long-lived object costs the collector's write barrier
     */
    @Nullable
    private byte[] walk(final BsonDocument document, final Workspace workspace, final boolean copy) {
        source.of(document, workspace);
        byte[] src = workspace.source();
        int inputLength = source.inputLength();
        result.inputSize(inputLength);
        CompiledPolicy.RuleSet bound = rules();
        walker.bind(src, workspace.sourceOff(), workspace.sourceEnd(), bound, command, policy());
        if (!copy) {
            walker.analyse(fingerprint);
            analysis(src, 0);
            return null;
        }
        byte[] out;
        long valuesRedacted = 0;
        if (bound.verbatim) {
            // every element kept as it is: the output is the input, sequences merged as arrays; no value replaced, and only
            // sinks read its analysis
            out = new byte[inputLength];
            checkWritten(inputLength, walker.write(out, analyse, fingerprint));
        } else {
            Workspace.Scratch scratch = workspace.output;
            // the output starts in the scratch's own small array and grows by doubling where it needs more room
            int size = walker.write(scratch, scratch.array(FIRST_ROOM), fingerprint);
            valuesRedacted = walker.valuesRedacted();
            int cap = policy().maxDocumentBytes;
            if (cap > 0 && size > cap) {
                size = walker.writeCapped(scratch, scratch.array(FIRST_ROOM), cap, size);
            }
            out = Arrays.copyOf(walker.written(), size);
        }
        analysis(src, valuesRedacted);
        return out;
    }

    /** Notes the walk's analysis; the collection is resolved only when the caller reads the analysis ({@code analyse}). */
    private void analysis(final byte[] src, final long valuesRedacted) {
        int off = analyse ? walker.collectionOffset() : -1;
        String collection = off < 0 ? null : collectionNames.resolve(src, off, walker.collectionLength());
        result.analysis(fingerprint ? walker.fingerprint() : 0, collection, valuesRedacted);
    }

    static void checkWritten(final int sized, final int written) {
        if (sized != written) {
            throw new IllegalStateException("sizing and writing disagree: sized=" + sized + " written=" + written);
        }
    }
}
