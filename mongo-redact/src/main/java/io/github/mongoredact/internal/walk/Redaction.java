package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;

import java.util.Objects;

/**
 * What one call of {@link DocumentRedactor} found: the analysis of the document and its size as received (the copy is what
 * the call returned, never kept here). One instance per redactor, reused by every call of it: read it before the redactor's
 * next call or its return to the pool.
 */
public final class Redaction {
    private long fingerprint;
    /**
     * The collection of the last analysis, kept after it (a shared cache's string, the same from call to call: a reference
     * stored into this pooled, long-lived object costs the collector's write barrier, so it is stored only when another name
     * comes); read only while {@link #analysed}.
     */
    @Nullable
    private String collectionName;
    private boolean analysed;
    private long valuesRedacted;
    private int inputSize;

    void reset() {
        fingerprint = 0;
        analysed = false;
        valuesRedacted = 0;
        inputSize = 0;
    }

    void analysis(final long fingerprint, @Nullable final String collectionName, final long valuesRedacted) {
        this.fingerprint = fingerprint;
        if (!Objects.equals(this.collectionName, collectionName)) {
            this.collectionName = collectionName;
        }
        analysed = true;
        this.valuesRedacted = valuesRedacted;
    }

    void inputSize(final int size) {
        this.inputSize = size;
    }

    /** @return the query-shape fingerprint, 0 when it was not computed */
    public long fingerprint() {
        return fingerprint;
    }

    /** @return the collection the command names, or null */
    @Nullable
    public String collectionName() {
        return analysed ? collectionName : null;
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
