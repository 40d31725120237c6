package io.github.mongoredact.otel;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.OwnedDocument;
import org.bson.BsonValue;

/**
 * The {@code db.operation.batch.size} of a command, read from its redacted copy: the statements of an {@code update}
 * ({@code updates}) or a {@code delete} ({@code deletes}) and the operations of a client {@code bulkWrite} ({@code ops}),
 * where there are two or more, as the semantic conventions define a batch. An {@code insert}'s documents are operands of one
 * operation, not a batch (the conventions say so): it gets none. Only what the copy shows counts: a copy cut by a
 * {@code maxDocumentBytes} cap gives none. Stateless.
 */
final class BatchSize {
    private BatchSize() {
    }

    /** @return the batch size, or -1 where the command is not a batch of two or more or the copy does not tell */
    static long of(final OwnedDocument copy, final String commandName) {
        String field = statements(commandName);
        if (field == null || copy.containsKey(ShownCount.TRUNCATED)) {
            return -1;
        }
        BsonValue statements = copy.get(field);
        long count = statements == null ? -1 : ShownCount.of(statements);
        return count >= 2 ? count : -1;
    }

    @Nullable
    private static String statements(final String commandName) {
        switch (commandName) {
            case "update":
                return "updates";
            case "delete":
                return "deletes";
            case "bulkWrite":
                return "ops";
            default:
                return null;
        }
    }
}
