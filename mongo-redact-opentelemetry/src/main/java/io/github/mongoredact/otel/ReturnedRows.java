package io.github.mongoredact.otel;

import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.OwnedDocument;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * The rows a command returned, as {@code db.client.response.returned_rows} counts them: the documents of the batch a cursor
 * reply carries ({@code cursor.firstBatch} of a {@code find}, an {@code aggregate} or a {@code list*} command,
 * {@code cursor.nextBatch} of a {@code getMore}), read from the redacted reply, where a policy's cap that shortened the batch
 * counts what it left out ({@code {"$omitted": n}}). Deny by default: what the copy does not show as a batch (a reply cut by
 * a {@code maxDocumentBytes} cap, a batch replaced by a placeholder) counts nothing. Stateless.
 */
final class ReturnedRows {
    private ReturnedRows() {
    }

    /** @return the rows of the reply's batch, or -1 where the command returned no batch or the copy does not show one */
    static long of(final CompletedCommand command) {
        OwnedDocument reply = command.getReplyView();
        if (reply == null || !command.isSucceeded() || reply.containsKey(ShownCount.TRUNCATED)) {
            return -1;
        }
        BsonValue cursor = reply.get("cursor");
        if (cursor == null || !cursor.isDocument()) {
            return -1;
        }
        BsonDocument batches = cursor.asDocument();
        BsonValue batch = batches.containsKey("firstBatch") ? batches.get("firstBatch") : batches.get("nextBatch");
        return batch == null ? -1 : ShownCount.of(batch);
    }
}
