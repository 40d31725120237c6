package io.github.mongoredact.otel;

import io.github.mongoredact.OwnedDocument;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonValue;

/**
 * The span attributes read from the redacted copy of the started command, through its public view: the session id
 * ({@code lsid}), the transaction number, {@code getMore}'s cursor id and the batch size of an {@code update}, a
 * {@code delete} or a client {@code bulkWrite} ({@link BatchSize}). Only values the copy still holds with their own type
 * are taken: a value the policy replaced by a placeholder yields no attribute, so the span tells nothing the copy hides. Each
 * is one read of the top level, hopping over the values before it. Stateless. (A reply's cursor id comes from
 * {@code CompletedCommand.getCursorId()}, which the listener reads without a copy.)
 */
final class DocumentFacts {
    private static final String GET_MORE = "getMore";

    private DocumentFacts() {
    }

    /**
     * Reads {@code db.mongodb.lsid}, {@code db.mongodb.txn_number}, getMore's {@code db.mongodb.cursor_id} and
     * {@code db.operation.batch.size} into the facts.
     */
    static void ofCommand(final OwnedDocument command, final String commandName, final SpanFacts span) {
        long batchSize = BatchSize.of(command, commandName);
        if (batchSize >= 0) {
            span.batchSize(batchSize);
        }
        if (GET_MORE.equals(commandName)) {
            String first = command.getFirstKey();
            BsonValue id = first == null ? null : command.get(first);
            if (id != null && id.isInt64()) {
                span.cursorId(id.asInt64().getValue());
            }
        }
        BsonValue txnNumber = command.get("txnNumber");
        if (txnNumber != null && txnNumber.isInt64()) {
            span.txnNumber(txnNumber.asInt64().getValue());
        } else if (txnNumber != null && txnNumber.isInt32()) {
            span.txnNumber(txnNumber.asInt32().getValue());
        }
        BsonValue lsid = command.get("lsid");
        BsonValue id = lsid != null && lsid.isDocument() ? lsid.asDocument().get("id") : null;
        if (id != null && id.isBinary()) {
            BsonBinary binary = id.asBinary();
            if (binary.getType() == BsonBinarySubType.UUID_STANDARD.getValue() && binary.getData().length == 16) {
                span.lsid(binary.asUuid().toString());
            }
        }
    }
}
