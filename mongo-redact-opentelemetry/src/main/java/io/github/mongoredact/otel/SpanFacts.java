package io.github.mongoredact.otel;

import com.mongodb.lang.Nullable;
import io.opentelemetry.api.trace.SpanBuilder;

/**
 * The span attributes {@link DocumentFacts} read from one redacted copy of a started command: the session id, the
 * transaction number, {@code getMore}'s cursor id and the batch size ({@link BatchSize}), each only where the copy holds it.
 * Filled once by the reader, then read only (a {@link RememberedCopy} publishes it to other threads). Not thread-safe while
 * filled.
 */
final class SpanFacts {
    @Nullable
    private String lsid;
    private boolean hasTxnNumber;
    private long txnNumber;
    private boolean hasCursorId;
    private long cursorId;
    private long batchSize = -1;

    void lsid(final String id) {
        this.lsid = id;
    }

    void txnNumber(final long number) {
        this.hasTxnNumber = true;
        this.txnNumber = number;
    }

    void cursorId(final long id) {
        this.hasCursorId = true;
        this.cursorId = id;
    }

    void batchSize(final long size) {
        this.batchSize = size;
    }

    /** Sets the attributes of the facts found on the span. */
    void applyTo(final SpanBuilder span) {
        if (hasCursorId) {
            span.setAttribute(SpanKeys.CURSOR_ID, cursorId);
        }
        if (batchSize >= 0) {
            span.setAttribute(SpanKeys.BATCH_SIZE, batchSize);
        }
        if (hasTxnNumber) {
            span.setAttribute(SpanKeys.TXN_NUMBER, txnNumber);
        }
        String id = lsid;
        if (id != null) {
            span.setAttribute(SpanKeys.LSID, id);
        }
    }
}
