package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;

/**
 * What one call of {@link DocumentRedactor} produced: the owned output (or none), the analysis of the document and its size
 * as received. One instance per redactor, reused by every call of it: read it before the redactor's next call or its return to
 * the pool, and {@link #takeBytes() take} the output, so that the pooled redactor does not keep it.
 */
public final class Redaction {
    @Nullable
    private byte[] bytes;
    private long fingerprint;
    @Nullable
    private String collectionName;
    private long valuesRedacted;
    private int inputSize;

    void reset() {
        bytes = null;
        fingerprint = 0;
        collectionName = null;
        valuesRedacted = 0;
        inputSize = 0;
    }

    void bytes(final byte[] output) {
        this.bytes = output;
    }

    void analysis(final long fingerprint, @Nullable final String collectionName, final long valuesRedacted) {
        this.fingerprint = fingerprint;
        this.collectionName = collectionName;
        this.valuesRedacted = valuesRedacted;
    }

    void inputSize(final int size) {
        this.inputSize = size;
    }

    /** @return the output array, handed over to the caller (later calls return null), or null when none was made */
    @Nullable
    public byte[] takeBytes() {
        byte[] output = bytes;
        bytes = null;
        return output;
    }

    /** @return the query-shape fingerprint, 0 when it was not computed */
    public long fingerprint() {
        return fingerprint;
    }

    /** @return the collection the command names, or null */
    @Nullable
    public String collectionName() {
        return collectionName;
    }

    /** @return the values replaced by placeholders */
    public long valuesRedacted() {
        return valuesRedacted;
    }

    /** @return the size in bytes of the document as received (for a command: sequences merged as arrays) */
    public int inputSize() {
        return inputSize;
    }
}
