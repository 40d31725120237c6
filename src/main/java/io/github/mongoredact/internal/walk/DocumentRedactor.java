package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.BoundedPool;
import io.github.mongoredact.internal.bson.DocumentBytes;
import io.github.mongoredact.internal.bson.FramedCopy;
import io.github.mongoredact.internal.bson.PlainEncoder;
import io.github.mongoredact.internal.bson.PlainSize;
import io.github.mongoredact.internal.bson.Workspace;
import io.github.mongoredact.internal.rules.CollectionNames;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import org.bson.BsonDocument;

import java.util.Arrays;

/**
 * Turns a command or reply into its owned, redacted copy, one exact-size array, and analyses it; three entry points named
 * for what they do, each returning the redactor's {@link Redaction}.
 *
 * <ul>
 *     <li>Verbatim rules (the spec-only policy): the bytes are copied straight from the driver's buffers into the output
 *     (byte-backed top level), or the small plain top level is encoded value by value with its byte-backed sequence
 *     documents copied whole, framing checked ({@link FramedCopy}); its analysis, when a sink reads it, walks a sample (the
 *     top level and the first document of each sequence), as the analysis without a copy does.</li>
 *     <li>Any other rules: the bytes are reached where they are (heap arrays); a plain top level is encoded into the workspace's
 *     scratch with its sequence documents left where they lie ({@code SequenceViews}), or gathered whole where one is not in a
 *     heap array; the {@link RedactionWalker} writes the output into the same scratch in one pass that also sizes and
 *     analyses it; one exact-size copy of that is the output. Only when the scratch had too little room (or the command is too large for a
 *     pooled scratch) does a second, exact write follow the sizing pass.</li>
 * </ul>
 *
 * <p>Not thread-safe: one caller at a time, for one callback, as a scratch borrowed from a pool shared by all threads (it
 * holds no state per thread). Each call forgets the document's bytes before it returns.</p>
 */
public final class DocumentRedactor {
    /** Redactors between callbacks, shared by all threads ({@link BoundedPool#DEFAULT_SLOTS} at most). */
    private static final BoundedPool<DocumentRedactor> POOL = new BoundedPool<>(DocumentRedactor::new);
    private final CollectionNames collectionNames;
    private final RedactionWalker walker = new RedactionWalker();
    /** A reader for the holder's own reads of a top level (the collection of a command, a reply's errors). */
    private final BsonCursor cursor = new BsonCursor();
    private final Redaction result = new Redaction();
    private final OnePass onePass = new OnePass(walker);
    /** The byte space the redactor's calls use, borrowed with it. */
    private final Workspace workspace = new Workspace();
    // the current call (references dropped at its end)
    @Nullable
    private BsonDocument document;
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

    /** @return the workspace this redactor's calls use (its scratch, encoder and source), for a caller that holds it */
    public Workspace workspace() {
        return workspace;
    }

    /**
     * Redacts a started command into its owned copy, with its values redacted and size.
     *
     * @param analyse whether the collection (and the fingerprint, if wanted) are wanted
     * @param fingerprint whether the query-shape fingerprint is wanted (0 otherwise)
     */
    public Redaction redactCommand(final BsonDocument command, final CompiledPolicy policy, final CompiledPolicy.RuleSet rules,
                                   final boolean analyse, final boolean fingerprint) {
        begin(command, policy, rules, true);
        this.analyse = analyse;
        this.fingerprint = analyse && fingerprint;
        return run(workspace, true);
    }

    /** Analyses a started command (collection, values redacted, size, fingerprint when wanted) without making its copy. */
    public Redaction analyseCommand(final BsonDocument command, final CompiledPolicy policy,
                                    final CompiledPolicy.RuleSet rules, final boolean fingerprint) {
        begin(command, policy, rules, true);
        this.analyse = true;
        this.fingerprint = fingerprint;
        return run(workspace, false);
    }

    /** Redacts a reply into its owned copy, with the values redacted and its size. */
    public Redaction redactReply(final BsonDocument reply, final CompiledPolicy policy, final CompiledPolicy.RuleSet rules) {
        begin(reply, policy, rules, false);
        this.analyse = false;
        this.fingerprint = false;
        return run(workspace, true);
    }

    private void begin(final BsonDocument document, final CompiledPolicy policy, final CompiledPolicy.RuleSet rules,
                       final boolean command) {
        this.document = document;
        this.policy = policy;
        this.rules = rules;
        this.command = command;
    }

    private Redaction run(final Workspace workspace, final boolean copy) {
        result.reset();
        try {
            if (rules().verbatim && copy) {
                verbatim(workspace);
            } else if (!copy && !DocumentBytes.isByteBacked(document())) {
                analyseSample(workspace);
                result.inputSize(PlainSize.of(document(), workspace));
            } else {
                walk(workspace, copy);
            }
            return result;
        } finally {
            // neither the pooled walker nor its workspace may keep the document's bytes after the callback
            walker.clear();
            onePass.clear();
            workspace.release();
            document = null;
        }
    }

    private BsonDocument document() {
        BsonDocument current = document;
        if (current == null) {
            throw new IllegalStateException("no document: called outside a redaction");
        }
        return current;
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
     * Verbatim rules: the bytes as they are. A byte-backed document (a command the driver holds as bytes, a reply) is one
     * the sinks interpret: copied, then checked element by element. A plain top level (insert, update, delete) is encoded from
     * its values, well-formed by construction, and its sequence documents are copied whole with their framing checked in the
     * same pass ({@link FramedCopy}); what lies inside them is forwarded as the driver sent it. Its analysis walks the sample
     * of {@link #analyseSample}, so that whether sinks read the analysis changes neither what is checked nor the cost of the
     * sequences.
     */
    private void verbatim(final Workspace workspace) {
        BsonDocument source = document();
        boolean byteBacked = DocumentBytes.isByteBacked(source);
        byte[] out;
        if (byteBacked) {
            out = new byte[DocumentBytes.length(source)];
            DocumentBytes.copy(source, out, 0);
        } else {
            out = FramedCopy.copy(source, workspace.encoder);
        }
        result.inputSize(out.length);
        if (analyse && byteBacked) {
            walker.bind(out, 0, out.length, rules(), command, policy());
            walker.analyse(fingerprint);
            analysis(out);
        } else if (analyse) {
            // the copy's sequence documents were framed as they were copied; what the analysis reads (the top level, and the
            // first document of each sequence for the fingerprint) is a sample, as on the path without a copy
            analyseSample(workspace);
        } else if (byteBacked) {
            walker.check(out, 0, out.length, rules(), command, policy());
        }
        result.bytes(out);
    }

    /**
     * Only the analysis of a plain top level: a sample holding the first element of each document sequence is walked. The
     * input size is the caller's to set (the verbatim copy knows it already).
     */
    private void analyseSample(final Workspace workspace) {
        PlainEncoder encoder = workspace.encoder;
        int length = encoder.size(document(), true);
        byte[] scratch = workspace.scratch(length);
        checkWritten(length, encoder.write(document(), scratch, 0, true));
        walker.bind(scratch, 0, length, rules(), command, policy());
        walker.analyse(fingerprint);
        analysis(scratch);
        result.analysis(result.fingerprint(), result.collectionName(), 0);
    }

    private void walk(final Workspace workspace, final boolean copy) {
        int outOff = -1;
        if (copy) {
            outOff = onePass.source(document(), workspace);
        } else {
            OnePass.sourceOnly(document(), workspace);
        }
        byte[] src = workspace.source();
        int off = workspace.sourceOff();
        int end = workspace.sourceEnd();
        result.inputSize(copy ? onePass.inputLength() : end - off);
        int cap = policy().maxDocumentBytes;
        walker.bind(src, off, end, rules(), command, policy());
        if (!copy) {
            walker.analyse(fingerprint);
            analysis(src);
            return;
        }
        int size = onePass.run(outOff, fingerprint);
        analysis(src);
        byte[] out;
        if (cap > 0 && size > cap) {
            int capped = walker.sizeCapped(cap);
            out = new byte[capped];
            long truncated = (long) size - (capped - RedactionWalker.TRUNCATION_MARKER_SIZE);
            checkWritten(capped, walker.write(out, 0, cap, truncated));
        } else if (outOff < 0 || walker.overflowed()) {
            out = new byte[size];
            checkWritten(size, walker.write(out, 0, 0, 0));
        } else {
            out = Arrays.copyOfRange(onePass.scratch(), outOff, outOff + size);
        }
        result.bytes(out);
    }

    /** Notes the walk's analysis; the collection is resolved only when the caller reads the analysis ({@code analyse}). */
    private void analysis(final byte[] src) {
        int off = analyse ? walker.collectionOffset() : -1;
        String collection = off < 0 ? null : collectionNames.resolve(src, off, walker.collectionLength());
        result.analysis(fingerprint ? walker.fingerprint() : 0, collection, walker.valuesRedacted());
    }

    /** Whether a plain top level's sequences are gathered into the scratch (tests: the walk the in-place one must equal). */
    void gatherSequences(final boolean gather) {
        onePass.gatherSequences(gather);
    }

    /** @return whether the last call walked a plain top level's sequences where they lie (tests) */
    boolean sequencesInPlace() {
        return onePass.placed();
    }

    /** @return whether the last call wrote a plain top level while sizing it, not a second time (tests) */
    boolean topWrittenWhileSized() {
        return onePass.writtenWhileSized();
    }

    static void checkWritten(final int sized, final int written) {
        if (sized != written) {
            throw new IllegalStateException("sizing and writing disagree: sized=" + sized + " written=" + written);
        }
    }
}
