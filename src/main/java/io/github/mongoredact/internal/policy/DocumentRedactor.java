package io.github.mongoredact.internal.policy;

import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import io.github.mongoredact.internal.bson.DocumentBytes;
import io.github.mongoredact.internal.bson.PlainEncoder;
import io.github.mongoredact.internal.bson.Workspace;

/**
 * Turns a command or reply into its owned, redacted copy: one array, sized exactly before it is allocated.
 *
 * <ul>
 *     <li>Verbatim rules (the spec-only policy): the bytes are copied straight from the driver's buffers into the output
 *     (byte-backed top level), or the small plain top level is encoded value by value with its byte-backed sequence
 *     documents copied whole; the size comes from the same encoder run in counting mode.</li>
 *     <li>Any other rules: the bytes are reached where they are (heap arrays) or gathered into the thread's reused scratch
 *     array, the {@link RedactionWalker} sizes the output, the array is allocated, and the same walker writes it.</li>
 * </ul>
 *
 * <p>After a call, the analysis (fingerprint, collection, values redacted, input size) is in this object's fields: read them
 * before the next call on the same thread. Not thread-safe: one instance per thread ({@link #current()}), with the thread's
 * walker.</p>
 */
public final class DocumentRedactor {
    /** The collection-name cache all threads share. */
    private static final CollectionNames COLLECTION_NAMES = new CollectionNames();
    private static final ThreadLocal<DocumentRedactor> CURRENT =
            ThreadLocal.withInitial(() -> new DocumentRedactor(COLLECTION_NAMES));
    private final CollectionNames collectionNames;
    private final RedactionWalker walker = new RedactionWalker();
    private long fingerprint;
    @Nullable
    private String collectionName;
    private long valuesRedacted;
    private int inputSize;

    DocumentRedactor(final CollectionNames collectionNames) {
        this.collectionNames = collectionNames;
    }

    /** @return the query-shape fingerprint of the last call's document, 0 when it was not analysed */
    public long fingerprint() {
        return fingerprint;
    }

    /** @return the collection the last call's command names, or null */
    @Nullable
    public String collectionName() {
        return collectionName;
    }

    /** @return the values the last call replaced by placeholders */
    public long valuesRedacted() {
        return valuesRedacted;
    }

    /** @return the size in bytes of the last call's document as received */
    public int inputSize() {
        return inputSize;
    }

    /** @return the calling thread's redactor */
    public static DocumentRedactor current() {
        return CURRENT.get();
    }

    /** @return the collection-name cache all threads share */
    static CollectionNames collectionNames() {
        return COLLECTION_NAMES;
    }

    /**
     * @param copy whether to make the output array (false: only analyse)
     * @param analyse whether the fingerprint and collection are wanted
     * @return the output array, or null when {@code copy} is false
     */
    @Nullable
    public byte[] redact(final BsonDocument document, final CompiledPolicy policy, final CompiledPolicy.RuleSet rules,
                  final boolean command, final boolean copy, final boolean analyse, final Workspace workspace) {
        fingerprint = 0;
        collectionName = null;
        valuesRedacted = 0;
        inputSize = 0;
        RedactionWalker walker = this.walker;
        try {
            if (rules.verbatim && copy) {
                byte[] out;
                if (DocumentBytes.isByteBacked(document)) {
                    out = new byte[DocumentBytes.length(document)];
                    DocumentBytes.copy(document, out, 0);
                } else {
                    PlainEncoder encoder = workspace.encoder;
                    out = new byte[encoder.size(document)];
                    int written = encoder.write(document, out, 0);
                    checkWritten(out.length, written);
                }
                inputSize = out.length;
                // the sizing pass also checks the structure, so that unreadable bytes are never handed on
                if (analyse) {
                    walker.size(out, 0, out.length, rules, command, policy);
                    analysis(walker, out);
                } else {
                    walker.check(out, 0, out.length, rules, command, policy);
                }
                return out;
            }
            if (!copy && !DocumentBytes.isByteBacked(document)) {
                // only the analysis is wanted: walk a sample that holds the first element of each document sequence
                PlainEncoder encoder = workspace.encoder;
                int length = encoder.size(document, true);
                byte[] scratch = workspace.scratch(length);
                checkWritten(length, encoder.write(document, scratch, 0, true));
                walker.size(scratch, 0, length, rules, command, policy);
                analysis(walker, scratch);
                valuesRedacted = 0;
                inputSize = encoder.size(document);
                return null;
            }
            if (!DocumentBytes.view(document, workspace)) {
                byte[] scratch;
                int length;
                if (DocumentBytes.isByteBacked(document)) {
                    length = DocumentBytes.length(document);
                    scratch = workspace.scratch(length);
                    DocumentBytes.copy(document, scratch, 0);
                } else {
                    PlainEncoder encoder = workspace.encoder;
                    length = encoder.size(document);
                    scratch = workspace.scratch(length);
                    checkWritten(length, encoder.write(document, scratch, 0));
                }
                workspace.source(scratch, 0, length);
            }
            byte[] src = workspace.source();
            int off = workspace.sourceOff();
            int end = workspace.sourceEnd();
            inputSize = end - off;
            int size = walker.size(src, off, end, rules, command, policy);
            analysis(walker, src);
            if (!copy) {
                return null;
            }
            int cap = policy.maxDocumentBytes;
            byte[] out;
            if (cap > 0 && size > cap) {
                int capped = walker.sizeCapped(src, off, end, rules, command, policy, cap);
                out = new byte[capped];
                long truncated = (long) size - (capped - RedactionWalker.TRUNCATION_MARKER_SIZE);
                checkWritten(capped, walker.write(src, off, end, rules, command, policy, out, 0, cap, truncated));
            } else {
                out = new byte[size];
                checkWritten(size, walker.write(src, off, end, rules, command, policy, out, 0, 0, 0));
            }
            return out;
        } finally {
            // neither the thread's walker nor its workspace may keep the command's bytes after the callback
            walker.clear();
            workspace.release();
        }
    }

    private void analysis(final RedactionWalker walker, final byte[] src) {
        fingerprint = walker.fingerprint();
        valuesRedacted = walker.valuesRedacted();
        int off = walker.collectionOffset();
        collectionName = off < 0 ? null : collectionNames.resolve(src, off, walker.collectionLength());
    }

    private static void checkWritten(final int sized, final int written) {
        if (sized != written) {
            throw new IllegalStateException("sizing and writing disagree: sized=" + sized + " written=" + written);
        }
    }
}
